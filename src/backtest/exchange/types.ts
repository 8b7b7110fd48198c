/** The backtest exchange's vocabulary: recorded events, orders in integer ticks and lots, and the reports it sends back. */
import type { ContractOrderStatus, ContractOrderType, ContractSide, ContractTimeInForce, PriceType, SpotNewOrderType, SpotSide, SpotTimeInForce } from '../../model/enums.ts';

/** Book side: 0 bid, 1 ask (the simulated venue's BID/ASK). */
export type BookSide = 0 | 1;

/** A recorded change of one price level at exchange time: `lots` is the level's new size (0 removes it). */
export interface RecordedDepth {
  readonly kind: 'depth';
  /** Exchange time, ms. */
  readonly time: number;
  readonly side: BookSide;
  readonly priceTicks: number;
  readonly lots: number;
}

/** A recorded public trade at exchange time; `takerSide` is the side of the aggressor (0 buyer, 1 seller). */
export interface RecordedTrade {
  readonly kind: 'trade';
  readonly time: number;
  readonly priceTicks: number;
  readonly lots: number;
  readonly takerSide: BookSide;
}

/** A recorded (or configured) mark price of a contract, as a decimal text in the price's unit. */
export interface RecordedMark {
  readonly kind: 'mark';
  readonly time: number;
  readonly price: string;
}

/** What the runner feeds the exchange, in exchange-time order. */
export type RecordedEvent = RecordedDepth | RecordedTrade | RecordedMark;

/** Order sides as the venue names them: spot BUY/SELL, contract BUY_OPEN, SELL_OPEN, BUY_CLOSE, SELL_CLOSE. */
export type OrderSide = SpotSide | ContractSide;
export type OrderType = SpotNewOrderType | ContractOrderType;
export type TimeInForce = SpotTimeInForce | ContractTimeInForce;
/** Contract price types: INPUT uses priceTicks; the others price the order from the book at arrival. */
export type { PriceType };

/** A new order as the strategy side sends it, already in integer units. */
export interface OrderRequest {
  readonly clientOrderId: string;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly timeInForce?: TimeInForce;
  readonly priceType?: PriceType;
  /** Limit price in ticks (ignored for MARKET and for priceTypes other than INPUT). */
  readonly priceTicks: number;
  /** Lots to trade (0 for a spot MARKET BUY by quote amount). */
  readonly lots: number;
  /** A spot MARKET BUY's quote amount to spend, in qunits (one tick × one lot), as the venue takes it. */
  readonly quoteBudget?: number;
  /** STOP trigger in ticks. */
  readonly triggerTicks?: number;
  /** OVER: ticks added to (buy) or taken from (sell) the best opposite price. */
  readonly overTicks?: number;
  /** Contract leverage as a decimal text (required to open). */
  readonly leverage?: string;
}

export type OrderStatus = ContractOrderStatus;
/** What a report says happened; CANCEL_REJECTED answers a refused cancel and leaves the order as it was. */
export type ExecType = 'NEW' | 'TRADE' | 'CANCELED' | 'REJECTED' | 'EXPIRED' | 'TRIGGERED' | 'CANCEL_REJECTED';

/** One report of the exchange, stamped with the time it happened and the time it reaches the strategy. */
export interface ExecutionReport {
  readonly clientOrderId: string;
  readonly orderId: string;
  readonly execType: ExecType;
  /** The order's status after this report (for a cancel of an order the exchange does not know: REJECTED). */
  readonly status: OrderStatus;
  /** The venue's refusal code for REJECTED and CANCEL_REJECTED, else 0. */
  readonly code: number;
  /** Price and lots of this fill (TRADE only, else 0). */
  readonly lastPriceTicks: number;
  readonly lastLots: number;
  readonly isMaker: boolean;
  /** Fee of this fill as a decimal text in `feeAsset` ('0' when none). */
  readonly fee: string;
  readonly feeAsset: string;
  readonly executedLots: number;
  readonly leavesLots: number;
  /** When it happened at the exchange, ms. */
  readonly exchTime: number;
  /** When the strategy sees it (exchTime + response latency), ms. */
  readonly localTime: number;
}

/** Returns the book side an order side rests on. */
export function bookSideOf(side: OrderSide): BookSide {
  return side === 'BUY' || side === 'BUY_OPEN' || side === 'BUY_CLOSE' ? 0 : 1;
}

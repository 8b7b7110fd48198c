/** What a backtest run hands to the results writer: its identity, its orders, fills, equity, positions and prices, and its metrics. */
import type { EquityPoint, Metrics, PositionPoint } from '../metrics.ts';

/** One order as orders.csv lists it (decimal texts as the venue shows them). */
export interface OrderRow {
  readonly time: number;
  readonly clientOrderId: string;
  readonly orderId: string;
  readonly side: string;
  readonly type: string;
  readonly timeInForce: string;
  readonly price: string;
  readonly qty: string;
  readonly status: string;
  readonly executedQty: string;
  /** When it last changed (filled, cancelled, expired, rejected). */
  readonly updateTime: number;
  /** Contracts: how the price is given (INPUT, OPPONENT, QUEUE, OVER, MARKET), a STOP's trigger, and the leverage asked; empty for spot. */
  readonly priceType: string;
  readonly triggerPrice: string;
  readonly leverage: string;
}

/** One fill as fills.csv lists it. */
export interface FillRow {
  readonly time: number;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly side: string;
  readonly price: string;
  readonly qty: string;
  readonly fee: string;
  readonly feeAsset: string;
  readonly isMaker: boolean;
}

/** A price to draw (a mid, a trade or a bar's close). */
export interface PricePoint {
  readonly time: number;
  readonly price: string;
}

/** Everything the results writer needs from one run. */
export interface BacktestResults {
  /** Name of the run (the config's file name), shown in the report's title. */
  readonly name: string;
  readonly symbol: string;
  /** Currency of equity and PnL (quote asset or margin token). */
  readonly currency: string;
  /** Decimals money is shown with in the report (the currency's precision). */
  readonly moneyDecimals: number;
  /** What a position and a price of `symbol` are counted in (spot: its base asset and quote asset; a contract: contracts and its quote), and the decimals of its lot. */
  readonly positionUnit?: string;
  readonly positionDecimals?: number;
  readonly priceUnit?: string;
  /** Hash of the config as run, and of the data it read (see summary.json). */
  readonly configHash: string;
  readonly dataHash: string;
  readonly seed: number;
  readonly orders: readonly OrderRow[];
  readonly fills: readonly FillRow[];
  readonly equity: readonly EquityPoint[];
  readonly positions: readonly PositionPoint[];
  readonly prices: readonly PricePoint[];
  readonly metrics: Metrics;
}

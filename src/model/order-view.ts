/** What a strategy sees of its own orders, fills and book: one order shape and one fill shape, written only by the executor's order feed, and the book kept from those fills. */
import type { PositionSide } from './enums.ts';
import type { AccountKind, ReportSide } from './events.ts';

/**
 * The status a strategy sees. An order the venue accepted shows NEW once, then PARTIALLY_FILLED once
 * per fill, then one terminal status; an order refused (by the venue, or decided locally: not sent
 * after a 429, a transport error, never found after an unknown outcome) shows only REJECTED; one
 * cancelled before it was sent shows only CANCELED.
 */
export type OrderViewStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'REJECTED';

/** How an order's placement ended, as far as the bot knows. */
export type OrderOutcome = 'pending' | 'placed' | 'rejected' | 'unknown' | 'not-placed';

/** One fill of one of the strategy's orders, delivered once (from the user stream, or from myTrades when the stream missed it). */
export interface OrderFill {
  /** The venue's trade id, or `<orderId>:<cumulative quantity>` when the venue's report carries none. */
  readonly tradeId: string;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly strategyId: string;
  readonly account: AccountKind;
  readonly symbol: string;
  /** The side of the order as the strategy sent it (contracts: BUY_OPEN, SELL_CLOSE, …). */
  readonly side: ReportSide;
  readonly price: string;
  readonly qty: string;
  readonly fee: string;
  /** Empty when nothing was charged. */
  readonly feeAsset: string;
  /** Undefined where the venue does not say. */
  readonly maker: boolean | undefined;
  /** Venue time of the trade (epoch ms). */
  readonly time: number;
  /** Where the bot learnt of it first. */
  readonly source: 'stream' | 'reconciliation';
}

/** One of the strategy's orders, as of its latest change. Decimals are exact strings; the average price is rounded to the instrument's tick precision. */
export interface OrderView {
  readonly clientOrderId: string;
  /** The venue's id, once known. */
  readonly orderId: string | undefined;
  readonly strategyId: string;
  readonly account: AccountKind;
  readonly symbol: string;
  /** As the strategy sent it. */
  readonly side: ReportSide;
  readonly type: string;
  /** "0" for market orders. */
  readonly price: string;
  readonly origQty: string;
  readonly status: OrderViewStatus;
  /** A cancel was asked and the order is not over yet. */
  readonly cancelPending: boolean;
  /** The sum of the fills delivered so far (never more than the venue's executed quantity). */
  readonly executedQty: string;
  /** Σ price × qty of those fills, exact. */
  readonly cumQuote: string;
  /** cumQuote / executedQty rounded half-up to the tick's decimals; "0" before any fill. */
  readonly avgPrice: string;
  /** Fees of those fills by asset. */
  readonly fees: Readonly<Record<string, string>>;
  readonly outcome: OrderOutcome;
  /** Why it was rejected or not placed. */
  readonly reason: string | undefined;
  /** The fill this change delivers (undefined for changes without a fill). */
  readonly lastFill: OrderFill | undefined;
  /** Local clock time of the change. */
  readonly ts: number;
}

/** One side of a strategy's position. */
export interface BookSide {
  readonly side: PositionSide;
  readonly qty: string;
  readonly avgPrice: string;
}

/** A strategy's book of one symbol. */
export interface SymbolBook {
  readonly symbol: string;
  /** Net quantity: spot base (+ held, − sold short), contracts long − short. */
  readonly net: string;
  /** Spot: one side (LONG when holding); contracts: each side held. */
  readonly sides: readonly BookSide[];
  /** The asset PnL, fees and funding are counted in (spot quote asset, contract margin token). */
  readonly asset: string;
  /** Realized PnL of closed quantity, before fees. */
  readonly realizedGross: string;
  /** Fees of this symbol's fills, valued in `asset`. */
  readonly fees: string;
  /** Funding paid (−) or received (+); not attributed to strategies yet, so 0. */
  readonly funding: string;
  /** realizedGross − fees + funding. */
  readonly realized: string;
  /** At the mark (contracts) or last price (spot); undefined while there is no price. */
  readonly unrealized: string | undefined;
}

/** A strategy's PnL in its accounting asset. */
export interface BookPnl {
  readonly asset: string;
  readonly realizedGross: string;
  readonly fees: string;
  readonly funding: string;
  readonly realized: string;
  readonly unrealized: string;
  /** realized + unrealized. */
  readonly net: string;
  /** Assets that could not be converted (no price linking them yet): left out of the sums. */
  readonly unconverted: readonly string[];
}

/** Returns true for FILLED, CANCELED and REJECTED. */
export function isFinalStatus(s: OrderViewStatus): boolean {
  return s === 'FILLED' || s === 'CANCELED' || s === 'REJECTED';
}

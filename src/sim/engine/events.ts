/** The simulated venue's single ordered event log: every change as one immutable event with a sequence and the clock time, published synchronously. */
import { createHash } from 'node:crypto';
import type { Candle } from '../../model/market.ts';

/** A spot or contract order's state after a change (decimals as venue strings, ids as strings). */
export interface OrderEventBody {
  readonly type: 'order';
  readonly market: 'spot' | 'contract';
  readonly account: string;
  readonly symbol: string;
  readonly orderId: string;
  readonly clientOrderId: string;
  /** BUY/SELL for spot; BUY_OPEN, SELL_OPEN, BUY_CLOSE, SELL_CLOSE for contracts. */
  readonly side: string;
  /** LIMIT or MARKET (spot); LIMIT or STOP (contract). */
  readonly orderType: string;
  readonly timeInForce: string;
  readonly price: string;
  readonly origQty: string;
  readonly executedQty: string;
  readonly cumQuote: string;
  readonly status: string;
  /** What happened: NEW, TRADE, CANCELED, TRIGGERED (a STOP order became a LIMIT order), EXPIRED (self-trade). */
  readonly execType: string;
  readonly created: number;
}

/** One execution of one order (each trade gives two: maker and taker). */
export interface FillEventBody {
  readonly type: 'fill';
  readonly market: 'spot' | 'contract';
  readonly account: string;
  readonly symbol: string;
  readonly orderId: string;
  readonly tradeId: string;
  readonly side: string;
  readonly price: string;
  readonly qty: string;
  readonly fee: string;
  readonly feeAsset: string;
  readonly isMaker: boolean;
}

/** A balance after a change: free and locked of one asset of one account. */
export interface BalanceEventBody {
  readonly type: 'balance';
  readonly account: string;
  readonly asset: string;
  readonly free: string;
  readonly locked: string;
}

/** A contract position after a change. */
export interface PositionEventBody {
  readonly type: 'position';
  readonly account: string;
  readonly symbol: string;
  readonly side: 'LONG' | 'SHORT';
  readonly avgPrice: string;
  readonly position: string;
  readonly available: string;
  readonly margin: string;
  readonly flp: string;
  readonly realizedPnL: string;
}

/** A price level's new total quantity ("0" removes it), as a diffDepth element. */
export interface BookEventBody {
  readonly type: 'book';
  readonly symbol: string;
  readonly side: 'BID' | 'ASK';
  readonly price: string;
  readonly qty: string;
}

/** A public trade. */
export interface TradeEventBody {
  readonly type: 'trade';
  readonly symbol: string;
  readonly id: string;
  readonly price: string;
  readonly qty: string;
  readonly isBuyerMaker: boolean;
}

/** The current 1m kline of a symbol after trades (other intervals are read with `klines`). */
export interface KlineEventBody extends Candle {
  readonly type: 'kline';
  readonly symbol: string;
  readonly interval: '1m';
}

/** The rolling 24h ticker of a symbol after trades. */
export interface TickerEventBody {
  readonly type: 'ticker';
  readonly symbol: string;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
  readonly quoteVolume: string;
}

/** A contract's new mark price after its index moved (index plus the decaying basis). */
export interface MarkEventBody {
  readonly type: 'mark';
  readonly symbol: string;
  readonly index: string;
  readonly indexPrice: string;
  readonly markPrice: string;
}

/** One position's funding payment at a settlement: `amount` is negative when paid, positive when received. */
export interface FundingEventBody {
  readonly type: 'funding';
  readonly account: string;
  readonly symbol: string;
  readonly side: 'LONG' | 'SHORT';
  readonly rate: string;
  readonly amount: string;
  readonly asset: string;
  readonly intervalEnd: number;
}

/** A forced liquidation: the position taken over at `price` after the mark crossed `flp`. */
export interface LiquidationEventBody {
  readonly type: 'liquidation';
  readonly account: string;
  readonly symbol: string;
  readonly side: 'LONG' | 'SHORT';
  readonly qty: string;
  readonly price: string;
  readonly flp: string;
  readonly margin: string;
  readonly pnl: string;
  readonly toInsurance: string;
  readonly fromInsurance: string;
  readonly asset: string;
}

/** A withdrawal order moved to a new status. */
export interface WithdrawalEventBody {
  readonly type: 'withdrawal';
  readonly account: string;
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly asset: string;
  readonly status: number;
  readonly statusCode: string;
}

export type SimEventBody =
  | OrderEventBody
  | FillEventBody
  | BalanceEventBody
  | PositionEventBody
  | BookEventBody
  | TradeEventBody
  | KlineEventBody
  | TickerEventBody
  | MarkEventBody
  | FundingEventBody
  | LiquidationEventBody
  | WithdrawalEventBody;

/** An event as stored and published: the body with its sequence and time. */
export interface SimEvent {
  readonly seq: number;
  readonly time: number;
  readonly body: SimEventBody;
}

export type SimEventListener = (ev: SimEvent) => void;

/**
 * The ordered log. Listeners are a plain array called synchronously in subscription order (Rx is the
 * outer API elsewhere; per-event Subjects would cost more than the matching itself). Keeping the history
 * is optional so long runs can drop it; the sequence is counted either way.
 */
export class EventLog {
  private readonly events: SimEvent[] = [];
  private readonly listeners: SimEventListener[] = [];
  private seq: number;

  constructor(private readonly keep: boolean, lastSeq = 0) {
    this.seq = lastSeq;
  }

  /** Returns true when an event would be kept or heard; when false the engine skips building event bodies (the sequence is not counted). */
  get active(): boolean {
    return this.keep || this.listeners.length > 0;
  }

  /** Appends one event stamped with `time` and publishes it. */
  append(time: number, body: SimEventBody): void {
    const ev: SimEvent = { seq: ++this.seq, time, body };
    if (this.keep) this.events.push(ev);
    const ls = this.listeners;
    for (let i = 0; i < ls.length; i++) ls[i]!(ev);
  }

  /** Adds a listener; returns a function that removes it. */
  subscribe(fn: SimEventListener): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Returns the sequence of the last event (0 before any). */
  lastSeq(): number {
    return this.seq;
  }

  /** Returns the kept events with sequence above `afterSeq`. */
  since(afterSeq = 0): readonly SimEvent[] {
    if (afterSeq <= 0) return this.events;
    const first = this.events[0]?.seq ?? 1;
    return this.events.slice(Math.max(0, afterSeq - first + 1));
  }

  /** Returns the SHA-256 (hex) of the kept log serialized one JSON line per event. */
  hash(): string {
    const h = createHash('sha256');
    for (const ev of this.events) h.update(`${JSON.stringify(ev)}\n`);
    return h.digest('hex');
  }
}

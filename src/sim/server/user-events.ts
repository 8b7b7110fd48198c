/** Turns the engine's events into user-stream payloads with the fields and types of the published samples (ids and times as strings, venue-notes.md §1). */
import type { OrderEventBody, FillEventBody, PositionEventBody, SimEvent } from '../engine/events.ts';
import type { SimVenue } from '../engine/venue.ts';
import { ownerOf } from './owners.ts';

type Emit = (owner: string, payload: unknown) => void;

/** Maps events to payloads; balance changes of one operation are gathered into one account event per account. */
export class UserEventMapper {
  /** The last fill of each order, waiting for the order event it belongs to. */
  private readonly fills = new Map<string, FillEventBody>();
  private readonly balances = new Map<string, { time: number; list: Map<string, { a: string; f: string; l: string }> }>();
  private flushQueued = false;

  constructor(private readonly venue: SimVenue, private readonly emit: Emit) {}

  /** Handles one engine event. */
  onEvent(ev: SimEvent): void {
    const b = ev.body;
    switch (b.type) {
      case 'fill':
        this.fills.set(b.orderId, b);
        return;
      case 'order':
        this.order(ev.time, b);
        return;
      case 'balance': {
        let e = this.balances.get(b.account);
        if (!e) this.balances.set(b.account, (e = { time: ev.time, list: new Map() }));
        e.list.set(b.asset, { a: b.asset, f: b.free, l: b.locked });
        if (!this.flushQueued) {
          this.flushQueued = true;
          queueMicrotask(() => this.flushBalances());
        }
        return;
      }
      case 'position':
        this.position(b);
        return;
      // Market events, and engine events whose balance and position changes arrive as their own events.
      case 'book':
      case 'trade':
      case 'kline':
      case 'ticker':
      case 'mark':
      case 'funding':
      case 'liquidation':
      case 'withdrawal':
        return;
      default: {
        const never: never = b;
        throw new Error(`user events: unknown engine event ${JSON.stringify(never)}`);
      }
    }
  }

  private owner(accountId: string): string | undefined {
    const a = this.venue.ledger.account(accountId);
    return a ? ownerOf(a.userId, a.accountIndex) : undefined;
  }

  private order(time: number, o: OrderEventBody): void {
    const owner = this.owner(o.account);
    if (owner === undefined) return;
    const fill = o.execType === 'TRADE' ? this.fills.get(o.orderId) : undefined;
    if (fill) this.fills.delete(o.orderId);
    if (o.status !== 'NEW' && o.status !== 'PARTIALLY_FILLED') this.fills.delete(o.orderId);
    const working = o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';
    const common = {
      E: String(time),
      s: o.symbol,
      c: o.clientOrderId,
      S: o.market === 'spot' ? o.side : o.side.startsWith('BUY') ? 'BUY' : 'SELL',
      o: o.orderType,
      f: o.timeInForce,
      q: o.origQty,
      p: o.price,
      X: o.status,
      i: o.orderId,
      l: fill ? fill.qty : '0',
      z: o.executedQty,
      L: fill ? fill.price : '0',
      ...(fill ? { t: fill.tradeId } : {}),
      n: fill ? fill.fee : '0',
      N: fill && fill.feeAsset !== '' ? fill.feeAsset : null,
      u: true,
      w: working,
      m: fill ? fill.isMaker : false,
      O: String(o.created),
      Z: o.cumQuote,
    };
    if (o.market === 'spot') {
      this.emit(owner, { e: 'executionReport', ...common });
      return;
    }
    const rec = this.venue.core.orders.get(o.orderId);
    this.emit(owner, {
      e: 'contractExecutionReport', ...common, u: false,
      C: o.side === 'BUY_CLOSE' || o.side === 'SELL_CLOSE',
      v: rec?.leverage ?? '',
    });
  }

  private position(p: PositionEventBody): void {
    const owner = this.owner(p.account);
    if (owner === undefined) return;
    this.emit(owner, {
      e: 'outboundContractPositionInfo', A: p.account, s: p.symbol, S: p.side, p: p.avgPrice, P: p.position, a: p.available, f: p.flp, m: p.margin, r: p.realizedPnL,
    });
  }

  private flushBalances(): void {
    this.flushQueued = false;
    const batch = [...this.balances.entries()];
    this.balances.clear();
    for (const [accountId, e] of batch) {
      const a = this.venue.ledger.account(accountId);
      if (!a) continue;
      this.emit(ownerOf(a.userId, a.accountIndex), {
        e: a.accountType === 3 ? 'outboundContractAccountInfo' : 'outboundAccountInfo',
        E: String(e.time), T: true, W: true, D: true, B: [...e.list.values()],
      });
    }
  }
}

/** What a backtest keeps for its results while it runs: its orders and fills as their CSV lines, its equity, price and position points, each spooled beyond the last few thousand. */
import { addScaled, compareScaled, roundToDecimal, scaled, SCALED_ZERO, scaledOfAny, scaledText, subScaled, type Scaled } from '../core/fixed.ts';
import type { OrderReport, OrderRequest } from '../model/index.ts';
import { fillLine, FillTotals, LineSpool, orderLine, PointSpool, type OrderRow } from '../backtest/index.ts';
import type { GatewayFill } from '../backtest/run/exchange-gateway.ts';
import type { RunMarket } from '../backtest/run/markets.ts';

/**
 * Finished orders the recorder still knows by id: more than the gateway reports on after they finish
 * (it forgets its finished orders beyond 2 × 1 000), so every report of an order finds its row.
 */
export const FINISHED_KEPT = 4_096;

const NO_CONTRACT_FIELDS = { priceType: '', triggerPrice: '', leverage: '' } as const;

/** Returns true for the statuses after which the gateway forgets an order in time (an expired one it keeps, and so does the recorder). */
function finished(status: string): boolean {
  return status === 'FILLED' || status === 'CANCELED' || status === 'REJECTED';
}

/** Collects what the results hold as the gateway reports it: orders and fills as their CSV lines, and the equity, price and position points, each spooled to a file beyond the last few thousand. */
export class Recorder {
  readonly fillTotals = new FillTotals();
  /** Equity and the price it was marked at, per sample; the net position after each change. */
  readonly equity = new PointSpool();
  readonly prices = new PointSpool();
  readonly positions = new PointSpool();
  /** Orders that reached the exchange (orders.csv's rows), and those of them cancelled. */
  orders = 0;
  cancels = 0;
  /** The net position (scaled integers, rounded as decimal.js rounds: one per fill, no decimal.js). */
  private position: Scaled = SCALED_ZERO;
  /** fills.csv's lines, in fill order. */
  private readonly fills = new LineSpool();
  /** orders.csv's lines before `lines`: orders no report can change any more. */
  private readonly done = new LineSpool();
  /** orders.csv's next lines in placement order, from `done.length` on: a finished order's line, a blank while the order works. */
  private lines: string[] = [];
  /** Whether each of `lines` is final: its order finished and left `rows`. */
  private sealed: boolean[] = [];
  /** How many of `lines` from the first are sealed. */
  private front = 0;
  /** Working orders and the latest finished ones by clientOrderId, as their latest report shows them, with their place in orders.csv. */
  private readonly rows = new Map<string, { readonly seq: number; readonly row: OrderRow }>();
  /** The ids of finished orders in `rows`, oldest first from `head`. */
  private readonly finished: string[] = [];
  private head = 0;

  order(r: OrderReport, req: OrderRequest): void {
    const prev = this.rows.get(r.clientOrderId);
    if (r.status === 'CANCELED' && prev?.row.status !== 'CANCELED') this.cancels++;
    const row: OrderRow = {
      time: prev?.row.time ?? r.time, clientOrderId: r.clientOrderId, orderId: r.orderId, side: r.side, type: r.type,
      timeInForce: req.timeInForce ?? 'GTC', price: r.price, qty: r.origQty, status: r.status, executedQty: r.executedQty, updateTime: r.time,
      ...(req.account === 'contract' ? { priceType: req.priceType, triggerPrice: req.triggerPrice ?? '', leverage: req.leverage ?? '' } : NO_CONTRACT_FIELDS),
    };
    let seq = prev?.seq;
    if (seq === undefined) {
      this.orders++;
      seq = this.done.length + this.lines.length;
      this.lines.push('');
      this.sealed.push(false);
    }
    this.rows.set(r.clientOrderId, { seq, row });
    if (!finished(row.status)) return;
    this.lines[seq - this.done.length] = orderLine(row);
    if (prev !== undefined && finished(prev.row.status)) return;
    this.finished.push(r.clientOrderId);
    if (this.finished.length - this.head > FINISHED_KEPT) this.seal(this.finished[this.head++]!);
    if (this.head > FINISHED_KEPT) {
      this.finished.splice(0, this.head);
      this.head = 0;
    }
  }

  /** An order the gateway has forgotten gets no more reports: its line is final, and the final lines in front are spooled. */
  private seal(id: string): void {
    const e = this.rows.get(id)!;
    this.rows.delete(id);
    this.sealed[e.seq - this.done.length] = true;
    while (this.front < this.sealed.length && this.sealed[this.front]) this.front++;
    if (this.front < FINISHED_KEPT) return;
    this.done.pushAll(this.lines.slice(0, this.front));
    this.lines = this.lines.slice(this.front);
    this.sealed = this.sealed.slice(this.front);
    this.front = 0;
  }

  /** Returns fills.csv's lines (once, at the end). */
  fillLines(): string[] {
    return this.fills.drain();
  }

  /** Returns orders.csv's lines (once, at the end), the orders still working as their latest report shows them. */
  orderLines(): string[] {
    for (const { seq, row } of this.rows.values()) if (!finished(row.status)) this.lines[seq - this.done.length] = orderLine(row);
    const out = this.done.drain();
    for (const l of this.lines) out.push(l);
    return out;
  }

  /** Removes the spooled lines of a run that failed. */
  discard(): void {
    for (const s of [this.fills, this.done, this.equity, this.prices, this.positions]) s.discard();
  }

  /** Records a fill of `m`, the symbol this recorder keeps the results of. */
  fill(f: GatewayFill, m: RunMarket): void {
    this.fills.push(fillLine({ time: f.time, orderId: f.orderId, clientOrderId: f.clientOrderId, side: f.side, price: f.price, qty: f.qty, fee: f.fee, feeAsset: f.feeAsset, isMaker: f.maker }));
    const v = m.value(f);
    this.fillTotals.add({ qty: f.qty, notional: v.notional, fee: v.fee, isMaker: f.maker });
    // Buys (BUY, BUY_OPEN, BUY_CLOSE) add to the net position, sells take from it; a spot buy receives its quantity less the fee charged in the base.
    const qty = scaled(f.qty, 'qty');
    const got = m.inst.spot && f.side === 'BUY' && f.feeAsset === m.inst.baseAsset ? roundToDecimal(subScaled(qty, scaled(f.fee, 'fee'))) : qty;
    this.position = roundToDecimal(f.side.startsWith('BUY') ? addScaled(this.position, got) : subScaled(this.position, got));
    this.positions.push(f.time, scaledText(this.position));
  }

  /** Records the net position a change no fill carries left (a liquidation). */
  positionAt(time: number, net: string | undefined): void {
    if (net === undefined) return;
    const at = scaledOfAny(net, 'net position');
    if (compareScaled(this.position, at) === 0) return;
    this.position = at;
    this.positions.push(time, scaledText(at));
  }

}

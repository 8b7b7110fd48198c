// A replayed symbol's book as the bus carries it live (depthUpdate, depthSnapshot), made from the replay's depth batches: the runner reads batches and makes text for the strategies only.
import { StepFormatter } from '../../data/instruments.ts';
import { SIDE } from '../../data/tables.ts';
import { depthSnapshotEvent, depthUpdateEvent, type BusEvent, type DepthBatchEvent, type Level } from '../../model/index.ts';
import { SortedLevels } from '../../venue/local-book.ts';

/**
 * The events the live client's LocalBook publishes for the messages the replay's TickBook applied:
 * a diff's levels in message order as a depthUpdate (and the whole book after it when every update is
 * to carry one), a snapshot's whole book as a depthSnapshot. The TickBook already kept the book's
 * rules (versions, gaps, buffering), so every batch here applies; text is made once per changed level.
 */
export class DepthView {
  private readonly price: StepFormatter;
  private readonly qty: StepFormatter;
  private readonly bids = new SortedLevels(-1);
  private readonly asks = new SortedLevels(1);

  constructor(readonly symbol: string, tick: string, lot: string, private readonly snapshotEveryUpdate: boolean) {
    this.price = new StepFormatter(tick);
    this.qty = new StepFormatter(lot);
  }

  /** Calls `publish` with the bus events of one batch, in order. */
  events(ev: DepthBatchEvent, publish: (ev: BusEvent) => void): void {
    if (ev.snapshot) {
      this.bids.clear();
      this.asks.clear();
    }
    const bids: Level[] = [];
    const asks: Level[] = [];
    const { side, price, qty } = ev;
    for (let i = 0; i < side.length; i++) {
      const s = side[i]!;
      if (s === SIDE.NONE) continue;
      const p = price[i]!;
      const lots = qty[i]!;
      const l: Level = [this.price.format(p), this.qty.format(lots)];
      const book = s === SIDE.BID ? this.bids : this.asks;
      if (lots === 0) book.delete(p);
      else book.set(p, l);
      if (!ev.snapshot) (s === SIDE.BID ? bids : asks).push(l);
    }
    if (!ev.snapshot) publish(depthUpdateEvent({ symbol: this.symbol, version: ev.version, bids, asks, ts: ev.ts, recvTs: ev.recvTs }));
    if (ev.snapshot || this.snapshotEveryUpdate) {
      publish(depthSnapshotEvent({ symbol: this.symbol, version: ev.version, bids: this.bids.top(Infinity), asks: this.asks.top(Infinity), ts: ev.ts, recvTs: ev.recvTs }));
    }
  }
}

/**
 * Paper trading on real recordings: the simulated venue's market taken from a catalog (`market:` in
 * the venue config). Each recorded book change and trade reaches the venue's engine at its receive
 * time mapped onto the venue's clock (`speed` times faster), so REST, the market WebSocket and the
 * klines serve the recording; the bot's orders are matched by the backtester's exchange on the same
 * recorded book (queue position, liquidity taken), and settled by the venue's ledger.
 */
import type { Clock, TimerHandle } from '../core/clock.ts';
import { ConfigError } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import { readCatalog, type CatalogIndex } from '../data/catalog.ts';
import { replay } from '../data/replay.ts';
import type { BusEvent } from '../model/index.ts';
import { BacktestExchange } from '../backtest/exchange/exchange.ts';
import { constantLatency } from '../backtest/exchange/latency.ts';
import { queueModel } from '../backtest/exchange/queue.ts';
import type { ExecutionReport, OrderRequest, OrderSide, OrderType, TimeInForce } from '../backtest/exchange/types.ts';
import type { BookSide as EngineSide } from '../sim/book/order-book.ts';
import type { ExternalMarket } from '../sim/engine/external.ts';
import { fmtAmount } from '../sim/ledger/amount.ts';
import type { SimInstrument } from '../sim/engine/instruments.ts';
import type { ExternalOrder } from '../sim/engine/matcher.ts';
import { decimalUnits } from '../sim/engine/units.ts';
import type { SimVenue } from '../sim/engine/venue.ts';
import type { VenueConfig } from '../sim/server/config.ts';
import { recordBook, recordTrade, type RecordedSink } from '../backtest/run/replayed.ts';
import type { MarketFeed } from '../sim/server/market-feed.ts';

/** The `market:` section of a venue config. */
export type MarketConfig = NonNullable<VenueConfig['market']>;

/** Recorded events read ahead of the clock before the reader waits (a bound on memory), by default. */
const WINDOW = 8192;

/** One symbol replayed: the engine's market and the exchange that matches the bot's orders on it. */
interface Replayed {
  readonly inst: SimInstrument;
  readonly market: ExternalMarket;
  readonly exchange: BacktestExchange;
  /** Takes the recording's changes: the engine shows them (what the bot sees), the exchange holds them under the bot's orders (what they meet). */
  readonly sink: RecordedSink;
  /** Sets the venue's index of this symbol, when contracts are on it (a spot recording has no index of its own: its mid stands in). */
  readonly setIndex: ((price: string) => void) | undefined;
  /** The recorded best prices the index was last set from. */
  mid: [number, number];
}

/** Returns the exchange's request for an order the engine accepted (the engine's orderId is the exchange's client id). */
function requestOf(o: ExternalOrder): OrderRequest {
  const budget = o.quoteBudget !== Infinity;
  return {
    clientOrderId: o.orderId, side: o.side as OrderSide, type: o.type as OrderType, timeInForce: o.timeInForce as TimeInForce,
    priceTicks: o.priceTicks, lots: o.origLots, ...(budget ? { quoteBudget: o.quoteBudget } : {}),
  };
}

/**
 * Returns where the replay starts, epoch ns: the config's ISO `from`, else the first recorded book change of the
 * symbols (a market without a book has nothing to trade on). A `from` after the recording's last event is refused:
 * the venue would start with nothing to replay and the run would end at once, as though it had traded.
 */
function startNs(from: string | undefined, index: CatalogIndex, symbols: readonly string[]): bigint | undefined {
  if (from !== undefined) {
    const ns = BigInt(Date.parse(from)) * 1_000_000n;
    const replayed = index.files.filter((f) => (f.table === 'book_deltas' || f.table === 'trades') && symbols.includes(f.symbol));
    const lasts = replayed.map((f) => BigInt(f.lastNs));
    if (lasts.length > 0 && lasts.every((l) => ns > l)) {
      const last = lasts.reduce((a, b) => (b > a ? b : a));
      throw new ConfigError('market.from', `${from} is after the end of the recording: its last ${symbols.join(', ')} book change or trade is at ${isoOfNs(last)}`);
    }
    return ns;
  }
  const firsts = index.files.filter((f) => f.table === 'book_deltas' && symbols.includes(f.symbol)).map((f) => BigInt(f.firstNs));
  return firsts.length === 0 ? undefined : firsts.reduce((a, b) => (b < a ? b : a));
}

function isoOfNs(ns: bigint): string {
  return new Date(Number(ns / 1_000_000n)).toISOString();
}

/**
 * A catalog replayed onto a venue. `attach` (the venue's MarketFeedFactory) starts it on the venue's
 * clock: the recording's first event is due at the clock's time then. Reading runs ahead of the
 * clock by at most `window` events; a timer applies events as they fall due, and so does `catchUp`,
 * which the venue calls before each request and push.
 */
export class ReplayMarket {
  private readonly symbols = new Map<string, Replayed>();
  /** Read, not yet applied: events and their due times on the venue's clock. */
  private evs: BusEvent[] = [];
  private due: number[] = [];
  private head = 0;
  private timer: TimerHandle | undefined;
  private timerAt = Infinity;
  /** The venue time the current pass started at, and the recording's first local time (µs) in it. */
  private startMs = 0;
  private firstUs: number | undefined;
  private reading = false;
  private stopped = false;
  private passes = 0;
  /** Where each pass starts, epoch ns. */
  private from: bigint | undefined;
  /** Wakes the reader when the buffer has room again, or a waiter of readThrough when more was read. */
  private wakeReader: (() => void) | undefined;
  private waiters: { t: number; resolve: (through: number) => void }[] = [];
  private endResolve!: () => void;
  /** Resolves when the recording has ended with `atEnd: stop` (or the feed stopped). */
  readonly ended = new Promise<void>((r) => {
    this.endResolve = r;
  });

  constructor(private readonly cfg: MarketConfig, private readonly clock: Clock, private readonly log: Logger, private readonly window = WINDOW) {
    if (!Number.isSafeInteger(window) || window < 2) throw new Error('the replay window must be an integer of at least 2 events');
  }

  /** Returns the feed of `venue`: takes over the market of each replayed symbol and starts reading. */
  attach(venue: SimVenue): MarketFeed {
    let index: CatalogIndex;
    try {
      index = readCatalog(this.cfg.replay);
    } catch (e) {
      throw new ConfigError('market.replay', (e as Error).message, { cause: e });
    }
    const names = this.cfg.symbols ?? venue.instrumentsOf('spot').map((i) => i.symbol).filter((s) => index.instruments[s] !== undefined);
    if (names.length === 0) throw new ConfigError('market.replay', `the catalog ${this.cfg.replay} has none of the venue's spot symbols`);
    const queue = queueModel(this.cfg.queue);
    for (const symbol of names) {
      const rec = index.instruments[symbol];
      if (rec === undefined) throw new ConfigError('market.symbols', `the catalog ${this.cfg.replay} has no ${symbol}`);
      const inst = venue.instrument(symbol)!;
      // Every recorded price and size must be a whole number of the venue's ticks and lots.
      if (decimalUnits(rec.tick, inst.tick) <= 0 || decimalUnits(rec.lot, inst.step) <= 0) {
        throw new ConfigError('market.replay', `${symbol}: the catalog's tick ${rec.tick} and lot ${rec.lot} must be multiples of the venue's tickSize ${inst.tick.text} and stepSize ${inst.step.text}`);
      }
      // The matcher is called only once orders come, after both exist.
      const market = venue.externalMarket(symbol, { submit: (o) => exchange.submit(requestOf(o)), cancel: (o) => exchange.cancel(o.orderId) });
      const exchange = new BacktestExchange({
        clock: this.clock, inst, queue, latency: constantLatency(0, 0),
        // The engine locked the funds at placement and settles each fill on its own ledger.
        account: { reserve: () => 0, release: () => undefined, fill: (x, p, lots, isMaker) => market.fill(x.req.clientOrderId, p, lots, isMaker) },
        onReport: (r) => this.onReport(market, r),
      });
      const indexed = venue.market.indexSymbols().includes(symbol);
      const sink: RecordedSink = {
        recordDepth: (side, priceTicks, lots) => {
          market.setLevel(side as EngineSide, priceTicks, lots);
          exchange.recordDepth(side, priceTicks, lots);
        },
        recordTrade: (priceTicks, lots, takerSide) => {
          market.trade(priceTicks, lots, takerSide === 0);
          exchange.recordTrade(priceTicks, lots, takerSide);
        },
      };
      this.symbols.set(symbol, { inst, market, exchange, sink, setIndex: indexed ? (price) => venue.setIndexPrice(symbol, price) : undefined, mid: [-1, -1] });
    }
    this.from = startNs(this.cfg.from, index, names);
    this.log.info({ catalog: this.cfg.replay, symbols: names, fromNs: this.from?.toString(), speed: this.cfg.speed, atEnd: this.cfg.atEnd, queue: queue.name }, 'replayed market starting');
    this.startPass();
    return { catchUp: () => this.catchUp(), stop: () => this.stop() };
  }

  /** Returns how many times the recording has started (1 on the first pass). */
  get pass(): number {
    return this.passes;
  }

  /** Returns the venue time the current pass started at (its first event is due then). */
  get passStartedAt(): number {
    return this.startMs;
  }

  /**
   * Resolves with a venue time up to which every event has been read: `t` once all events due by `t`
   * are (or the recording is over), or less when the read-ahead window filled first (time must move
   * for the reader to go on). A driver of a virtual clock advances to it, never further, so no event
   * is applied later than its time.
   */
  readThrough(t: number): Promise<number> {
    if (this.covers(t)) return Promise.resolve(t);
    if (this.full()) return Promise.resolve(this.readUpTo());
    return new Promise((resolve) => this.waiters.push({ t, resolve }));
  }

  /** Returns how many events are read and not yet applied (at most the window, plus the rows of one read). */
  get buffered(): number {
    return this.evs.length - this.head;
  }

  private covers(t: number): boolean {
    return !this.reading || this.stopped || (this.due.length > this.head && this.lastDue() > t);
  }

  private full(): boolean {
    return this.evs.length - this.head >= this.window;
  }

  /** Returns the venue time through which every event is read while the window is full: just before the last one read (never before now). */
  private readUpTo(): number {
    return Math.max(this.clock.now(), this.lastDue() - 1);
  }

  private lastDue(): number {
    return this.due[this.due.length - 1]!;
  }

  /** Applies every event due by the clock's now, in order. */
  catchUp(): void {
    const now = this.clock.now();
    while (this.head < this.evs.length && this.due[this.head]! <= now) {
      const ev = this.evs[this.head]!;
      this.head++;
      this.apply(ev);
    }
    if (this.head > this.window / 2) {
      this.evs.splice(0, this.head);
      this.due.splice(0, this.head);
      this.head = 0;
    }
    if (!this.full()) this.wake();
    if (this.head === this.evs.length && !this.reading && !this.stopped) this.finishPass();
    this.schedule();
  }

  private stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.wake();
    for (const w of this.waiters.splice(0)) w.resolve(w.t);
    this.endResolve();
  }

  private wake(): void {
    const w = this.wakeReader;
    this.wakeReader = undefined;
    w?.();
  }

  /** Keeps one timer at the next event's due time. */
  private schedule(): void {
    const next = this.head < this.evs.length ? this.due[this.head]! : Infinity;
    if (next === this.timerAt || this.stopped) return;
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = next;
    if (next === Infinity) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.catchUp();
    }, next - this.clock.now());
  }

  private startPass(): void {
    this.passes++;
    this.reading = true;
    this.startMs = this.clock.now();
    this.firstUs = undefined;
    const from = this.from;
    replay({
      catalog: this.cfg.replay,
      symbols: [...this.symbols.keys()],
      tables: ['book_deltas', 'trades'],
      ...(from === undefined ? {} : { from }),
      log: this.log,
      sink: (ev, localUs) => this.read(ev, localUs),
      pace: () => {
        if (this.stopped) throw new Error('replay stopped');
        if (!this.full()) return undefined;
        // Waiters for later times get what is read so far: the clock must move before more is read.
        for (const w of this.waiters.splice(0)) w.resolve(this.readUpTo());
        return new Promise<void>((resolve) => {
          this.wakeReader = resolve;
        });
      },
    }).then(
      (stats) => {
        this.log.debug({ ...stats }, 'recording read');
      },
      (e: unknown) => {
        if (!this.stopped) this.log.error({ err: e, catalog: this.cfg.replay }, 'the replayed market could not read its catalog; it stops');
      },
    ).finally(() => {
      this.reading = false;
      for (const w of this.waiters.splice(0)) w.resolve(w.t);
      this.catchUp();
    });
  }

  private read(ev: BusEvent, localUs: number): void {
    this.firstUs ??= localUs;
    this.evs.push(ev);
    // Whole ms, as the venue stamps everything it serves; never before the event's own time.
    this.due.push(this.startMs + Math.ceil((localUs - this.firstUs) / 1000 / this.cfg.speed));
    const last = this.due[this.due.length - 1]!;
    if (this.waiters.length > 0) {
      const keep = this.waiters.filter((w) => w.t >= last);
      for (const w of this.waiters) if (w.t < last) w.resolve(w.t);
      this.waiters = keep;
    }
    this.schedule();
  }

  /** The recording is over: say so, then stop the market or play it again. */
  private finishPass(): void {
    this.log.info({ catalog: this.cfg.replay, pass: this.passes, atEnd: this.cfg.atEnd }, 'the replayed recording has ended');
    if (this.cfg.atEnd === 'stop') {
      this.stop();
      return;
    }
    for (const r of this.symbols.values()) {
      for (const side of [0, 1] as const) {
        for (const p of [...r.exchange.book.levels(side)]) {
          r.market.setLevel(side, p, 0);
          r.exchange.onRecorded({ kind: 'depth', time: this.clock.now(), side, priceTicks: p, lots: 0 });
        }
      }
    }
    this.startPass();
  }

  private apply(ev: BusEvent): void {
    if (ev.kind !== 'depthSnapshot' && ev.kind !== 'depthUpdate' && ev.kind !== 'trade') return;
    const r = this.symbols.get(ev.symbol);
    if (!r) return;
    if (ev.kind === 'trade') return recordTrade(ev, r.inst, r.sink);
    recordBook(ev, r.inst, (side) => r.exchange.book.levels(side), r.sink);
    if (r.setIndex !== undefined) this.indexFromMid(r);
  }

  /** Sets the index of a symbol contracts are on to the recorded book's mid when the best prices moved. */
  private indexFromMid(r: Replayed): void {
    const bid = r.exchange.book.best(0);
    const ask = r.exchange.book.best(1);
    if (bid === undefined || ask === undefined || (bid === r.mid[0] && ask === r.mid[1])) return;
    r.mid = [bid, ask];
    r.setIndex!(fmtAmount(((BigInt(bid) + BigInt(ask)) * r.inst.tick.amount) / 2n));
  }

  /** Ends in the engine what the exchange ended: an unfilled remainder, a refusal, a market buy whose amount is spent. */
  private onReport(market: ExternalMarket, r: ExecutionReport): void {
    switch (r.execType) {
      case 'REJECTED':
        this.log.info({ orderId: r.clientOrderId, code: r.code }, 'the replayed market refused an order');
        market.end(r.clientOrderId, 'EXPIRED');
        return;
      case 'EXPIRED':
      case 'CANCELED':
        market.end(r.clientOrderId, 'EXPIRED');
        return;
      case 'TRADE':
        if (r.status === 'FILLED') market.end(r.clientOrderId, 'FILLED');
        return;
      case 'NEW':
      case 'TRIGGERED':
      case 'CANCEL_REJECTED':
        return;
      default: {
        const never: never = r.execType;
        throw new Error(`unknown report ${String(never)}`);
      }
    }
  }
}

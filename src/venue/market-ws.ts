/** The market WebSocket client (venue-notes.md §3): subscriptions replayed after every reconnect, pushes normalised to bus events, local books from diffDepth. */
import type { Clock } from '../core/clock.ts';
import { BhError, ConfigError, ParseError } from '../core/errors.ts';
import { silentLogger, type Logger } from '../core/logger.ts';
import { depthSnapshotEvent } from '../model/events.ts';
import { KLINE_INTERVALS, type KlineInterval } from '../model/enums.ts';
import type { Depth } from '../model/market.ts';
import { parseMarketMessage, parseTradeTick, type MarketPush } from '../model/marketstream.ts';
import { asObject, listOf, parseWireJson, reqString, type WireObject } from '../model/wire.ts';
import type { BackoffOptions } from './backoff.ts';
import { LocalBook } from './local-book.ts';
import { KlineTracker, publishIndex, publishTickers, TradeGate } from './market-normalise.ts';
import { WsLink, type EventSink, type LinkState, type LinkStats } from './ws-connection.ts';

/** The topics of the market socket; `kline_<interval>` for candles. */
export type MarketTopic = 'trade' | 'realtimes' | 'depth' | 'diffDepth' | 'mergedDepth' | 'index' | 'bookTicker' | `kline_${KlineInterval}`;

export const MARKET_WS_PATH = '/openapi/quote/ws/v1';

/** How a gapped book gets its snapshot: a fresh diffDepth subscription (its first push is the whole book), or REST depth. */
export type ResyncSource = 'socket' | 'rest';

export interface MarketWsOptions {
  /** The venue's WebSocket base, e.g. `ws://127.0.0.1:8080`; the market path is appended. */
  readonly wsUrl: string;
  readonly clock: Clock;
  readonly sink: EventSink;
  readonly log?: Logger;
  /** Tick size by symbol: book prices are keyed in its units (else by their own decimal scale). */
  readonly ticks?: Readonly<Record<string, string>>;
  readonly resync?: ResyncSource;
  /** Needed for `resync: 'rest'`: returns a REST depth snapshot (e.g. the REST client's depth). */
  readonly restDepth?: (symbol: string) => Promise<Depth>;
  /** Publish the whole book after each applied diff too (default false). */
  readonly snapshotEveryUpdate?: boolean;
  /** Publish the recent trades of the first snapshot after subscribing (default false: only trades from then on). */
  readonly initialTrades?: boolean;
  readonly pingEveryMs?: number;
  readonly watchdogMs?: number;
  readonly connectTimeoutMs?: number;
  readonly backoff?: BackoffOptions;
}

/** What the client counted. */
export interface MarketWsStats extends LinkStats {
  readonly malformed: number;
  readonly errorFrames: number;
  /** Pushes of a topic and symbol not subscribed (or no longer): dropped. */
  readonly unsolicited: number;
  readonly resyncs: number;
}

/** One market socket for many symbols and topics. */
export class MarketWsClient {
  private readonly link: WsLink;
  private readonly subs = new Map<MarketTopic, Set<string>>();
  private readonly books = new Map<string, LocalBook>();
  private readonly resyncing = new Set<string>();
  private readonly trades: TradeGate;
  private readonly klines: KlineTracker;
  private readonly log: Logger;
  private malformed = 0;
  private errorFrames = 0;
  private unsolicited = 0;
  private resyncs = 0;

  constructor(private readonly o: MarketWsOptions) {
    if (o.resync === 'rest' && !o.restDepth) throw new ConfigError('market.restDepth', "is required when resync is 'rest'");
    this.log = o.log ?? silentLogger();
    this.trades = new TradeGate(o.sink, o.initialTrades ?? false);
    this.klines = new KlineTracker(o.sink);
    this.link = new WsLink({
      name: 'market',
      clock: o.clock,
      url: () => `${o.wsUrl.replace(/\/+$/, '')}${MARKET_WS_PATH}`,
      onText: (text, recvTs) => this.onText(text, recvTs),
      onOpen: () => this.replay(),
      onState: (state) => {
        if (state === 'reconnecting') for (const b of this.books.values()) b.invalidate('market socket lost');
      },
      sink: o.sink,
      heartbeat: 'client-ping',
      pingEveryMs: o.pingEveryMs,
      watchdogMs: o.watchdogMs,
      connectTimeoutMs: o.connectTimeoutMs,
      backoff: o.backoff,
      log: this.log,
    });
  }

  /** Returns the socket's state. */
  get state(): LinkState {
    return this.link.state;
  }

  /** Returns the client's counters. */
  stats(): MarketWsStats {
    return { ...this.link.stats(), malformed: this.malformed, errorFrames: this.errorFrames, unsolicited: this.unsolicited, resyncs: this.resyncs };
  }

  /** Opens the socket; subscriptions made before or after are sent once it is ready, and again after every reconnect. */
  start(): void {
    this.link.start();
  }

  /** Closes the socket for good. */
  async stop(): Promise<void> {
    await this.link.stop();
  }

  /** Cuts the socket as a network failure would; the client redials and replays its subscriptions. */
  drop(reason = 'dropped on request'): void {
    this.link.drop(reason);
  }

  /** Subscribes `symbols` to `topic` (diffDepth also keeps a local book per symbol). */
  subscribe(symbols: string | readonly string[], topic: MarketTopic, params: WireObject = {}): void {
    checkTopic(topic);
    const list = typeof symbols === 'string' ? [symbols] : symbols;
    let set = this.subs.get(topic);
    if (!set) this.subs.set(topic, (set = new Set()));
    for (const s of list) {
      set.add(s);
      if (topic === 'diffDepth' && !this.books.has(s)) this.books.set(s, this.newBook(s));
    }
    this.sendSub('sub', topic, list, params);
  }

  /** Cancels `topic` for `symbols`; a cancelled diffDepth forgets the symbol's book. */
  unsubscribe(symbols: string | readonly string[], topic: MarketTopic): void {
    const list = typeof symbols === 'string' ? [symbols] : symbols;
    const set = this.subs.get(topic);
    for (const s of list) {
      set?.delete(s);
      if (topic === 'diffDepth') this.books.delete(s);
    }
    this.sendSub('cancel', topic, list, {});
  }

  /** Keeps a local book of `symbol` (subscribes diffDepth) and returns it. */
  watchBook(symbol: string): LocalBook {
    this.subscribe(symbol, 'diffDepth');
    return this.books.get(symbol)!;
  }

  /** Returns the local book of `symbol`, when one is kept. */
  book(symbol: string): LocalBook | undefined {
    return this.books.get(symbol);
  }

  private newBook(symbol: string): LocalBook {
    return new LocalBook({
      symbol, clock: this.o.clock, sink: this.o.sink, tick: this.o.ticks?.[symbol], log: this.log,
      snapshotEveryUpdate: this.o.snapshotEveryUpdate,
      onGap: (book) => this.resync(book),
    });
  }

  private replay(): void {
    for (const [topic, set] of this.subs) if (set.size > 0) this.sendSub('sub', topic, [...set], {});
  }

  /** One request per symbol: the venue refuses a whole request for one unknown symbol, which must not cost the others. */
  private sendSub(event: 'sub' | 'cancel', topic: MarketTopic, symbols: readonly string[], params: WireObject): void {
    if (this.link.state !== 'open' && this.link.state !== 'ready') return;
    for (const symbol of symbols) this.link.send(JSON.stringify({ symbol, topic, event, params: { binary: false, ...params } }));
  }

  /** A gapped book gets a snapshot: from a fresh subscription (the first push is the whole book) or from REST. */
  private resync(book: LocalBook): void {
    const symbol = book.symbol;
    if (this.resyncing.has(symbol)) return;
    this.resyncs += 1;
    if (this.o.resync !== 'rest') {
      this.sendSub('sub', 'diffDepth', [symbol], {});
      return;
    }
    this.resyncing.add(symbol);
    this.o.restDepth!(symbol).then((d) => {
      this.resyncing.delete(symbol);
      if (this.books.get(symbol) !== book) return;
      const now = this.o.clock.now();
      book.applySnapshot({ time: d.time ?? now, bids: d.bids, asks: d.asks }, now);
    }, (err: unknown) => {
      this.resyncing.delete(symbol);
      this.log.warn({ symbol, err: err instanceof Error ? err.message : String(err) }, 'REST depth for a resync failed; retrying through the socket');
      this.sendSub('sub', 'diffDepth', [symbol], {});
    });
  }

  private onText(text: string, recvTs: number): void {
    try {
      this.onFrame(JSON.parse(text), recvTs);
    } catch (first) {
      let err = first;
      // An id beyond 2^53 sent as a bare number: read the frame again keeping such integers exact.
      if (first instanceof ParseError && first.message.includes('parseWireJson')) {
        try {
          this.onFrame(parseWireJson(text), recvTs);
          return;
        } catch (again) {
          err = again;
        }
      }
      this.malformed += 1;
      this.log.warn({ err: err instanceof Error ? err.message : String(err), frame: text.slice(0, 200) }, 'malformed market frame skipped');
    }
  }

  private onFrame(raw: unknown, recvTs: number): void {
    if (isTradePush(raw)) {
      // The hot path: trade pushes skip the generic envelope and go straight to the element parser.
      const o = raw as WireObject;
      const symbol = reqString(o, 'symbol', 'message');
      if (!this.solicited('trade', symbol)) return;
      this.trades.push(symbol, listOf(o['data'], 'message.data', parseTradeTick), o['f'] === true, recvTs);
      return;
    }
    const o = asObject(raw, 'message');
    if (o['code'] !== undefined && (o['code'] === '0' || o['code'] === 0)) {
      this.log.debug({ ack: o }, 'market request acknowledged');
      return;
    }
    const m = parseMarketMessage(o);
    switch (m.kind) {
      case 'error':
        this.errorFrames += 1;
        this.log.warn({ code: m.code, desc: m.desc }, 'market socket error frame');
        return;
      case 'ping':
      case 'pong':
        return;
      default:
        this.onPush(m, recvTs);
    }
  }

  /**
   * Returns true when `symbol` is subscribed to `topic`; otherwise counts the push and returns false. The
   * trade cursors and open candles are kept per pushed symbol, so a venue pushing symbols nobody asked for
   * would grow them without bound (and put events on the bus no strategy asked for).
   */
  private solicited(topic: string, symbol: string): boolean {
    if (this.subs.get(topic as MarketTopic)?.has(symbol)) return true;
    this.unsolicited += 1;
    if (this.unsolicited === 1 || this.unsolicited % 1000 === 0) this.log.warn({ topic, symbol, unsolicited: this.unsolicited }, 'market push of a topic and symbol not subscribed dropped');
    return false;
  }

  private onPush(m: MarketPush, recvTs: number): void {
    const sink = this.o.sink;
    if (m.kind !== 'unknown' && !this.solicited(m.kind === 'kline' ? `kline_${m.interval}` : m.kind, m.symbol)) return;
    switch (m.kind) {
      case 'trade':
        this.trades.push(m.symbol, m.data, m.first, recvTs);
        return;
      case 'diffDepth': {
        const book = this.books.get(m.symbol);
        if (!book) return;
        for (const d of m.data) {
          // The first push of a subscription is the whole book; after it, each element is a diff.
          if (m.first) {
            this.resyncing.delete(m.symbol);
            book.applySnapshot({ version: d.version, time: d.time, bids: d.bids, asks: d.asks }, recvTs);
          } else {
            book.applyDiff(d, recvTs);
          }
        }
        return;
      }
      case 'depth':
      case 'mergedDepth':
        for (const d of m.data) {
          sink(depthSnapshotEvent({ symbol: m.symbol, version: d.version, bids: d.bids, asks: d.asks, ts: d.time, recvTs }));
        }
        return;
      case 'kline':
        for (const k of m.data) {
          this.klines.update(m.symbol, m.interval, { openTime: k.time, open: k.open, high: k.high, low: k.low, close: k.close, volume: k.volume }, k.time, recvTs);
        }
        return;
      case 'realtimes':
        publishTickers(sink, m.data, recvTs);
        return;
      case 'index':
        publishIndex(sink, m.data, recvTs);
        return;
      case 'bookTicker':
      case 'unknown':
        // The bus has no top-of-book event and bookTicker's element shape is unpublished: logged, not guessed.
        this.log.debug({ symbol: m.symbol, kind: m.kind }, 'market push without a bus event');
        return;
      default: {
        const never: never = m;
        throw new BhError('MARKET_PUSH', `unhandled push ${JSON.stringify(never)}`, 'definite');
      }
    }
  }
}

function isTradePush(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as WireObject)['topic'] === 'trade' && Array.isArray((raw as WireObject)['data']);
}

function checkTopic(topic: string): void {
  if (['trade', 'realtimes', 'depth', 'diffDepth', 'mergedDepth', 'index', 'bookTicker'].includes(topic)) return;
  if (topic.startsWith('kline_') && (KLINE_INTERVALS as readonly string[]).includes(topic.slice(6))) return;
  throw new ConfigError('topic', `must be trade, realtimes, depth, diffDepth, mergedDepth, index, bookTicker or kline_<interval>, got ${JSON.stringify(topic)}`);
}

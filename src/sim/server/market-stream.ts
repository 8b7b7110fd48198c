/** The market WebSocket at /openapi/quote/ws/v1 (venue-notes.md §3): sub/cancel, snapshots flagged f, pushes on the clock's cadences, versioned books. */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, type WebSocketServer } from 'ws';
import type { Clock, TimerHandle } from '../../core/clock.ts';
import type { Faults } from './faults.ts';
import { BookVersions } from './book-versions.ts';
import type { MarketSource, MarketSourceEvent } from './market-source.ts';
import { KLINE_INTERVALS, limitOf, readRequest } from './market-requests.ts';
import { isSlow, sendBounded, type SendLimits } from './slow-reader.ts';

/** Push cadences in ms (venue-api.md, Limits: spot depth 300 ms, contract depth 3 s, contract merged 0.5 s). */
export interface MarketCadences {
  readonly spotDepth: number;
  readonly spotMergedDepth: number;
  readonly contractDepth: number;
  readonly contractMergedDepth: number;
}

export interface MarketStreamOptions {
  readonly cadences: MarketCadences;
  readonly idleTimeoutMs: number;
  /** Send-buffer limits per connection: slow readers get the latest book, and past the close limit are disconnected. */
  readonly sendLimits: SendLimits;
  /** How often index prices are pushed. */
  readonly indexMs?: number;
}

interface Sub {
  readonly conn: Conn;
  readonly symbol: string;
  readonly topic: string;
  readonly params: Record<string, unknown>;
  readonly id: string | undefined;
  readonly limit: number;
  /** Subscriptions of one shape get byte-identical frames: one Buffer is built per push and shared by all their sockets. */
  readonly shape: string;
  /** A diffDepth frame the reorder fault holds back, and the diff tick it was held on. */
  held?: { readonly frame: Buffer; readonly tick: number };
  /** A book push was skipped while the connection was slow: the latest book is owed. */
  stale?: boolean;
}

/** Frames built during one push, by subscription shape. */
type Frames = Map<string, Buffer>;

interface Conn {
  readonly ws: WebSocket;
  lastSeen: number;
  readonly subs: Map<string, Sub>;
}

/**
 * Market stream connections and their subscriptions, fed by a MarketSource.
 *
 * Book versions (BookVersions) read `<n>_<id>` like the venue's "112801745_18": `n` counts the diffs
 * cut from the symbol's book (each diffDepth element is the previous one's n + 1 for that symbol,
 * whoever receives it), and `id` is the symbol's fixed number on the venue (MarketSource.bookId). A
 * depth, mergedDepth or diffDepth snapshot carries the version of the last diff cut, and holds exactly
 * the book at that version: pending changes are cut into a diff just before a snapshot is taken.
 * Versions start at 0 with the server. While no market connection is open nothing is followed, so
 * the first use of a symbol's version after such a pause skips one: a version never names two books.
 */
export class MarketStreams {
  private readonly conns = new Set<Conn>();
  /** Subscriptions by `topic|symbol`. */
  private readonly subs = new Map<string, Set<Sub>>();
  /** Symbols whose book changed since each topic's last push: one set per topic, as their cadences differ. */
  private readonly dirty = { depth: new Set<string>(), mergedDepth: new Set<string>() };
  private readonly versions = new BookVersions();
  /** Subscriptions holding a reordered diff. */
  private readonly holding = new Set<Sub>();
  /** Subscriptions owed the latest book after skipping pushes while slow. */
  private readonly stale = new Set<Sub>();
  /** Connections closed for reading too slowly, since start. */
  private shedCount = 0;
  private diffTick = 0;
  private readonly timers: TimerHandle[] = [];
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly clock: Clock, private readonly src: MarketSource, private readonly faults: Faults, private readonly o: MarketStreamOptions) {}

  /**
   * Runs the push cadences and listens to the engine only while someone is connected, so an idle
   * venue schedules nothing and its engine builds no market events for nobody.
   */
  private startTimers(): void {
    if (this.timers.length > 0) return;
    this.unsubscribe ??= this.src.subscribe((ev) => this.onEvent(ev));
    const c = this.o.cadences;
    const src = this.src;
    // A push first brings an outside market up to the clock, so it never shows a book behind its own time.
    const every = (fn: () => void, ms: number): TimerHandle => this.clock.setInterval(() => {
      src.sync?.();
      fn();
    }, ms);
    this.timers.push(every(() => this.flushDepth('depth', false), c.spotDepth));
    this.timers.push(every(() => this.flushDepth('mergedDepth', false), c.spotMergedDepth));
    this.timers.push(every(() => this.flushDepth('depth', true), c.contractDepth));
    this.timers.push(every(() => this.flushDepth('mergedDepth', true), c.contractMergedDepth));
    this.timers.push(every(() => this.flushDiffs(), Math.min(c.spotDepth, c.contractMergedDepth)));
    this.timers.push(every(() => this.pushIndex(), this.o.indexMs ?? 1000));
    this.timers.push(this.clock.setInterval(() => this.sweepIdle(), Math.max(1000, Math.floor(this.o.idleTimeoutMs / 10))));
  }

  private stopTimers(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const t of this.timers) t.cancel();
    this.timers.length = 0;
    this.dirty.depth.clear();
    this.dirty.mergedDepth.clear();
    this.versions.pause();
    this.holding.clear();
    this.stale.clear();
  }

  /** Completes a WebSocket upgrade and starts serving the connection. */
  upgrade(wss: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    wss.handleUpgrade(req, socket, head, (ws) => this.attach(ws));
  }

  /** Returns how many connections are open. */
  get size(): number {
    return this.conns.size;
  }

  /** Returns how many subscriptions are owed the latest book (they skipped pushes while their connection was slow). */
  get conflating(): number {
    return this.stale.size;
  }

  /** Returns how many connections were closed for reading too slowly. */
  get shed(): number {
    return this.shedCount;
  }

  /** Drops every connection without a close frame (the admin route's fault); returns how many. */
  dropAll(): number {
    const n = this.conns.size;
    for (const c of this.conns) c.ws.terminate();
    return n;
  }

  /** Closes every connection and stops the timers (on shutdown). */
  closeAll(): void {
    this.stopTimers();
    for (const c of [...this.conns]) c.ws.close(1001, 'server stopping');
  }

  private attach(ws: WebSocket): void {
    const conn: Conn = { ws, lastSeen: this.clock.now(), subs: new Map() };
    this.conns.add(conn);
    this.startTimers();
    ws.on('message', (data, isBinary) => {
      conn.lastSeen = this.clock.now();
      if (isBinary) return this.error(conn, '-10000', 'Invalid request!');
      this.onMessage(conn, data.toString());
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      for (const s of conn.subs.values()) this.forget(s);
      conn.subs.clear();
      this.conns.delete(conn);
      if (this.conns.size === 0) this.stopTimers();
    });
  }

  private onMessage(conn: Conn, text: string): void {
    const r = readRequest(text, this.src);
    switch (r.kind) {
      case 'error':
        return this.error(conn, r.code, r.desc);
      case 'ping':
        return this.send(conn, JSON.stringify({ pong: r.ping }));
      case 'pong':
        return;
      case 'cancel_all':
        for (const s of conn.subs.values()) this.forget(s);
        conn.subs.clear();
        if (r.id !== undefined) this.send(conn, JSON.stringify({ id: r.id, event: 'cancel_all', code: '0', desc: 'Success' }));
        return;
      case 'sub':
      case 'cancel':
        return this.subscribe(conn, r.kind, r.topic, r.symbols, r.params, r.id);
      default: {
        const never: never = r;
        throw new Error(`market stream: unknown request ${JSON.stringify(never)}`);
      }
    }
  }

  private subscribe(conn: Conn, event: 'sub' | 'cancel', topic: string, symbols: string[], params: Record<string, unknown>, id: string | undefined): void {
    this.src.sync?.();
    for (const symbol of symbols) {
      const key = `${topic}|${symbol}`;
      const old = conn.subs.get(key);
      if (old) this.forget(old);
      conn.subs.delete(key);
      if (event === 'cancel') continue;
      const limit = limitOf(topic, params['limit']);
      const sub: Sub = { conn, symbol, topic, params, id, limit, shape: `${topic}|${symbol}|${limit}|${id ?? ''}|${JSON.stringify(params)}` };
      // Taken before the subscription joins, so a diff cut for the snapshot goes only to those already there.
      const first = this.snapshot(sub);
      conn.subs.set(key, sub);
      let set = this.subs.get(key);
      if (!set) this.subs.set(key, (set = new Set()));
      set.add(sub);
      this.push(sub, first, true);
    }
    if (event === 'cancel' && id !== undefined) this.send(conn, JSON.stringify({ id, event, topic, code: '0', desc: 'Success' }));
  }

  private snapshot(s: Sub): unknown[] {
    const now = this.clock.now();
    switch (s.topic) {
      case 'trade':
        return this.src.recentTrades(s.symbol, s.limit).map(tradeEl);
      case 'depth':
      case 'mergedDepth':
      case 'diffDepth':
        this.cut(s.symbol, now);
        return [this.depthEl(s.symbol, s.topic === 'diffDepth' ? 1000 : s.limit, now)];
      case 'realtimes':
        return [this.realtimeEl(s.symbol, now)];
      case 'bookTicker':
        return [this.bookTickerEl(s.symbol, now)];
      case 'index': {
        const ix = this.src.index(s.symbol);
        return ix ? [{ symbol: s.symbol, index: ix.index, edp: ix.edp }] : [];
      }
      default: {
        const k = this.src.kline(s.symbol, s.topic.slice(6), now);
        return k ? [{ t: k.t, s: s.symbol, sn: s.symbol, c: k.c, h: k.h, l: k.l, o: k.o, v: k.v }] : [];
      }
    }
  }

  private onEvent(ev: MarketSourceEvent): void {
    switch (ev.type) {
      case 'trade': {
        this.fanout('trade', ev.symbol, () => [tradeEl(ev)]);
        for (const iv of KLINE_INTERVALS) {
          const set = this.subs.get(`kline_${iv}|${ev.symbol}`);
          if (!set || set.size === 0) continue;
          const frames: Frames = new Map();
          for (const s of set) this.pushShared(s, frames, () => this.snapshot(s));
        }
        this.fanout('realtimes', ev.symbol, () => [this.realtimeEl(ev.symbol, ev.time)]);
        return;
      }
      case 'book':
        this.dirty.depth.add(ev.symbol);
        this.dirty.mergedDepth.add(ev.symbol);
        this.versions.note(ev.symbol, ev.side, ev.price, ev.qty);
        return;
      default: {
        const never: never = ev;
        throw new Error(`market stream: unknown source event ${JSON.stringify(never)}`);
      }
    }
  }

  private flushDepth(topic: 'depth' | 'mergedDepth', contract: boolean): void {
    const now = this.clock.now();
    const frames: Frames = new Map();
    const dirty = this.dirty[topic];
    for (const symbol of [...dirty]) {
      if (this.src.isContract(symbol) !== contract) continue;
      dirty.delete(symbol);
      const set = this.subs.get(`${topic}|${symbol}`);
      if (set && set.size > 0) this.cut(symbol, now);
      if (set) for (const s of set) this.pushLatest(s, now, frames);
      if (topic === 'depth') {
        const bt = this.subs.get(`bookTicker|${symbol}`);
        if (bt) for (const s of bt) this.pushLatest(s, now, frames);
      }
    }
    // Readers that skipped pushes while slow get the latest book once they have drained, changed or not since.
    for (const s of [...this.stale]) {
      if ((s.topic !== topic && !(topic === 'depth' && s.topic === 'bookTicker')) || this.src.isContract(s.symbol) !== contract) continue;
      if (isSlow(s.conn.ws, this.o.sendLimits)) continue;
      // A book snapshot holds exactly the book at its version: pending changes are cut first.
      if (s.topic !== 'bookTicker') this.cut(s.symbol, now);
      this.pushLatest(s, now, frames);
    }
  }

  private flushDiffs(): void {
    const now = this.clock.now();
    this.diffTick += 1;
    for (const symbol of this.versions.pending()) this.cut(symbol, now);
    // A held diff with no next one to swap with goes out alone, one cadence late.
    for (const s of [...this.holding]) if (s.held !== undefined && s.held.tick < this.diffTick) this.release(s);
  }

  /** Cuts the symbol's pending changes into the next diff of its book and pushes it to diffDepth subscribers. */
  private cut(symbol: string, now: number): void {
    const d = this.versions.cut(symbol);
    if (d === undefined) return;
    const set = this.subs.get(`diffDepth|${symbol}`);
    if (!set || set.size === 0) return;
    const el = { e: 0, t: now, s: symbol, v: this.version(symbol), b: d.b, a: d.a };
    const frames: Frames = new Map();
    for (const s of set) this.pushDiff(s, el, frames);
  }

  /** Pushes one diff to one subscriber through the drop and reorder faults. */
  private pushDiff(s: Sub, el: Record<string, unknown>, frames: Frames): void {
    if (this.faults.fires('marketDiffDrop')) return;
    const frame = this.sharedFrame(s, frames, () => [el]);
    if (s.held === undefined && this.faults.fires('marketDiffReorder')) {
      s.held = { frame, tick: this.diffTick };
      this.holding.add(s);
      return;
    }
    this.send(s.conn, frame);
    this.release(s);
  }

  private release(s: Sub): void {
    const h = s.held;
    if (h === undefined) return;
    s.held = undefined;
    this.holding.delete(s);
    this.send(s.conn, h.frame);
  }

  /** Pushes the current book (depth, mergedDepth) or best quotes (bookTicker), or owes it while the connection is slow. */
  private pushLatest(s: Sub, now: number, frames: Frames): void {
    if (isSlow(s.conn.ws, this.o.sendLimits)) {
      s.stale = true;
      this.stale.add(s);
      return;
    }
    s.stale = false;
    this.stale.delete(s);
    this.pushShared(s, frames, () => [s.topic === 'bookTicker' ? this.bookTickerEl(s.symbol, now) : this.depthEl(s.symbol, s.limit, now)]);
  }

  /** Removes a subscription; a diff it held is inside the snapshot any later subscription starts from. */
  private forget(s: Sub): void {
    this.subs.get(`${s.topic}|${s.symbol}`)?.delete(s);
    s.held = undefined;
    this.holding.delete(s);
    this.stale.delete(s);
  }

  /** Returns the symbol's book version: diffs cut so far, then the symbol's number on the venue. */
  private version(symbol: string): string {
    return this.versions.version(symbol, this.src.bookId(symbol));
  }

  private pushIndex(): void {
    for (const [key, set] of this.subs) {
      if (!key.startsWith('index|') || set.size === 0) continue;
      const symbol = key.slice(6);
      const ix = this.src.index(symbol);
      const frames: Frames = new Map();
      if (ix) for (const s of set) this.pushShared(s, frames, () => [{ symbol, index: ix.index, edp: ix.edp }]);
    }
  }

  private sweepIdle(): void {
    const cutoff = this.clock.now() - this.o.idleTimeoutMs;
    for (const c of [...this.conns]) if (c.lastSeen <= cutoff) c.ws.close(1000, 'idle for 5 minutes');
  }

  private depthEl(symbol: string, limit: number, now: number): Record<string, unknown> {
    const d = this.src.depth(symbol, limit);
    return { s: symbol, t: now, v: this.version(symbol), b: d.bids, a: d.asks };
  }

  private realtimeEl(symbol: string, now: number): Record<string, unknown> {
    const t = this.src.ticker(symbol, now);
    return { t: String(now), s: symbol, sn: symbol, c: t.c, h: t.h, l: t.l, o: t.o, v: t.v, qv: t.qv, m: t.m };
  }

  private bookTickerEl(symbol: string, now: number): Record<string, unknown> {
    const d = this.src.depth(symbol, 1);
    const b = d.bids[0];
    const a = d.asks[0];
    return { t: now, s: symbol, b: b?.[0] ?? '0', bq: b?.[1] ?? '0', a: a?.[0] ?? '0', aq: a?.[1] ?? '0' };
  }

  private fanout(topic: string, symbol: string, data: () => unknown[]): void {
    const set = this.subs.get(`${topic}|${symbol}`);
    if (!set || set.size === 0) return;
    const d = data();
    const frames: Frames = new Map();
    for (const s of set) this.pushShared(s, frames, () => d);
  }

  private push(s: Sub, data: unknown[], first: boolean): void {
    this.send(s.conn, this.frame(s, data, first));
  }

  /** Pushes a frame built once per subscription shape in `frames` (`data` is called only for the first of a shape). */
  private pushShared(s: Sub, frames: Frames, data: () => unknown[]): void {
    this.send(s.conn, this.sharedFrame(s, frames, data));
  }

  private sharedFrame(s: Sub, frames: Frames, data: () => unknown[]): Buffer {
    let f = frames.get(s.shape);
    if (f === undefined) frames.set(s.shape, (f = Buffer.from(this.frame(s, data(), false), 'utf8')));
    return f;
  }

  private frame(s: Sub, data: unknown[], first: boolean): string {
    const env: Record<string, unknown> = { symbol: s.symbol, symbolName: s.symbol, topic: s.topic.startsWith('kline_') ? 'kline' : s.topic, params: s.params, data, f: first };
    if (s.id !== undefined) env['id'] = s.id;
    if (s.topic.startsWith('kline_')) env['topic'] = s.topic;
    return JSON.stringify(env);
  }

  private send(c: Conn, frame: string | Buffer): void {
    if (c.ws.readyState !== WebSocket.OPEN) return;
    if (this.faults.fires('dropWebSocket')) {
      c.ws.terminate();
      return;
    }
    sendBounded(c.ws, frame, this.o.sendLimits, this.clock, () => this.shedCount++);
  }

  private error(c: Conn, code: string, desc: string): void {
    this.send(c, JSON.stringify({ code, desc }));
  }
}

function tradeEl(t: { id: string; time: number; price: string; qty: string; isBuyerMaker: boolean }): Record<string, unknown> {
  return { v: t.id, t: t.time, p: t.price, q: t.qty, m: !t.isBuyerMaker };
}

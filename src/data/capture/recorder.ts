/** Records a venue's market WebSocket: every frame as received with its receive time in nanoseconds; reconnects and diffDepth gaps marked, each followed by a REST depth snapshot. */
import type { Clock, TimerHandle } from '../../core/clock.ts';
import { ConfigError } from '../../core/errors.ts';
import { silentLogger, type Logger } from '../../core/logger.ts';
import { instrumentsOf, parseBrokerInfo } from '../../model/instrument.ts';
import { parseWireJson } from '../../model/wire.ts';
import { HttpTransport } from '../../venue/http.ts';
import { MARKET_WS_PATH } from '../../venue/market-ws.ts';
import { WsLink } from '../../venue/ws-connection.ts';
import { DiffVersions } from './diff-versions.ts';
import { CAPTURE_FORMAT, frameLine, jsonOrString, markerLine, type MarkerKind } from './line-format.ts';
import { epochNanos } from './nanos.ts';
import type { RecordSettings } from './options.ts';
import { CaptureWriter, type CaptureWriterStats } from './writer.ts';

export interface MarketRecorderOptions extends RecordSettings {
  /** REST base, e.g. `http://127.0.0.1:8080`: instruments at start, depth snapshots after gaps. */
  readonly restUrl: string;
  /** WebSocket base; the market path is appended. */
  readonly wsUrl: string;
  readonly symbols: readonly string[];
  /** Folder of the capture files. */
  readonly dir: string;
  readonly clock: Clock;
  readonly log?: Logger;
  /** Flush period of the gzip members (default 1000 ms). */
  readonly flushMs?: number;
  /** Names the files (default `market`). */
  readonly stream?: string;
  /** Fewest ms between two REST snapshots of one symbol, so a venue whose every diff looks like a gap cannot flood REST (default 1000). */
  readonly snapshotEveryMs?: number;
  /** Returns epoch nanoseconds (default: the clock's time at start, then the monotonic timer). */
  readonly nanos?: () => bigint;
  /** How the user gave the symbols, named when the venue lists one not (default `record.symbols`, a run config's key). */
  readonly symbolsKey?: string;
}

/** What the recorder counted. */
export interface MarketRecorderStats extends CaptureWriterStats {
  readonly frames: number;
  readonly gaps: number;
  readonly reconnects: number;
  readonly snapshots: number;
  readonly snapshotFailures: number;
  /** Symbols whose snapshot is in flight or owed. */
  readonly pendingSnapshots: number;
}

/** One market connection for all symbols; start() once, stop() once. */
export class MarketRecorder {
  private readonly nanos: () => bigint;
  private readonly log: Logger;
  private readonly http: HttpTransport;
  private readonly versions: DiffVersions;
  // Per subscribed symbol, so bounded by the subscriptions: snapshots in flight, owed, their timers, and the last request's time.
  private readonly fetching = new Set<string>();
  private readonly owed = new Map<string, 'gap' | 'reconnect'>();
  private readonly timers = new Map<string, TimerHandle>();
  private readonly snapshotAt = new Map<string, number>();
  private readonly snapshotEveryMs: number;
  private stopping = false;
  private readonly contracts = new Set<string>();
  /** Where the `index` topic is subscribed when it is asked for: the index symbol of each recorded contract (its mark in a backtest), and each recorded symbol that is some contract's index. */
  private readonly indexed = new Set<string>();
  private link: WsLink | undefined;
  private writer: CaptureWriter | undefined;
  private instruments = '';
  private opens = 0;
  private httpClosed = false;
  private counts = { frames: 0, gaps: 0, reconnects: 0, snapshots: 0, snapshotFailures: 0 };
  private inFlight = new Set<Promise<void>>();

  constructor(private readonly o: MarketRecorderOptions) {
    if (o.symbols.length === 0) throw new ConfigError('record.symbols', 'must list at least one symbol');
    this.nanos = o.nanos ?? epochNanos(o.clock);
    this.snapshotEveryMs = o.snapshotEveryMs ?? 1000;
    this.versions = new DiffVersions(o.diffVersions);
    this.log = o.log ?? silentLogger();
    this.http = new HttpTransport(new URL(o.restUrl).origin, { clock: o.clock, connections: 2 });
  }

  /** Returns the recorder's counters. */
  stats(): MarketRecorderStats {
    const pendingSnapshots = new Set([...this.fetching, ...this.owed.keys()]).size;
    return { ...(this.writer?.stats() ?? { lines: 0, members: 0, files: 0, bytes: 0, pendingLines: 0, errors: 0 }), ...this.counts, pendingSnapshots };
  }

  /** Returns the files written so far, oldest first. */
  files(): readonly string[] {
    return this.writer?.files() ?? [];
  }

  /** Reads the venue's instruments (an unknown symbol stops here), opens the first file and connects. */
  async start(): Promise<void> {
    try {
      await this.readInstruments();
      this.writer = new CaptureWriter({
        dir: this.o.dir, stream: this.o.stream ?? 'market', clock: this.o.clock, flushMs: this.o.flushMs,
        maxFileBytes: this.o.rotateBytes, hourly: this.o.hourly,
        header: (ns) => this.header(ns),
        onError: (err) => this.log.error({ err: err.message }, 'capture write failed; the lines of this flush are lost'),
      });
    } catch (err) {
      await this.closeHttp();
      throw err;
    }
    this.writer.open(this.nanos());
    this.link = new WsLink({
      name: 'market', clock: this.o.clock, heartbeat: 'client-ping', log: this.log,
      url: () => `${this.o.wsUrl.replace(/\/+$/, '')}${MARKET_WS_PATH}`,
      onText: (text) => this.onFrame(text),
      onOpen: (link) => this.onOpen(link),
    });
    this.link.start();
  }

  private async readInstruments(): Promise<void> {
    const answer = await this.http.send({ method: 'GET', path: `${this.basePath()}/openapi/v1/brokerInfo`, headers: {} });
    if (answer.status !== 200) throw new Error(`GET /openapi/v1/brokerInfo answered HTTP ${answer.status}: ${answer.text.slice(0, 200)}`);
    let body: unknown;
    try {
      body = parseWireJson(answer.text);
    } catch (err) {
      throw new Error(`GET /openapi/v1/brokerInfo answered something that is not JSON: ${answer.text.slice(0, 200)}`, { cause: err });
    }
    const known = instrumentsOf(parseBrokerInfo(body));
    const unknown = this.o.symbols.filter((s) => !known.has(s));
    if (unknown.length > 0) throw new ConfigError(this.o.symbolsKey ?? 'record.symbols', `the venue lists no ${unknown.join(', ')} (it has ${[...known.keys()].join(', ')})`);
    for (const s of this.o.symbols) if (known.get(s)!.kind !== 'spot') this.contracts.add(s);
    if (this.o.topics.includes('index')) {
      const indexes = new Set([...known.values()].flatMap((i) => (i.index === undefined ? [] : [i.index])));
      for (const s of this.o.symbols) {
        const own = known.get(s)!.index;
        if (own !== undefined && this.contracts.has(s)) this.indexed.add(own);
        else if (indexes.has(s)) this.indexed.add(s);
      }
    }
    this.instruments = answer.text;
  }

  /** Returns the symbols whose index is recorded (known once started). */
  indexSymbols(): string[] {
    return [...this.indexed];
  }

  /** Closes the socket, waits for snapshots in flight and flushes and closes the file. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
    await this.link?.stop();
    await Promise.allSettled([...this.inFlight]);
    await this.closeHttp();
    this.writer?.close();
  }

  /** Cuts the socket as a network failure would (tests); the recorder redials, marks the reconnect and takes snapshots. */
  drop(): void {
    this.link?.drop('dropped on request');
  }

  private header(ns: bigint): string[] {
    const session = { format: CAPTURE_FORMAT, stream: this.o.stream ?? 'market', rest: this.o.restUrl, ws: this.o.wsUrl, symbols: this.o.symbols, topics: this.o.topics };
    return [markerLine(ns, 'session', JSON.stringify(session)), markerLine(ns, 'instruments', jsonOrString(this.instruments))];
  }

  private onFrame(text: string): void {
    const ns = this.nanos();
    this.counts.frames += 1;
    this.writer!.write(ns, frameLine(ns, text));
    // An error frame (a refused subscription) is recorded like any other, and logged.
    if (text.startsWith('{"code"') && !text.includes('"topic"')) this.log.warn({ frame: text.slice(0, 200) }, 'the venue answered with an error frame');
    if (text.includes('"diffDepth"')) {
      const gap = this.versions.check(text);
      if (gap) {
        this.counts.gaps += 1;
        this.mark(ns, 'gap', JSON.stringify(gap));
        this.log.warn(gap, 'diffDepth gap recorded; fetching a REST snapshot');
        this.snapshot(gap.symbol, 'gap');
      }
    }
  }

  private onOpen(link: WsLink): void {
    this.opens += 1;
    this.versions.reset();
    const reconnect = this.opens > 1;
    if (reconnect) {
      this.counts.reconnects += 1;
      this.mark(this.nanos(), 'reconnect', JSON.stringify({ attempt: this.opens - 1 }));
      this.log.warn({ attempt: this.opens - 1 }, 'market socket reconnected; frames between were not received');
    }
    // One request per symbol and topic: the venue refuses a whole request for one unknown symbol. The index topic exists only for
    // index symbols (the venue refuses a contract's with an error frame): it goes to the contracts' indexes instead.
    const sub = (symbol: string, topic: string): void => {
      link.send(JSON.stringify({ symbol, topic, event: 'sub', params: { binary: false } }));
    };
    for (const topic of this.o.topics) {
      if (topic !== 'index') for (const symbol of this.o.symbols) sub(symbol, topic);
    }
    for (const symbol of this.indexed) sub(symbol, 'index');
    if (reconnect && this.o.topics.includes('diffDepth')) for (const s of this.o.symbols) this.snapshot(s, 'reconnect');
  }

  private mark(ns: bigint, kind: MarkerKind, payload: string): void {
    this.writer!.write(ns, markerLine(ns, kind, payload));
  }

  /**
   * Fetches and records a REST depth snapshot of `symbol`. One request per symbol at a time and at most one per
   * snapshotEveryMs: a gap while one is in flight or too soon after is served by one more request, later.
   */
  private snapshot(symbol: string, reason: 'gap' | 'reconnect'): void {
    if (this.stopping) return;
    const last = this.snapshotAt.get(symbol);
    const wait = last === undefined ? 0 : last + this.snapshotEveryMs - this.o.clock.now();
    if (this.fetching.has(symbol) || this.owed.has(symbol) || wait > 0) {
      if (!this.owed.has(symbol)) this.owed.set(symbol, reason);
      if (!this.fetching.has(symbol) && !this.timers.has(symbol)) this.timers.set(symbol, this.o.clock.setTimeout(() => this.owedNow(symbol), wait));
      return;
    }
    this.fetching.add(symbol);
    this.snapshotAt.set(symbol, this.o.clock.now());
    const path = `${this.contracts.has(symbol) ? '/openapi/quote/v1/contract/depth' : '/openapi/quote/v1/depth'}?symbol=${encodeURIComponent(symbol)}&limit=${this.o.snapshotDepth}`;
    const requestNs = this.nanos();
    const p = this.http.send({ method: 'GET', path: `${this.basePath()}${path}`, headers: {} }).then((a) => {
      this.counts.snapshots += 1;
      this.mark(this.nanos(), 'snapshot', `{"symbol":${JSON.stringify(symbol)},"reason":"${reason}","requestNs":"${requestNs}","path":${JSON.stringify(path)},"status":${a.status},"body":${jsonOrString(a.text)}}`);
    }, (err: unknown) => {
      this.counts.snapshotFailures += 1;
      this.log.warn({ symbol, err: err instanceof Error ? err.message : String(err) }, 'REST depth snapshot failed');
    }).finally(() => {
      this.fetching.delete(symbol);
      this.inFlight.delete(p);
      if (this.owed.has(symbol)) this.owedNow(symbol);
    });
    this.inFlight.add(p);
  }

  /** Takes the snapshot a symbol is owed, as soon as its interval allows. */
  private owedNow(symbol: string): void {
    this.timers.get(symbol)?.cancel();
    this.timers.delete(symbol);
    const reason = this.owed.get(symbol);
    if (reason === undefined || this.fetching.has(symbol)) return;
    this.owed.delete(symbol);
    this.snapshot(symbol, reason);
  }

  private async closeHttp(): Promise<void> {
    if (this.httpClosed) return;
    this.httpClosed = true;
    await this.http.close();
  }

  private basePath(): string {
    return new URL(this.o.restUrl).pathname.replace(/\/+$/, '');
  }
}

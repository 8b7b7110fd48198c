/** One WebSocket link with an explicit state machine on the injected clock: heartbeat, silence watchdog, back-off reconnect, state and reconnected events. */
import { WebSocket, type RawData } from 'ws';
import type { Clock, TimerHandle } from '../core/clock.ts';
import { ConfigError } from '../core/errors.ts';
import { silentLogger, type Logger } from '../core/logger.ts';
import { connectionStateEvent, reconnectedEvent, type BusEvent, type ConnectionName, type ConnectionStatus } from '../model/events.ts';
import { Backoff, type BackoffOptions } from './backoff.ts';

/** Where stream clients put what they normalise; the app wires it to the bus. */
export type EventSink = (ev: BusEvent) => void;

/** `idle` before start(); then the ConnectionStatus of the model. */
export type LinkState = 'idle' | ConnectionStatus;

/**
 * How a link keeps itself alive:
 * - `client-ping`: send `{"ping":<ms>}` every pingEveryMs and swallow the `{"pong"}` answers (market socket);
 * - `answer-server-ping`: answer each `{"ping":x}` from the server with `{"pong":x}` (user stream).
 */
export type HeartbeatMode = 'client-ping' | 'answer-server-ping';

/**
 * The largest frame taken from the venue: far above any real push (a 1000-level depth is about 50 KB), far
 * below the ws library's 100 MiB, which a faulty venue could make the bot buffer and parse frame after frame.
 * A longer frame drops the link (close 1009) and it redials.
 */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * The most bytes a link lets wait to be written (ws's queue and the socket's): a venue that stops reading
 * while it keeps pinging would otherwise have the bot queue a pong for every ping it sends. Past this,
 * heartbeats are skipped (counted) and any other message cuts the link, which redials.
 */
export const MAX_OUTBOUND_BYTES = 1024 * 1024;

export interface WsLinkOptions {
  readonly name: ConnectionName;
  readonly clock: Clock;
  /** Returns the address to dial; called before every attempt (the user stream may make a new listenKey here). */
  readonly url: () => string | Promise<string>;
  /** Receives every data frame that is not a heartbeat, with the clock time it arrived. */
  readonly onText: (text: string, recvTs: number) => void;
  /** Runs once the socket is open, before the link counts as ready (send subscriptions here). */
  readonly onOpen?: (link: WsLink) => void;
  /** Runs when the venue refused the upgrade with an HTTP status (e.g. 400 for an unknown listenKey). */
  readonly onRefused?: (status: number) => void;
  /** Runs after every change of state (after the event, when the link announces). */
  readonly onState?: (state: LinkState, reason: string) => void;
  /** Where connection and reconnected events go; nothing is published while `announce` is false. */
  readonly sink?: EventSink;
  readonly heartbeat: HeartbeatMode;
  /** Client ping period (client-ping mode; default 30 s, well inside the venue's 5-minute idle cut). */
  readonly pingEveryMs?: number;
  /** A link that receives nothing (no data, no ping, no pong) this long is cut and dialled again (default 60 s). */
  readonly watchdogMs?: number;
  /** An attempt that is not open after this long is abandoned (default 10 s). */
  readonly connectTimeoutMs?: number;
  /** A link that was ready this long before it dropped starts its back-off afresh (default 30 s). */
  readonly stableMs?: number;
  readonly backoff?: BackoffOptions;
  /** A reconnect counter shared by the links that take turns on one stream (the `attempt` of reconnected events). */
  readonly reconnectCounter?: { n: number };
  readonly log?: Logger;
}

/** Counters for tests and metrics. */
export interface LinkStats {
  readonly frames: number;
  /** Bytes waiting to be written to the venue now. */
  readonly outboundBytes: number;
  /** Heartbeats (pings, pongs) not sent because the venue was not reading what the link wrote (MAX_OUTBOUND_BYTES). */
  readonly heartbeatsSkipped: number;
  readonly connects: number;
  readonly reconnects: number;
  readonly watchdogTrips: number;
}

/**
 * idle → connecting → open → ready; on any loss → reconnecting → (back-off) → connecting → open → ready,
 * followed by a `reconnected` event; stop() → closed from any state. Timers all run on the injected clock.
 */
export class WsLink {
  /** When false, state changes are logged but not published (a standby link during a rotation). */
  announce = true;
  private st: LinkState = 'idle';
  private ws: WebSocket | undefined;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly backoff: Backoff;
  private readonly pingEveryMs: number;
  private readonly watchdogMs: number;
  private readonly connectTimeoutMs: number;
  private readonly stableMs: number;
  private lastRecv = 0;
  private readyAt = 0;
  private downSince: number | undefined;
  private retryTimer: TimerHandle | undefined;
  private connectTimer: TimerHandle | undefined;
  private pingTimer: TimerHandle | undefined;
  private watchTimer: TimerHandle | undefined;
  private frames = 0;
  private heartbeatsSkipped = 0;
  /** Heartbeats skipped since the last one sent (the current backlog's). */
  private skippedInBacklog = 0;
  private connects = 0;
  private readonly counter: { n: number };
  private watchdogTrips = 0;
  private stopped = false;
  private everReady = false;

  constructor(private readonly o: WsLinkOptions) {
    this.clock = o.clock;
    this.log = o.log ?? silentLogger();
    this.backoff = new Backoff(o.backoff);
    this.pingEveryMs = o.pingEveryMs ?? 30_000;
    this.watchdogMs = o.watchdogMs ?? 60_000;
    this.connectTimeoutMs = o.connectTimeoutMs ?? 10_000;
    this.stableMs = o.stableMs ?? 30_000;
    this.counter = o.reconnectCounter ?? { n: 0 };
    for (const [k, v] of [['pingEveryMs', this.pingEveryMs], ['watchdogMs', this.watchdogMs], ['connectTimeoutMs', this.connectTimeoutMs]] as const) {
      if (!(Number.isFinite(v) && v > 0)) throw new ConfigError(`${o.name}.${k}`, `must be a positive number of ms, got ${v}`);
    }
  }

  /** Returns the current state. */
  get state(): LinkState {
    return this.st;
  }

  /** Returns the link's counters. */
  stats(): LinkStats {
    return { frames: this.frames, outboundBytes: this.ws?.bufferedAmount ?? 0, heartbeatsSkipped: this.heartbeatsSkipped, connects: this.connects, reconnects: this.counter.n, watchdogTrips: this.watchdogTrips };
  }

  /** Dials the venue; later losses are redialled until stop(). */
  start(): void {
    if (this.st !== 'idle') return;
    this.watchTimer = this.clock.setInterval(() => this.watch(), Math.max(1, Math.floor(this.watchdogMs / 4)));
    if (this.o.heartbeat === 'client-ping') {
      this.pingTimer = this.clock.setInterval(() => this.ping(), this.pingEveryMs);
    }
    void this.dial();
  }

  /** Sends a text frame; returns false when the socket is not open. */
  send(text: string): boolean {
    const ws = this.writable();
    if (ws === undefined) return false;
    if (ws.bufferedAmount > MAX_OUTBOUND_BYTES) {
      this.lost(`the venue stopped reading (${ws.bufferedAmount} bytes waiting to be sent)`);
      return false;
    }
    ws.send(text);
    return true;
  }

  /** Returns the socket when the link may write on it (open, or ready), else undefined. */
  private writable(): WebSocket | undefined {
    const ws = this.ws;
    return ws !== undefined && ws.readyState === WebSocket.OPEN && (this.st === 'open' || this.st === 'ready') ? ws : undefined;
  }

  /**
   * Sends a heartbeat unless the venue stopped reading (then it is counted as skipped). The first skip
   * of a backlog is a warning and the first heartbeat sent after it says how many were skipped: a
   * venue that stops reading is about to drop the connection, and a trader should see why.
   */
  private heartbeat(ws: WebSocket, text: string): void {
    if (ws.bufferedAmount > MAX_OUTBOUND_BYTES) {
      if (this.skippedInBacklog++ === 0) {
        this.log.warn({ link: this.o.name, outboundBytes: ws.bufferedAmount }, 'the venue is not reading what this link sends: heartbeats are skipped until it does');
      }
      this.heartbeatsSkipped += 1;
      return;
    }
    if (this.skippedInBacklog > 0) this.log.info({ link: this.o.name, skipped: this.skippedInBacklog }, 'the venue reads again: heartbeats are sent again');
    this.skippedInBacklog = 0;
    ws.send(text);
  }

  /** Cuts the socket as a failure would (no close handshake) and lets the link redial. */
  drop(reason: string): void {
    if (this.ws && !this.stopped) this.lost(reason);
  }

  /**
   * Closes the link for good. With `drain`, the socket is closed with a handshake and frames still in
   * flight are delivered until it has closed (a rotation uses this so that nothing is lost); the
   * returned promise resolves once the socket is gone.
   */
  stop(reason = 'stopped', drain = false): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.stopped = true;
    this.clearTimers();
    this.watchTimer?.cancel();
    this.pingTimer?.cancel();
    const ws = this.ws;
    let done = Promise.resolve();
    if (ws) {
      if (drain && ws.readyState === WebSocket.OPEN) {
        done = new Promise<void>((resolve) => ws.once('close', () => resolve()));
        ws.close(1000, reason);
        // A peer that never answers the close frame is cut after the connect timeout.
        const cut = this.clock.setTimeout(() => ws.terminate(), this.connectTimeoutMs);
        void done.then(() => cut.cancel());
      } else {
        this.ws = undefined;
        ws.removeAllListeners();
        ws.on('error', () => undefined);
        ws.terminate();
      }
    }
    this.move('closed', reason);
    return done;
  }

  private async dial(): Promise<void> {
    if (this.stopped) return;
    this.move('connecting', '');
    let url: string;
    try {
      url = await this.o.url();
    } catch (err) {
      this.failed(`address not available: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (this.stopped) return;
    const ws = new WebSocket(url, { perMessageDeflate: false, handshakeTimeout: undefined, maxPayload: MAX_FRAME_BYTES });
    this.ws = ws;
    this.connects += 1;
    this.connectTimer = this.clock.setTimeout(() => {
      if (this.ws === ws && this.st === 'connecting') this.lost(`not open after ${this.connectTimeoutMs} ms`);
    }, this.connectTimeoutMs);
    ws.on('open', () => {
      if (this.ws !== ws) return;
      this.connectTimer?.cancel();
      this.lastRecv = this.clock.now();
      this.move('open', '');
      try {
        this.o.onOpen?.(this);
      } catch (err) {
        this.log.error({ link: this.o.name, err }, 'onOpen failed');
      }
      if (this.ws !== ws || this.stopped) return;
      this.readyAt = this.clock.now();
      this.everReady = true;
      this.move('ready', '');
      if (this.downSince !== undefined) {
        const downSince = this.downSince;
        this.downSince = undefined;
        this.counter.n += 1;
        if (this.announce) {
          const now = this.clock.now();
          this.o.sink?.(reconnectedEvent({ connection: this.o.name, downSince, attempt: this.counter.n, ts: now, recvTs: now }));
        }
      }
    });
    ws.on('message', (data: RawData, isBinary: boolean) => this.onMessage(ws, data, isBinary));
    ws.on('unexpected-response', (_req, res) => {
      if (this.ws !== ws) return;
      const status = res.statusCode ?? 0;
      res.resume();
      this.o.onRefused?.(status);
      this.lost(`upgrade refused with HTTP ${status}`);
    });
    ws.on('error', (err) => {
      if (this.ws === ws) this.lost(`socket error: ${err.message}`);
    });
    ws.on('close', (code, reason) => {
      if (this.ws === ws) this.lost(`closed by the venue (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})`);
    });
  }

  private onMessage(ws: WebSocket, data: RawData, isBinary: boolean): void {
    // A draining link (stopped, closing with a handshake) still hands on what was already in flight.
    if (this.ws !== ws || isBinary) return;
    const now = this.clock.now();
    this.lastRecv = now;
    this.frames += 1;
    const text = data.toString();
    // Heartbeats are short objects whose first key is ping or pong: `{"ping":…}` / `{"pong":…}`.
    if (text.length < 48 && text.charCodeAt(0) === 123 && text.charCodeAt(2) === 112) {
      if (text.startsWith('{"pong"')) return;
      if (text.startsWith('{"ping"')) {
        if (this.o.heartbeat === 'answer-server-ping') this.heartbeat(ws, `{"pong":${text.slice(8, text.lastIndexOf('}')).trim()}}`);
        return;
      }
    }
    this.o.onText(text, now);
  }

  private ping(): void {
    const ws = this.writable();
    if (ws !== undefined) this.heartbeat(ws, `{"ping":${this.clock.now()}}`);
  }

  private watch(): void {
    if (this.st !== 'ready' && this.st !== 'open') return;
    const silent = this.clock.now() - this.lastRecv;
    if (silent >= this.watchdogMs) {
      this.watchdogTrips += 1;
      this.lost(`silent for ${silent} ms (watchdog ${this.watchdogMs} ms)`);
    }
  }

  /** The socket is gone (or never came): forget it and schedule the next attempt. */
  private lost(reason: string): void {
    const ws = this.ws;
    this.ws = undefined;
    if (ws) {
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      ws.terminate();
    }
    if (this.stopped) return;
    this.failed(reason);
  }

  private failed(reason: string): void {
    this.clearTimers();
    const now = this.clock.now();
    if (this.st === 'ready' && now - this.readyAt >= this.stableMs) this.backoff.reset();
    // Only a link that was once ready can be *re*connected; failures before that are just retries.
    if (this.everReady) this.downSince ??= now;
    const delay = this.backoff.next();
    this.move('reconnecting', reason);
    this.log.warn({ link: this.o.name, reason, retryInMs: delay, attempt: this.backoff.attempts }, 'link lost; redialling');
    this.retryTimer = this.clock.setTimeout(() => void this.dial(), delay);
  }

  private clearTimers(): void {
    this.retryTimer?.cancel();
    this.retryTimer = undefined;
    this.connectTimer?.cancel();
    this.connectTimer = undefined;
  }

  private move(state: LinkState, reason: string): void {
    if (this.st === state && state !== 'reconnecting') return;
    this.st = state;
    if (state !== 'idle' && this.announce) {
      const now = this.clock.now();
      this.o.sink?.(connectionStateEvent({ connection: this.o.name, state, reason, ts: now, recvTs: now }));
    }
    this.log.debug({ link: this.o.name, state, reason }, 'link state');
    this.o.onState?.(state, reason);
  }
}

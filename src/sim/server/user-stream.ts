/** The user data stream at /openapi/ws/<listenKey>: pushes a user's events, pings every 30 s, closes at 24 h or when the key ends. */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, type WebSocketServer } from 'ws';
import type { Clock, TimerHandle } from '../../core/clock.ts';
import { errorBody } from './errors.ts';
import type { Faults } from './faults.ts';
import type { ListenKeys } from './listen-keys.ts';
import { sendBounded, type SendLimits } from './slow-reader.ts';

export interface UserStreamOptions {
  readonly pingIntervalMs: number;
  readonly connectionCapMs: number;
  /** A connection holding more unsent bytes than closeAboveBytes is closed (user events cannot be conflated). */
  readonly sendLimits: SendLimits;
}

interface Conn {
  readonly ws: WebSocket;
  readonly userId: string;
  readonly key: string;
  readonly timers: TimerHandle[];
}

/** Every open user-stream connection, by user and by listenKey. */
export class UserStreams {
  private readonly byUser = new Map<string, Set<Conn>>();
  private readonly byKey = new Map<string, Set<Conn>>();
  /** A held-back frame per user when a reorder fault fired: sent right after the next one, or alone when its hold time ends. */
  private readonly held = new Map<string, { readonly frame: string; readonly timer: TimerHandle }>();
  private open = 0;
  /** Connections closed for reading too slowly, since start. */
  private shedCount = 0;
  private activity: ((active: boolean) => void) | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly keys: ListenKeys,
    private readonly faults: Faults,
    private readonly opts: UserStreamOptions,
  ) {
    keys.onEnd((key) => {
      for (const c of [...(this.byKey.get(key) ?? [])]) c.ws.close(1000, 'listenKey ended');
    });
  }

  /** Completes the upgrade for a valid listenKey; answers 400 with -1125 for an unknown or expired one. */
  upgrade(wss: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer, listenKey: string): void {
    const userId = this.keys.userOf(listenKey);
    if (userId === undefined) {
      const body = errorBody(-1125, 'This listenKey does not exist.');
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json;charset=UTF-8\r\nerror_code: -1125\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => this.attach(ws, userId, listenKey));
  }

  /** Calls `fn(true)` when the first connection opens and `fn(false)` when the last one closes (and at once when some are open). */
  onActivity(fn: (active: boolean) => void): void {
    this.activity = fn;
    if (this.open > 0) fn(true);
  }

  /** Returns how many connections were closed for reading too slowly. */
  get shed(): number {
    return this.shedCount;
  }

  /** Returns how many connections `userId` has open. */
  connections(userId: string): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  /** Sends one event (or an array of events) to every connection of `userId`, through the delay, reorder and drop faults. */
  push(userId: string, payload: unknown): void {
    const conns = this.byUser.get(userId);
    if (!conns || conns.size === 0) return;
    const frame = JSON.stringify(payload);
    const delay = this.faults.settings.userStreamDelayMs;
    if (delay > 0) this.clock.setTimeout(() => this.deliver(userId, frame), delay);
    else this.deliver(userId, frame);
  }

  /** Drops every connection at once without a close frame (the admin route's fault). */
  dropAll(): number {
    let n = 0;
    for (const set of this.byUser.values()) for (const c of set) { c.ws.terminate(); n++; }
    return n;
  }

  /** Closes every connection (on shutdown). */
  closeAll(): void {
    for (const h of this.held.values()) h.timer.cancel();
    this.held.clear();
    for (const set of this.byUser.values()) for (const c of [...set]) c.ws.close(1001, 'server stopping');
  }

  private deliver(userId: string, frame: string): void {
    if (!this.held.has(userId) && this.faults.fires('userStreamReorder')) {
      // Bounded on the clock, so the last report of a burst is late rather than lost.
      const timer = this.clock.setTimeout(() => this.release(userId), this.faults.settings.userStreamReorderHoldMs);
      this.held.set(userId, { frame, timer });
      return;
    }
    this.sendAll(userId, frame);
    if (this.faults.fires('userStreamDuplicate')) this.sendAll(userId, frame);
    this.release(userId);
  }

  /** Sends the user's held frame, if any. */
  private release(userId: string): void {
    const late = this.held.get(userId);
    if (late === undefined) return;
    this.held.delete(userId);
    late.timer.cancel();
    this.sendAll(userId, late.frame);
  }

  private sendAll(userId: string, frame: string): void {
    for (const c of [...(this.byUser.get(userId) ?? [])]) {
      if (c.ws.readyState !== WebSocket.OPEN) continue;
      if (this.faults.fires('dropWebSocket')) {
        c.ws.terminate();
        continue;
      }
      sendBounded(c.ws, frame, this.opts.sendLimits, this.clock, () => this.shedCount++);
    }
  }

  private attach(ws: WebSocket, userId: string, key: string): void {
    const c: Conn = { ws, userId, key, timers: [] };
    add(this.byUser, userId, c);
    add(this.byKey, key, c);
    if (this.open++ === 0) this.activity?.(true);
    c.timers.push(this.clock.setInterval(() => {
      sendBounded(ws, JSON.stringify({ ping: this.clock.now() }), this.opts.sendLimits, this.clock);
    }, this.opts.pingIntervalMs));
    c.timers.push(this.clock.setTimeout(() => ws.close(1000, 'connection lasted 24 hours'), this.opts.connectionCapMs));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString();
      if (text.length > 256) return;
      try {
        const m = JSON.parse(text) as unknown;
        if (typeof m === 'object' && m !== null && 'ping' in m) sendBounded(ws, JSON.stringify({ pong: (m as { ping: unknown }).ping }), this.opts.sendLimits, this.clock);
      } catch {
        // A frame that is not JSON gets no answer on the user stream, as on the venue.
      }
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      for (const t of c.timers) t.cancel();
      remove(this.byUser, userId, c);
      remove(this.byKey, key, c);
      if (--this.open === 0) this.activity?.(false);
    });
  }
}

function add<K, V>(m: Map<K, Set<V>>, k: K, v: V): void {
  let s = m.get(k);
  if (!s) m.set(k, (s = new Set()));
  s.add(v);
}

function remove<K, V>(m: Map<K, Set<V>>, k: K, v: V): void {
  const s = m.get(k);
  if (!s) return;
  s.delete(v);
  if (s.size === 0) m.delete(k);
}

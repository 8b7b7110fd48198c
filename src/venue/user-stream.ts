/** The user data stream client: listenKey life (create, 30-minute keepalive, renewal), rotation before the 24-hour cap, reports to the sink as they arrive (filtered, never held). */
import type { Clock, TimerHandle } from '../core/clock.ts';
import { ConfigError } from '../core/errors.ts';
import { silentLogger, type Logger } from '../core/logger.ts';
import { reconnectedEvent } from '../model/events.ts';
import { parseUserStreamFrame } from '../model/userstream.ts';
import { parseWireJson } from '../model/wire.ts';
import { Backoff, type BackoffOptions } from './backoff.ts';
import { OverlapDedupe } from './overlap-dedupe.ts';
import { ReportSequencer, type SequencerStats } from './report-sequencer.ts';
import { normaliseUserEvent } from './user-normalise.ts';
import { WsLink, type EventSink, type LinkState } from './ws-connection.ts';

/** The three listenKey calls of the REST client (VenueRestClient has them). */
export interface ListenKeyApi {
  createListenKey(): Promise<{ readonly listenKey: string }>;
  keepaliveListenKey(p: { listenKey: string }): Promise<unknown>;
  closeListenKey(p: { listenKey: string }): Promise<unknown>;
}

export interface UserStreamOptions {
  readonly rest: ListenKeyApi;
  /** The venue's WebSocket base, e.g. `ws://127.0.0.1:8080`. */
  readonly wsUrl: string;
  readonly clock: Clock;
  readonly sink: EventSink;
  readonly log?: Logger;
  /** Keepalive period (default 30 minutes; a key lives 60). */
  readonly keepaliveMs?: number;
  /** A connection is replaced by a fresh one this long after it opened (default 23.5 hours; the venue cuts at 24). */
  readonly rotateAfterMs?: number;
  /** Silence (no event, no ping) after which the stream is redialled (default 75 s; the venue pings every 30 s). */
  readonly watchdogMs?: number;
  /** How long the old connection stays open beside the new one before it is closed (default 2 s). */
  readonly overlapMs?: number;
  /** How long after an overlap ends duplicate frames are still recognised (default 10 s). */
  readonly overlapGraceMs?: number;
  readonly connectTimeoutMs?: number;
  readonly backoff?: BackoffOptions;
}

/** What the client counted. */
export interface UserStreamStats extends SequencerStats {
  readonly frames: number;
  readonly malformed: number;
  readonly ignored: number;
  readonly keysCreated: number;
  readonly keepalives: number;
  readonly keepaliveFailures: number;
  readonly rotations: number;
  readonly duplicateFrames: number;
  readonly reconnects: number;
  readonly watchdogTrips: number;
  /** Heartbeats not sent because the venue was not reading (every link's, the current one's included). */
  readonly heartbeatsSkipped: number;
}

const USER_WS_PATH = '/openapi/ws/';

/** One user data stream; start() makes a listenKey and connects, stop() closes both. */
export class UserStreamClient {
  private primary: WsLink | undefined;
  private standby: WsLink | undefined;
  private key: string | undefined;
  private keyMaking: Promise<string> | undefined;
  private keepTimer: TimerHandle | undefined;
  private rotateTimer: TimerHandle | undefined;
  private retryTimer: TimerHandle | undefined;
  private retireTimer: TimerHandle | undefined;
  private retiring: WsLink | undefined;
  private readonly sequencer: ReportSequencer;
  private readonly dedupe: OverlapDedupe;
  private readonly switchBackoff: Backoff;
  private readonly reconnects = { n: 0 };
  private readonly log: Logger;
  private readonly keepaliveMs: number;
  private readonly rotateAfterMs: number;
  private stopped = false;
  private linkSeq = 0;
  /** What the links that no longer carry the stream counted. */
  private readonly ended = { watchdogTrips: 0, heartbeatsSkipped: 0 };
  private c = { frames: 0, malformed: 0, ignored: 0, keysCreated: 0, keepalives: 0, keepaliveFailures: 0, rotations: 0 };

  constructor(private readonly o: UserStreamOptions) {
    this.log = o.log ?? silentLogger();
    this.keepaliveMs = o.keepaliveMs ?? 30 * 60_000;
    this.rotateAfterMs = o.rotateAfterMs ?? 23.5 * 3_600_000;
    if (!(this.keepaliveMs > 0 && this.keepaliveMs < 60 * 60_000)) throw new ConfigError('user.keepaliveMs', `must be in (0, 60 minutes): a key lives 60 minutes, got ${this.keepaliveMs}`);
    if (!(this.rotateAfterMs > 0 && this.rotateAfterMs < 24 * 3_600_000)) throw new ConfigError('user.rotateAfterMs', `must be in (0, 24 hours): the venue cuts a connection at 24 hours, got ${this.rotateAfterMs}`);
    this.sequencer = new ReportSequencer(o.sink);
    this.dedupe = new OverlapDedupe(o.clock, o.overlapGraceMs ?? 10_000);
    this.switchBackoff = new Backoff(o.backoff);
  }

  /** Returns the listenKey in use (undefined before start or while a new one is being made). */
  get listenKey(): string | undefined {
    return this.key;
  }

  /** Returns the state of the connection that currently carries the stream. */
  get state(): LinkState {
    return this.primary?.state ?? 'idle';
  }

  /** Returns the client's counters. */
  stats(): UserStreamStats {
    return {
      ...this.sequencer.stats(), ...this.c, duplicateFrames: this.dedupe.dropped, reconnects: this.reconnects.n,
      watchdogTrips: this.ended.watchdogTrips + (this.primary?.stats().watchdogTrips ?? 0),
      heartbeatsSkipped: this.ended.heartbeatsSkipped + (this.primary?.stats().heartbeatsSkipped ?? 0),
    };
  }

  /** Makes a listenKey, connects, and keeps the key alive every keepaliveMs. */
  async start(): Promise<void> {
    if (this.primary) return;
    await this.keyFor();
    this.primary = this.newLink(() => this.keyFor(), true);
    this.primary.start();
    this.keepTimer = this.o.clock.setInterval(() => void this.keepalive(), this.keepaliveMs);
  }

  /** Closes the stream and its listenKey. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const t of [this.keepTimer, this.rotateTimer, this.retryTimer, this.retireTimer]) t?.cancel();
    const links = [this.standby, this.retiring, this.primary];
    this.standby = undefined;
    this.retiring = undefined;
    await Promise.all(links.map((l) => l?.stop('client stopping')));
    const key = this.key;
    this.key = undefined;
    if (key !== undefined) await this.o.rest.closeListenKey({ listenKey: key }).catch(() => undefined);
  }

  /** Replaces the listenKey with a new one and moves the stream onto it (as a failed keepalive does). */
  async renewKey(reason: string): Promise<void> {
    const downSince = this.o.clock.now();
    const old = this.key;
    this.key = undefined;
    try {
      await this.keyFor();
    } catch (err) {
      this.log.warn({ reason, err: err instanceof Error ? err.message : String(err) }, 'new listenKey failed; retrying');
      this.retryLater(() => void this.renewKey(reason));
      return;
    }
    this.switchTo(`new listenKey (${reason})`, downSince, old);
  }

  /** Moves the stream onto a fresh connection now, with overlap (as the 24-hour rotation does). */
  rotate(): void {
    this.switchTo('rotation before the 24-hour cap', undefined, undefined);
  }

  private keyFor(): Promise<string> {
    if (this.key !== undefined) return Promise.resolve(this.key);
    this.keyMaking ??= this.o.rest.createListenKey().then((r) => {
      this.keyMaking = undefined;
      this.key = r.listenKey;
      this.c.keysCreated += 1;
      return r.listenKey;
    }, (err: unknown) => {
      this.keyMaking = undefined;
      throw err;
    });
    return this.keyMaking;
  }

  private async keepalive(): Promise<void> {
    const key = this.key;
    if (key === undefined || this.stopped) return;
    try {
      await this.o.rest.keepaliveListenKey({ listenKey: key });
      this.c.keepalives += 1;
    } catch (err) {
      this.c.keepaliveFailures += 1;
      this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'listenKey keepalive failed; making a new key');
      if (this.key === key) await this.renewKey('keepalive failed');
    }
  }

  private newLink(url: () => string | Promise<string>, announce: boolean): WsLink {
    const id = ++this.linkSeq;
    const link: WsLink = new WsLink({
      name: 'user',
      clock: this.o.clock,
      url: async () => `${this.o.wsUrl.replace(/\/+$/, '')}${USER_WS_PATH}${await url()}`,
      onText: (text, recvTs) => this.onText(text, recvTs, id),
      onRefused: (status) => {
        // 400 is the venue's "this listenKey does not exist": the next attempt makes a new one.
        if (status === 400 && link === this.primary) this.key = undefined;
      },
      onState: (state) => this.onLinkState(link, state),
      sink: this.o.sink,
      heartbeat: 'answer-server-ping',
      watchdogMs: this.o.watchdogMs ?? 75_000,
      connectTimeoutMs: this.o.connectTimeoutMs,
      backoff: this.o.backoff,
      reconnectCounter: this.reconnects,
      log: this.log,
    });
    link.announce = announce;
    return link;
  }

  private onLinkState(link: WsLink, state: LinkState): void {
    // A retiring link that drops is simply retired now: the new one already carries the stream.
    if (link === this.retiring && state === 'reconnecting') this.retire(link);
    if (link === this.primary && state === 'ready') this.armRotation();
    if (link !== this.standby) return;
    if (state === 'ready') this.promote(link);
    else if (state === 'reconnecting') {
      // A standby that cannot connect is abandoned; the switch is tried again later.
      this.standby = undefined;
      this.countEnded(link);
      void link.stop('standby failed');
      this.dedupe.end();
      this.retryLater(() => this.rotate());
    }
  }

  private armRotation(): void {
    this.rotateTimer?.cancel();
    this.rotateTimer = this.o.clock.setTimeout(() => this.rotate(), this.rotateAfterMs);
  }

  private pendingSwitch: { reason: string; downSince: number | undefined; oldKey: string | undefined } | undefined;

  private switchTo(reason: string, downSince: number | undefined, oldKey: string | undefined): void {
    if (this.stopped) return;
    if (this.standby || this.retiring) {
      this.retryLater(() => this.switchTo(reason, downSince, oldKey));
      return;
    }
    this.log.info({ reason }, 'user stream moving to a fresh connection');
    this.pendingSwitch = { reason, downSince, oldKey };
    this.dedupe.begin();
    this.standby = this.newLink(() => this.keyFor(), false);
    this.standby.start();
  }

  /** The standby is ready: it carries the stream from now; the old link drains what it still has in flight, then closes. */
  private promote(link: WsLink): void {
    const old = this.primary;
    const sw = this.pendingSwitch;
    this.pendingSwitch = undefined;
    this.standby = undefined;
    this.primary = link;
    this.switchBackoff.reset();
    this.c.rotations += 1;
    if (old) {
      old.announce = false;
      this.retiring = old;
      this.retireTimer = this.o.clock.setTimeout(() => this.retire(old), this.o.overlapMs ?? 2_000);
    } else {
      this.dedupe.end();
    }
    link.announce = true;
    this.armRotation();
    if (sw?.downSince !== undefined) {
      this.reconnects.n += 1;
      const now = this.o.clock.now();
      this.o.sink(reconnectedEvent({ connection: 'user', downSince: sw.downSince, attempt: this.reconnects.n, ts: now, recvTs: now }));
    }
    if (sw?.oldKey !== undefined) void this.o.rest.closeListenKey({ listenKey: sw.oldKey }).catch(() => undefined);
  }

  /** Keeps the counters of a link that no longer carries the stream. */
  private countEnded(link: WsLink): void {
    const s = link.stats();
    this.ended.watchdogTrips += s.watchdogTrips;
    this.ended.heartbeatsSkipped += s.heartbeatsSkipped;
  }

  /** The old link of a switch has overlapped long enough: it drains what is in flight and closes. */
  private retire(old: WsLink): void {
    if (this.retiring !== old) return;
    this.retiring = undefined;
    this.retireTimer?.cancel();
    this.countEnded(old);
    void old.stop('replaced by a fresh connection', true).then(() => this.dedupe.end());
  }

  private retryLater(fn: () => void): void {
    if (this.stopped) return;
    this.retryTimer?.cancel();
    this.retryTimer = this.o.clock.setTimeout(fn, this.switchBackoff.next());
  }

  private onText(text: string, recvTs: number, linkId: number): void {
    if (!this.dedupe.admit(text, linkId)) return;
    this.c.frames += 1;
    let events;
    try {
      events = parseUserStreamFrame(parseWireJson(text));
    } catch (err) {
      this.c.malformed += 1;
      this.log.warn({ err: err instanceof Error ? err.message : String(err), frame: text.slice(0, 200) }, 'malformed user-stream frame skipped');
      return;
    }
    for (const ev of events) {
      const out = normaliseUserEvent(ev, recvTs);
      if ('skipped' in out && out.skipped === 'malformed') {
        this.c.malformed += 1;
        this.log.warn({ detail: out.detail }, 'malformed user-stream event skipped');
        continue;
      }
      if ('skipped' in out) {
        this.c.ignored += 1;
        this.log.debug({ skipped: out.skipped, detail: out.detail }, 'user-stream event without a bus event');
        continue;
      }
      for (const x of out) this.sequencer.push(x);
    }
  }
}

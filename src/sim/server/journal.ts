/** The venue's journal: every engine call that may change state is appended before it runs, and replayed over the last snapshot after a crash. */
import { closeSync, existsSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ReadingClock, VirtualClock, type Clock } from '../../core/clock.ts';
import type { SimVenueConfig } from '../engine/config.ts';
import { SimVenue } from '../engine/venue.ts';

/** The SimVenue methods that may change its state; everything else only reads. */
export const JOURNALED = [
  'newSpotOrder', 'cancelSpotOrder', 'tryCancelSpotOrder', 'newContractOrder', 'cancelContractOrder', 'batchCancel',
  'modifyMargin', 'setIndexPrice', 'setMarkPrice', 'createUser', 'deposit', 'transfer', 'transferPending', 'withdraw',
] as const satisfies readonly (keyof SimVenue)[];
export type JournaledOp = (typeof JOURNALED)[number];
const OPS: ReadonlySet<string> = new Set(JOURNALED);

/** When the journal is flushed to disk: after every entry, at most every fsyncEveryMs, or when the OS decides. */
export type FsyncPolicy = 'always' | 'interval' | 'never';

/** One journaled call: its sequence number, the clock time it ran at, the method and its arguments. */
export interface JournalEntry {
  readonly seq: number;
  readonly t: number;
  readonly op: JournaledOp;
  readonly args: readonly unknown[];
}

/** Arguments hold bigint Amounts (transfers): written as {"$bigint":"…"}. */
function encode(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? { $bigint: v.toString() } : v;
}

function decode(_k: string, v: unknown): unknown {
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && keys[0] === '$bigint' && typeof o['$bigint'] === 'string') return BigInt(o['$bigint']);
  }
  return v;
}

/**
 * The engine's clock when it is journaled: during a journaled call its time stands still at the time
 * the entry records, so a replay at that time does exactly what the call did (writing and syncing the
 * entry may take a few ms of a live clock).
 */
export class HeldClock extends ReadingClock {
  private held: number | undefined;
  private depth = 0;

  now(): number {
    return this.held ?? this.inner.now();
  }

  /** Runs `fn` with the time held at its start (nested calls keep the outer time); returns its result. */
  hold<T>(fn: (now: number) => T): T {
    if (this.depth++ === 0) this.held = this.inner.now();
    try {
      return fn(this.held!);
    } finally {
      if (--this.depth === 0) this.held = undefined;
    }
  }
}

/** An append-only file of JournalEntry lines beside the state file. */
export class Journal {
  private readonly fd: number;
  private lastSync: number;
  /** Entries written since the last reset. */
  private written = 0;

  constructor(readonly path: string, private seq: number, private readonly policy: FsyncPolicy, private readonly fsyncEveryMs: number, private readonly clock: Clock) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'a');
    this.lastSync = clock.now();
  }

  /** Returns the entries of the file at `path` in order; a torn last line (a crash mid-write) is left out. */
  static read(path: string): JournalEntry[] {
    if (!existsSync(path)) return [];
    const out: JournalEntry[] = [];
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line === '') continue;
      let e: JournalEntry;
      try {
        e = JSON.parse(line, decode) as JournalEntry;
      } catch {
        break;
      }
      if (typeof e.seq !== 'number' || typeof e.t !== 'number' || !OPS.has(e.op) || !Array.isArray(e.args)) break;
      out.push(e);
    }
    return out;
  }

  /** Returns the sequence number of the last entry written. */
  get lastSeq(): number {
    return this.seq;
  }

  /** Writes one entry (the call at time `t`) through to the OS (a killed process loses nothing written) and syncs it per the policy. */
  append(t: number, op: JournaledOp, args: readonly unknown[]): void {
    const now = this.clock.now();
    const line = `${JSON.stringify({ seq: this.seq + 1, t, op, args }, encode)}\n`;
    writeSync(this.fd, line);
    this.seq += 1;
    this.written += 1;
    if (this.policy === 'always' || (this.policy === 'interval' && now - this.lastSync >= this.fsyncEveryMs)) this.sync(now);
  }

  /** Returns how many entries the file holds (since the last reset). */
  get size(): number {
    return this.written;
  }

  /** Empties the file once a snapshot holds every entry (the snapshot names the last seq it holds, so a crash before this is harmless). */
  reset(): void {
    ftruncateSync(this.fd, 0);
    this.written = 0;
    if (this.policy !== 'never') this.sync(this.clock.now());
  }

  close(): void {
    if (this.policy !== 'never') fsyncSync(this.fd);
    closeSync(this.fd);
  }

  private sync(now: number): void {
    fsyncSync(this.fd);
    this.lastSync = now;
  }
}

/**
 * Returns `venue` (built on `clock`) seen through the journal: each state-changing call is appended
 * before it runs (so events never go out ahead of it), the clock held at the entry's time meanwhile. `onFull` is called (after the call, never inside it) once the
 * journal holds `maxEntries`: the owner compacts it into a snapshot, so the file stays bounded.
 */
export function journaled(venue: SimVenue, clock: HeldClock, journal: Journal, maxEntries = Infinity, onFull: () => void = () => undefined): SimVenue {
  let compacting = false;
  // One wrapper per method, made on first use: the hot path allocates nothing per call.
  const wrappers = new Map<PropertyKey, unknown>();
  return new Proxy(venue, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      const known = wrappers.get(prop);
      if (known !== undefined) return known;
      const fn = v as (...a: unknown[]) => unknown;
      const wrapper = typeof prop === 'string' && OPS.has(prop)
        ? (...args: unknown[]) => {
          try {
            return clock.hold((now) => {
              journal.append(now, prop as JournaledOp, args);
              return fn.apply(target, args);
            });
          } finally {
            if (journal.size >= maxEntries && !compacting) {
              compacting = true;
              // After the whole operation (an agent's or a request's several calls), never in the middle of one.
              queueMicrotask(() => {
                compacting = false;
                onFull();
              });
            }
          }
        }
        : fn.bind(target);
      wrappers.set(prop, wrapper);
      return wrapper;
    },
  });
}

/**
 * Returns the state after `entries` ran over `state` (saved at `savedAt`): a SimVenue on a virtual clock
 * takes each call at its recorded time, so the engine's own timers (funding) fire between them as they
 * did. A call refused the first time is refused again and skipped.
 */
export function replayJournal(config: SimVenueConfig, state: string, savedAt: number, entries: readonly JournalEntry[]): string {
  const clock = new VirtualClock(savedAt);
  const venue = SimVenue.fromState(config, clock, state);
  try {
    for (const e of entries) {
      if (e.t > clock.now()) clock.advanceToSync(e.t);
      const fn = (venue as unknown as Record<string, (...a: unknown[]) => unknown>)[e.op]!;
      try {
        fn.apply(venue, e.args as unknown[]);
      } catch {
        // Refused when it first ran too (a refusal changes nothing): the client got the same error.
      }
    }
    return venue.exportState();
  } finally {
    venue.close();
  }
}

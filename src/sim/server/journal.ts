/** The venue's journal: every engine call that may change state is appended before it runs, and replayed over the last snapshot after a crash. */
import { closeSync, existsSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { VirtualClock, type Clock } from '../../core/clock.ts';
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

  /** Writes one entry through to the OS (a killed process loses nothing written) and syncs it per the policy. */
  append(op: JournaledOp, args: readonly unknown[]): void {
    const now = this.clock.now();
    const line = `${JSON.stringify({ seq: this.seq + 1, t: now, op, args }, encode)}\n`;
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
 * Returns `venue` seen through the journal: each state-changing call is appended before it runs (so
 * events never go out ahead of it). `onFull` is called (after the call, never inside it) once the
 * journal holds `maxEntries`: the owner compacts it into a snapshot, so the file stays bounded.
 */
export function journaled(venue: SimVenue, journal: Journal, maxEntries = Infinity, onFull: () => void = () => undefined): SimVenue {
  let compacting = false;
  return new Proxy(venue, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      const fn = v as (...a: unknown[]) => unknown;
      if (typeof prop === 'string' && OPS.has(prop)) {
        return (...args: unknown[]) => {
          journal.append(prop as JournaledOp, args);
          try {
            return fn.apply(target, args);
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
        };
      }
      return fn.bind(target);
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

/** Writes capture lines to gzip files: one complete gzip member per flush (every second), a new file every UTC hour and past a size. */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock, TimerHandle } from '../../core/clock.ts';
import { ConfigError } from '../../core/errors.ts';
import { encodeMember } from './gzip-member.ts';

const HOUR_MS = 3_600_000;

export interface CaptureWriterOptions {
  /** The folder the files go to (created when missing). */
  readonly dir: string;
  /** Names the files: `<stream>-<UTC time>Z-<n>.cap.gz`. */
  readonly stream: string;
  readonly clock: Clock;
  /** How often what was written is compressed and appended as one gzip member (default 1000 ms). */
  readonly flushMs?: number;
  /** A file is closed once it reaches this many bytes; the next line opens a new one (default 64 MiB). */
  readonly maxFileBytes?: number;
  /** A new file at every UTC hour (default true). */
  readonly hourly?: boolean;
  /** Lines held between flushes are flushed at once past this many bytes, so memory stays bounded (default 4 MiB). */
  readonly maxPendingBytes?: number;
  /** Returns the lines every new file starts with (each ending in a newline), given the time of the line that opens it. */
  readonly header?: (ns: bigint) => readonly string[];
  /** Told when a flush fails (disk full, folder gone); the lines of that flush are lost. */
  readonly onError?: (err: Error) => void;
}

/** What the writer counted. */
export interface CaptureWriterStats {
  readonly lines: number;
  readonly members: number;
  readonly files: number;
  /** Compressed bytes written. */
  readonly bytes: number;
  /** Lines held in memory, not yet on disk. */
  readonly pendingLines: number;
  /** Writes that failed (their lines are lost). */
  readonly errors: number;
}

/** Appends lines to rotating gzip files; what is on disk is always whole members except the one being written. */
export class CaptureWriter {
  private fd: number | undefined;
  private file: string | undefined;
  private fileBytes = 0;
  private hourEnd = 0;
  private pending: string[] = [];
  private pendingBytes = 0;
  private readonly written: string[] = [];
  private readonly timer: TimerHandle;
  private readonly maxFileBytes: number;
  private readonly maxPendingBytes: number;
  private closed = false;
  private counts = { lines: 0, members: 0, files: 0, bytes: 0, errors: 0 };

  constructor(private readonly o: CaptureWriterOptions) {
    const flushMs = o.flushMs ?? 1000;
    this.maxFileBytes = o.maxFileBytes ?? 64 * 1024 * 1024;
    this.maxPendingBytes = o.maxPendingBytes ?? 4 * 1024 * 1024;
    for (const [k, v] of [['flushMs', flushMs], ['maxFileBytes', this.maxFileBytes], ['maxPendingBytes', this.maxPendingBytes]] as const) {
      if (!(Number.isInteger(v) && v > 0)) throw new ConfigError(`record.${k}`, `must be a positive integer, got ${v}`);
    }
    if (!/^[A-Za-z0-9_-]+$/.test(o.stream)) throw new ConfigError('record.stream', `must be letters, digits, _ or -, got ${JSON.stringify(o.stream)}`);
    mkdirSync(o.dir, { recursive: true });
    this.timer = o.clock.setInterval(() => this.flushQuietly(), flushMs);
  }

  /** Returns the counters. */
  stats(): CaptureWriterStats {
    return { ...this.counts, pendingLines: this.pending.length };
  }

  /** Returns the files written so far, oldest first. */
  files(): readonly string[] {
    return this.written;
  }

  /** Queues one line (ending in a newline) received at `ns` for the next flush; opens a new file first when the hour turned. Never throws: a failed write goes to onError. */
  write(ns: bigint, line: string): void {
    if (this.closed) return;
    try {
      if (this.fd !== undefined && this.o.hourly !== false && this.o.clock.now() >= this.hourEnd) {
        this.flush();
        this.closeFile();
      }
      if (this.fd === undefined) this.openFile(ns);
      this.pending.push(line);
      this.pendingBytes += line.length;
      this.counts.lines += 1;
      if (this.pendingBytes >= this.maxPendingBytes) this.flush();
    } catch (err) {
      this.failed(err);
    }
  }

  /** Opens a file now when none is open (its header lines queued with time `ns`), so a recording shows even before its first line. */
  open(ns: bigint): void {
    if (this.closed || this.fd !== undefined) return;
    try {
      this.openFile(ns);
    } catch (err) {
      this.failed(err);
    }
  }

  /** Compresses the queued lines into one gzip member and appends it; throws when the write fails. */
  flush(): void {
    if (this.pending.length === 0 || this.fd === undefined) return;
    const lines = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    const member = encodeMember(Buffer.from(lines.join(''), 'utf8'));
    // One write call per member: a kill can cut only the member being written, never an earlier one.
    let off = 0;
    while (off < member.length) off += writeSync(this.fd, member, off, member.length - off);
    this.fileBytes += member.length;
    this.counts.members += 1;
    this.counts.bytes += member.length;
    if (this.fileBytes >= this.maxFileBytes) this.closeFile();
  }

  /** Flushes what is queued and closes the file; later writes are ignored. */
  close(): void {
    if (this.closed) return;
    this.timer.cancel();
    try {
      this.flush();
    } finally {
      this.closed = true;
      this.closeFile();
    }
  }

  private flushQuietly(): void {
    try {
      this.flush();
    } catch (err) {
      this.failed(err);
    }
  }

  private failed(err: unknown): void {
    this.counts.errors += 1;
    this.o.onError?.(err instanceof Error ? err : new Error(String(err)));
  }

  private openFile(ns: bigint): void {
    const now = this.o.clock.now();
    const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    for (let n = 0; ; n++) {
      const file = join(this.o.dir, `${this.o.stream}-${stamp}-${String(n).padStart(4, '0')}.cap.gz`);
      try {
        this.fd = openSync(file, 'wx');
        this.file = file;
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    this.written.push(this.file);
    this.fileBytes = 0;
    this.hourEnd = (Math.floor(now / HOUR_MS) + 1) * HOUR_MS;
    this.counts.files += 1;
    for (const line of this.o.header?.(ns) ?? []) {
      this.pending.push(line);
      this.pendingBytes += line.length;
    }
  }

  private closeFile(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    this.file = undefined;
  }
}

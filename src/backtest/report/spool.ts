/**
 * Lines a run appends and reads back once at its end (orders.csv's and fills.csv's, its equity, price
 * and position points), kept in a temporary file beyond the last few thousand so that what a run
 * holds does not grow with its length.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Lines held in memory before they are written out together. */
const CHUNK_LINES = 4_096;

/** An append-only list of text lines (no line ends inside), spilled to a temporary file in chunks. */
export class LineSpool {
  private held: string[] = [];
  private dir: string | undefined;
  private fd: number | undefined;
  private count = 0;

  /** How many lines were appended. */
  get length(): number {
    return this.count;
  }

  /** The temporary file, once lines were spilled to it. */
  get file(): string | undefined {
    return this.dir === undefined ? undefined : join(this.dir, 'lines');
  }

  push(line: string): void {
    this.held.push(line);
    this.count++;
    if (this.held.length >= CHUNK_LINES) this.spill();
  }

  /** Appends many lines (in order). */
  pushAll(lines: readonly string[]): void {
    for (const l of lines) this.push(l);
  }

  /** Returns every line in order and removes the temporary file; the spool is empty afterwards. */
  drain(): string[] {
    let lines = this.held;
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
      const text = readFileSync(join(this.dir!, 'lines'), 'utf8');
      lines = [...text.slice(0, -1).split('\n'), ...this.held];
    }
    this.discard();
    return lines;
  }

  /** Removes the temporary file (a run that failed). */
  discard(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
    this.fd = undefined;
    this.dir = undefined;
    this.held = [];
    this.count = 0;
  }

  private spill(): void {
    if (this.fd === undefined) {
      this.dir = mkdtempSync(join(tmpdir(), 'bhtrade-results-'));
      this.fd = openSync(join(this.dir, 'lines'), 'w');
    }
    writeSync(this.fd, `${this.held.join('\n')}\n`);
    this.held = [];
  }
}

/** A time and a decimal text. */
export interface TimedText {
  readonly time: number;
  readonly text: string;
}

/** Points of a series (a time and a decimal text each) in the order appended, spooled as LineSpool's lines. */
export class PointSpool {
  private readonly lines = new LineSpool();

  /** How many points were appended. */
  get length(): number {
    return this.lines.length;
  }

  push(time: number, text: string): void {
    this.lines.push(`${time},${text}`);
  }

  /** Returns every point in order and removes the temporary file. */
  drain(): TimedText[] {
    return this.lines.drain().map((l) => {
      const comma = l.indexOf(',');
      return { time: Number(l.slice(0, comma)), text: l.slice(comma + 1) };
    });
  }

  discard(): void {
    this.lines.discard();
  }
}

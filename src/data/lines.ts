/** Reads recorded line files (`<ns> <frame>`, gzip or plain), yielding each whole line and reporting a truncated or corrupt tail instead of failing. */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { parseNs } from './ns.ts';
import type { ConvertReport } from './report.ts';

/** One line of a recording: its 1-based number, the receive time and the frame text. */
export interface RecordedLine {
  readonly line: number;
  readonly ns: bigint;
  readonly frame: string;
}

/** Returns true when the file starts with the gzip magic bytes. */
async function isGzip(file: string): Promise<boolean> {
  const s = createReadStream(file, { start: 0, end: 1 });
  for await (const chunk of s as AsyncIterable<Buffer>) return chunk.length >= 2 && chunk[0] === 0x1f && chunk[1] === 0x8b;
  return false;
}

/** A line of text, and whether it follows a damaged stretch that was skipped (earlier lines may come again). */
export interface TextLine {
  readonly line: number;
  readonly text: string;
  readonly resumed: boolean;
}

const READ_CHUNK = 16 * 1024;

/** The longest line kept (characters): a file without newlines must not grow one string without end. */
export const MAX_LINE = 16 * 1024 * 1024;

/** Returns the offset of the next gzip member header (1f 8b 08) at or after `from`, or -1. */
async function nextMember(file: string, from: number): Promise<number> {
  let base = from;
  let carry = Buffer.alloc(0);
  for await (const chunk of createReadStream(file, { start: from, highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
    const buf = Buffer.concat([carry, chunk]);
    for (let i = buf.indexOf(0x1f); i >= 0 && i + 2 < buf.length; i = buf.indexOf(0x1f, i + 1)) {
      if (buf[i + 1] === 0x8b && buf[i + 2] === 0x08) return base + i;
    }
    carry = buf.subarray(Math.max(0, buf.length - 2));
    base += buf.length - carry.length;
  }
  return -1;
}

/**
 * Yields the text lines of a file (gunzipped when it is gzip). A damaged gzip member is reported and
 * reading goes on from the next member header after it (a recorder writes one member per flush), so
 * one bad second costs that second; a cut last member ends the file with a problem in the report.
 */
export async function* textLines(file: string, report: ConvertReport): AsyncGenerator<TextLine> {
  const gz = await isGzip(file);
  let n = 0;
  let start = 0;
  let resumed = false;
  let lastFailure = -1;
  for (;;) {
    const raw = createReadStream(file, { start, highWaterMark: READ_CHUNK });
    const gunzip = gz ? createGunzip() : undefined;
    const stream: Readable = gunzip ? raw.pipe(gunzip) : raw;
    if (gunzip) raw.on('error', (e) => stream.destroy(e));
    const decoder = new StringDecoder('utf8');
    // The text after the last newline, in pieces: a long line is joined once, not copied per chunk.
    let parts: string[] = [];
    let partsLength = 0;
    let skipping = false;
    let rest = '';
    let damage: Error | undefined;
    const tooLong = (): void => {
      n += 1;
      report.problem(file, n, `a line longer than ${MAX_LINE} characters was skipped`);
    };
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        const fresh = decoder.write(chunk);
        let nl = fresh.indexOf('\n');
        if (nl < 0) {
          if (skipping) continue;
          parts.push(fresh);
          partsLength += fresh.length;
          if (partsLength > MAX_LINE) {
            tooLong();
            parts = [];
            partsLength = 0;
            skipping = true;
          }
          continue;
        }
        if (skipping) {
          skipping = false;
        } else if (partsLength + nl > MAX_LINE) {
          tooLong();
        } else {
          n += 1;
          yield { line: n, text: parts.join('') + fresh.slice(0, nl), resumed };
          resumed = false;
        }
        parts = [];
        partsLength = 0;
        let from = nl + 1;
        for (nl = fresh.indexOf('\n', from); nl >= 0; nl = fresh.indexOf('\n', from)) {
          if (nl - from > MAX_LINE) {
            tooLong();
          } else {
            n += 1;
            yield { line: n, text: fresh.slice(from, nl), resumed };
            resumed = false;
          }
          from = nl + 1;
        }
        if (from < fresh.length) {
          parts.push(fresh.slice(from));
          partsLength = fresh.length - from;
        }
      }
      if (!skipping) rest = parts.join('') + decoder.end();
    } catch (e) {
      damage = e as Error;
      if (!skipping) rest = parts.join('');
    }
    if (rest.length > 0) {
      // A line cut mid-write (or by the damage) is reported, not guessed at.
      report.problem(file, n + 1, `an incomplete line (${rest.length} characters without a newline) was skipped`);
    }
    if (!damage || !gunzip) {
      if (damage) report.problem(file, n + 1, `the file could not be read after line ${n} (${damage.message})`);
      return;
    }
    // The damage lies in the chunk the engine took last, and output still inside the engine was lost with it:
    // reading restarts at a member header a little before (lines read twice are dropped by their time), and
    // each retry starts further on, so it ends.
    const failedAt = start + gunzip.bytesWritten;
    const next = await nextMember(file, Math.max(start + 1, failedAt - 4 * READ_CHUNK));
    const first = failedAt !== lastFailure;
    lastFailure = failedAt;
    if (next < 0) {
      report.problem(file, n + 1, `the file is damaged after line ${n} (${damage.message}); nothing after it could be read`);
      return;
    }
    if (first) report.problem(file, n + 1, `the file is damaged after line ${n} (${damage.message}); reading on from the gzip member at byte ${next}`);
    start = next;
    resumed = true;
  }
}

/** Yields the `<ns> <frame>` lines of a recording; a line that does not have that shape is reported and skipped. */
export async function* recordedLines(file: string, report: ConvertReport): AsyncGenerator<RecordedLine> {
  let last = -1n;
  let catchingUp = false;
  for await (const { line, text, resumed } of textLines(file, report)) {
    if (resumed) catchingUp = true;
    if (text.length === 0) continue;
    const sp = text.indexOf(' ');
    if (sp <= 0) {
      report.problem(file, line, 'is not "<ns> <frame>" (no space after the receive time); skipped');
      continue;
    }
    let ns: bigint;
    try {
      ns = parseNs(text.slice(0, sp), 'receive time');
    } catch (e) {
      report.problem(file, line, `${(e as Error).message}; skipped`);
      continue;
    }
    if (catchingUp) {
      // After a damaged stretch, reading restarts at a member that may hold lines already read: those are not kept twice.
      if (ns <= last) continue;
      catchingUp = false;
    }
    last = ns;
    yield { line, ns, frame: text.slice(sp + 1) };
  }
}

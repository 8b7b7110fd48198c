/** Reads the text lines of a recorded file — a bhtrade capture (members with their own length), plain gzip, or plain text — reporting a cut or damaged part instead of throwing; both the capture reader and `bhtrade data convert` read through it. */
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { constants, createGunzip, inflateRawSync } from 'node:zlib';
import { crc32, findMemberHeader, isMemberHeader, MEMBER_HEADER_BYTES, MEMBER_TRAILER_BYTES, memberLength } from './gzip-member.ts';

/** The longest line kept (characters): a file without newlines must not grow one string without end. */
export const MAX_LINE = 16 * 1024 * 1024;

/** One line of text; `resumed` is set on the first line read after a damaged stretch (earlier lines may come again). */
export interface FileLine {
  /** 1-based line number in the file (as far as it could be counted). */
  readonly line: number;
  readonly text: string;
  /** Byte offset of the gzip member (or, for plain files, the chunk) the line came from. */
  readonly offset: number;
  readonly resumed: boolean;
}

/** A part of a file that could not be read: `truncated` (the file ends inside a member or a line), `corrupt` (bytes that are not valid gzip), `too-long` (a line past MAX_LINE). */
export interface LineIssue {
  readonly kind: 'truncated' | 'corrupt' | 'too-long';
  /** Byte offset in the file where the problem starts. */
  readonly offset: number;
  /** The 1-based number of the line the problem concerns (the one after the last whole line read). */
  readonly line: number;
  /** What happened, without the file name. */
  readonly message: string;
}

export interface FileLinesOptions {
  /** Bytes read from disk at a time (default 1 MiB for captures, 16 KiB through a gunzip stream). */
  readonly chunkBytes?: number;
  /** A member header declaring more than this is taken for damage (default 256 MiB). */
  readonly maxMemberBytes?: number;
  /** Read a file that is not gzip as plain text (default false: it is reported as not a capture file). */
  readonly plainText?: boolean;
}

/** Splits decoded text into lines, bounded by MAX_LINE, keeping the text after the last newline in pieces (joined once, not per chunk). */
class LineSplitter {
  private parts: string[] = [];
  private length = 0;
  private skipping = false;

  constructor(private readonly tooLong: () => void) {}

  /** Returns the whole lines `text` completes. */
  push(text: string): string[] {
    const out: string[] = [];
    let from = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      if (this.skipping) this.skipping = false;
      else if (this.length + nl - from > MAX_LINE) this.tooLong();
      else out.push(this.parts.length === 0 ? text.slice(from, nl) : this.parts.join('') + text.slice(from, nl));
      this.parts = [];
      this.length = 0;
      from = nl + 1;
    }
    if (from < text.length && !this.skipping) {
      this.parts.push(from === 0 ? text : text.slice(from));
      this.length += text.length - from;
      if (this.length > MAX_LINE) {
        this.tooLong();
        this.parts = [];
        this.length = 0;
        this.skipping = true;
      }
    }
    return out;
  }

  /** Drops the text after the last newline and returns its length (0 when a line ended the text). */
  drop(): number {
    const n = this.length;
    this.parts = [];
    this.length = 0;
    this.skipping = false;
    return n;
  }
}

/** Returns the offset of the next standard gzip member header (1f 8b 08) at or after `from`, or -1. */
async function nextGzipHeader(file: string, from: number): Promise<number> {
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

async function firstBytes(fh: FileHandle, n: number): Promise<Buffer> {
  const b = Buffer.alloc(n);
  const { bytesRead } = await fh.read(b, 0, n, 0);
  return b.subarray(0, bytesRead);
}

/**
 * Yields the text lines of `file`, telling `onIssue` of every part that could not be read. A bhtrade capture
 * is read member by member (a damaged member is skipped by its declared length or up to the next member
 * header); plain gzip (another tool's, or Binance's) through a gunzip stream that, after damage, goes on from
 * the next member header it finds; plain text when `plainText` is set. Only an unreadable file throws.
 */
export async function* fileLines(file: string, onIssue: (i: LineIssue) => void, o: FileLinesOptions = {}): AsyncGenerator<FileLine> {
  const fh = await open(file, 'r');
  let head: Buffer;
  try {
    head = await firstBytes(fh, MEMBER_HEADER_BYTES);
  } catch (e) {
    await fh.close();
    throw e;
  }
  const gzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  // A gzip file too short for a member header is a capture cut while its first header was written.
  if (gzip && head.length === MEMBER_HEADER_BYTES && !isMemberHeader(head, 0)) {
    await fh.close();
    yield* streamLines(file, true, onIssue, o.chunkBytes ?? 16 * 1024);
    return;
  }
  if (!gzip && o.plainText === true) {
    await fh.close();
    yield* streamLines(file, false, onIssue, o.chunkBytes ?? 16 * 1024);
    return;
  }
  try {
    yield* memberLines(file, fh, onIssue, o);
  } finally {
    await fh.close();
  }
}

/** Reads a bhtrade capture member by member by the lengths their headers declare. */
async function* memberLines(file: string, fh: FileHandle, onIssue: (i: LineIssue) => void, o: FileLinesOptions): AsyncGenerator<FileLine> {
  const chunkBytes = o.chunkBytes ?? 1024 * 1024;
  const maxMemberBytes = o.maxMemberBytes ?? 256 * 1024 * 1024;
  let buf = Buffer.alloc(0);
  let base = 0;
  let eof = false;
  let n = 0;
  let at = 0;
  const report = (kind: LineIssue['kind'], offset: number, message: string): void => onIssue({ kind, offset, line: n + 1, message });
  const splitter = new LineSplitter(() => {
    n += 1;
    report('too-long', at, `a line longer than ${MAX_LINE} characters was skipped`);
  });
  const fill = async (need: number): Promise<void> => {
    while (!eof && buf.length < need) {
      const chunk = Buffer.allocUnsafe(Math.max(chunkBytes, need - buf.length));
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, base + buf.length);
      if (bytesRead === 0) eof = true;
      else buf = buf.length === 0 ? chunk.subarray(0, bytesRead) : Buffer.concat([buf, chunk.subarray(0, bytesRead)]);
    }
  };
  const consume = (k: number): void => {
    buf = buf.subarray(k);
    base += k;
  };
  const lines = function* (text: string): Generator<FileLine> {
    for (const t of splitter.push(text)) {
      n += 1;
      // Members are stepped by their lengths: nothing is read twice.
      yield { line: n, text: t, offset: at, resumed: false };
    }
  };
  /** Skips damaged bytes up to the next member header (or the end of the file). */
  const resync = async (why: string): Promise<void> => {
    const from = base;
    for (;;) {
      const found = findMemberHeader(buf, 1);
      if (found >= 0) {
        consume(found);
        break;
      }
      if (eof) {
        consume(buf.length);
        break;
      }
      // Keep a header's worth of tail: a header may straddle the chunk boundary.
      consume(Math.max(0, buf.length - MEMBER_HEADER_BYTES));
      await fill(buf.length + chunkBytes);
    }
    // The text after the last newline belongs to a line the damage cut; the next member starts a line of its own.
    splitter.drop();
    report('corrupt', from, `${why}; ${base - from} bytes skipped${eof && buf.length === 0 ? ' to the end of the file' : ' to the next member'}`);
  };
  for (;;) {
    await fill(MEMBER_HEADER_BYTES);
    if (buf.length === 0) break;
    if (buf.length < MEMBER_HEADER_BYTES) {
      report('truncated', base, `the file ends inside a gzip member header (${buf.length} bytes): the recorder stopped while writing it`);
      break;
    }
    if (!isMemberHeader(buf, 0)) {
      await resync(base === 0 ? 'not a capture file (no bhtrade gzip member header at its start)' : 'no gzip member header where one should start');
      continue;
    }
    const len = memberLength(buf, 0);
    if (len < MEMBER_HEADER_BYTES + MEMBER_TRAILER_BYTES || len > maxMemberBytes) {
      await resync(`a member header declares an impossible length ${len}`);
      continue;
    }
    await fill(len);
    at = base;
    if (buf.length < len) {
      // The last member was being written when the recorder was killed: read what its deflate data holds.
      let text = '';
      try {
        text = inflateRawSync(buf.subarray(MEMBER_HEADER_BYTES), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
      } catch {
        text = '';
      }
      yield* lines(text);
      const dropped = splitter.drop();
      report('truncated', at, `the last gzip member is cut short (${buf.length} of ${len} bytes): read up to its last whole line${dropped > 0 ? `, a partial line of ${dropped} characters dropped` : ''}`);
      consume(buf.length);
      return;
    }
    const body = buf.subarray(MEMBER_HEADER_BYTES, len - MEMBER_TRAILER_BYTES);
    let data: Buffer;
    try {
      data = inflateRawSync(body);
    } catch (err) {
      await resync(`a member's deflate data is damaged (${(err as Error).message})`);
      continue;
    }
    if (crc32(data) !== buf.readUInt32LE(len - 8) || (data.length >>> 0) !== buf.readUInt32LE(len - 4)) {
      await resync('a member fails its CRC-32 or size check');
      continue;
    }
    consume(len);
    yield* lines(data.toString('utf8'));
  }
  const dropped = splitter.drop();
  if (dropped > 0) report('truncated', base, `a partial last line of ${dropped} characters dropped`);
}

/**
 * Reads plain gzip (or plain text) through a stream. A damaged gzip member is reported and reading goes on
 * from a member header a little before the damage (a recorder flushing member by member loses that member
 * only; the caller drops lines read twice); a cut last member ends the file.
 */
async function* streamLines(file: string, gz: boolean, onIssue: (i: LineIssue) => void, chunkBytes: number): AsyncGenerator<FileLine> {
  let n = 0;
  let start = 0;
  let resumed = false;
  let reported = -1;
  for (;;) {
    const raw = createReadStream(file, { start, highWaterMark: chunkBytes });
    const gunzip = gz ? createGunzip() : undefined;
    const stream: Readable = gunzip ? raw.pipe(gunzip) : raw;
    if (gunzip) raw.on('error', (e) => stream.destroy(e));
    const decoder = new StringDecoder('utf8');
    const at = start;
    const splitter = new LineSplitter(() => {
      n += 1;
      onIssue({ kind: 'too-long', offset: at, line: n, message: `a line longer than ${MAX_LINE} characters was skipped` });
    });
    let damage: (Error & { code?: string }) | undefined;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        for (const text of splitter.push(decoder.write(chunk))) {
          n += 1;
          yield { line: n, text, offset: at, resumed };
          resumed = false;
        }
      }
      const last = decoder.end();
      if (last.length > 0) {
        for (const text of splitter.push(last)) {
          n += 1;
          yield { line: n, text, offset: at, resumed };
          resumed = false;
        }
      }
    } catch (e) {
      damage = e as Error & { code?: string };
    }
    const failedAt = start + (gunzip?.bytesWritten ?? 0);
    const dropped = splitter.drop();
    if (!damage) {
      // A line cut mid-write is reported, not guessed at.
      if (dropped > 0) onIssue({ kind: 'truncated', offset: failedAt, line: n + 1, message: `an incomplete line (${dropped} characters without a newline) was skipped` });
      return;
    }
    const partial = dropped > 0 ? `, a partial line of ${dropped} characters dropped` : '';
    if (!gunzip) {
      onIssue({ kind: 'corrupt', offset: failedAt, line: n + 1, message: `the file could not be read after line ${n} (${damage.message})${partial}` });
      return;
    }
    if (damage.code === 'Z_BUF_ERROR') {
      onIssue({ kind: 'truncated', offset: failedAt, line: n + 1, message: `the file ends inside a gzip member (cut, or damaged after line ${n}): read up to its last whole line${partial}` });
      return;
    }
    // The damage lies in the chunk the engine took last, and output still inside the engine was lost with it:
    // reading restarts at a member header a little before (lines read twice are dropped by the caller), and
    // each retry starts further on, so it ends.
    const next = await nextGzipHeader(file, Math.max(start + 1, failedAt - 4 * chunkBytes));
    const first = failedAt !== reported;
    reported = failedAt;
    if (next < 0) {
      if (first) onIssue({ kind: 'corrupt', offset: failedAt, line: n + 1, message: `gzip data damaged after line ${n} (${damage.message}); nothing after it could be read${partial}` });
      return;
    }
    if (first) onIssue({ kind: 'corrupt', offset: failedAt, line: n + 1, message: `gzip data damaged after line ${n} (${damage.message}); reading on from the gzip member at byte ${next}${partial}` });
    start = next;
    resumed = true;
  }
}

/** Reads capture files back, streaming member by member: yields every whole line, and reports a truncated or damaged part clearly instead of throwing. */
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { constants, createGunzip, inflateRawSync } from 'node:zlib';
import { crc32, findMemberHeader, isMemberHeader, MEMBER_HEADER_BYTES, MEMBER_TRAILER_BYTES, memberLength } from './gzip-member.ts';
import { parseLine, type CaptureRecord } from './line-format.ts';

/** A part of a file that could not be read: `truncated` (the file ends inside a member or a line), `corrupt` (bytes that are not a valid member), `bad-line`. */
export interface CaptureIssue {
  readonly file: string;
  readonly kind: 'truncated' | 'corrupt' | 'bad-line';
  /** Byte offset in the file where the problem starts. */
  readonly offset: number;
  /** Whole lines read from the file before it. */
  readonly afterLines: number;
  readonly message: string;
}

export interface CaptureReaderOptions {
  /** Told of every issue as it is found (also kept in `issues`). */
  readonly onIssue?: (issue: CaptureIssue) => void;
  /** Bytes read from disk at a time (default 1 MiB). */
  readonly chunkBytes?: number;
  /** A member header declaring more than this is taken for damage (default 256 MiB). */
  readonly maxMemberBytes?: number;
}

/** Issues kept in `issues`; further ones are only counted (and still passed to onIssue). */
const MAX_KEPT_ISSUES = 100;

/** Bytes of a plain gzip file given to gunzip at once. */
const PLAIN_PIECE = 1024;

const FILE_RE = /^([A-Za-z0-9_-]+)-(\d{8}T\d{6}Z)-(\d{4})\.cap\.gz$/;

/** Returns the capture files of `dir` (of one stream, e.g. `market`, when given) in the order they were written. */
export async function captureFiles(dir: string, stream?: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((n) => {
    const m = FILE_RE.exec(n);
    return m !== null && (stream === undefined || m[1] === stream);
  });
  // Names hold the UTC opening time and a sequence of fixed width: their order is the writing order within a stream.
  names.sort((a, b) => (FILE_RE.exec(a)![2]! + FILE_RE.exec(a)![3]!).localeCompare(FILE_RE.exec(b)![2]! + FILE_RE.exec(b)![3]!) || a.localeCompare(b));
  return names.map((n) => join(dir, n));
}

/** Reads capture files; iterate `records()`, then look at `issues` (or pass onIssue). */
export class CaptureReader {
  /** What could not be read, in the order found (the first 100). */
  readonly issues: CaptureIssue[] = [];
  /** How many issues were found in all (beyond the ones kept). */
  issueCount = 0;
  /** Whole lines read. */
  lines = 0;
  private readonly chunkBytes: number;
  private readonly maxMemberBytes: number;

  constructor(private readonly files: readonly string[], private readonly o: CaptureReaderOptions = {}) {
    this.chunkBytes = o.chunkBytes ?? 1024 * 1024;
    this.maxMemberBytes = o.maxMemberBytes ?? 256 * 1024 * 1024;
  }

  /** Yields every whole line of the files in order; never throws for damaged content (an unreadable file still throws). */
  async *records(): AsyncGenerator<CaptureRecord> {
    for (const f of this.files) yield* this.readFile(f);
  }

  private issue(i: CaptureIssue): void {
    this.issueCount += 1;
    if (this.issues.length < MAX_KEPT_ISSUES) this.issues.push(i);
    this.o.onIssue?.(i);
  }

  private async *readFile(file: string): AsyncGenerator<CaptureRecord> {
    const fh = await open(file, 'r');
    let buf = Buffer.alloc(0);
    let base = 0;
    let eof = false;
    let fileLines = 0;
    let carry = '';
    const fill = async (need: number): Promise<void> => {
      while (!eof && buf.length < need) {
        const chunk = Buffer.allocUnsafe(Math.max(this.chunkBytes, need - buf.length));
        const { bytesRead } = await fh.read(chunk, 0, chunk.length, base + buf.length);
        if (bytesRead === 0) eof = true;
        else buf = buf.length === 0 ? chunk.subarray(0, bytesRead) : Buffer.concat([buf, chunk.subarray(0, bytesRead)]);
      }
    };
    const consume = (n: number): void => {
      buf = buf.subarray(n);
      base += n;
    };
    const report = (kind: CaptureIssue['kind'], offset: number, message: string): void => {
      this.issue({ file, kind, offset, afterLines: fileLines, message: `${file}: ${message} (at byte ${offset}, after ${fileLines} whole lines)` });
    };
    /** Splits decoded text into lines; yields the parsed ones and reports the others. */
    const lines = function* (this: CaptureReader, text: string, at: number): Generator<CaptureRecord> {
      const parts = (carry + text).split('\n');
      carry = parts.pop()!;
      for (const p of parts) {
        if (p.length === 0) continue;
        const r = parseLine(p);
        if (typeof r === 'string') {
          report('bad-line', at, `line skipped: ${r}`);
          continue;
        }
        fileLines += 1;
        this.lines += 1;
        yield r;
      }
    }.bind(this);
    /**
     * Reads a plain gzip file (no member lengths) through one gunzip stream: every line decoded before a
     * truncation or damage is kept; nothing after damage can be found again.
     */
    const plain = async function* (this: CaptureReader): AsyncGenerator<CaptureRecord> {
      const gz = createGunzip();
      const decoder = new StringDecoder('utf8');
      let out: Buffer[] = [];
      let error: (Error & { code?: string }) | undefined;
      let ended = false;
      gz.on('data', (b: Buffer) => out.push(b));
      gz.on('error', (e: Error) => { error = e; });
      const settled = new Promise<void>((resolve) => {
        gz.once('end', () => { ended = true; resolve(); });
        gz.once('error', () => resolve());
      });
      let pos = 0;
      while (error === undefined && !ended) {
        const chunk = Buffer.allocUnsafe(this.chunkBytes);
        const { bytesRead } = await fh.read(chunk, 0, chunk.length, pos);
        pos += bytesRead;
        if (bytesRead === 0) {
          gz.end();
          await settled;
        } else {
          // Fed a kilobyte at a time: zlib drops the output of the write that meets damage, so little is lost with it.
          // A write whose data fails never calls back: the error settles it.
          for (let at = 0; at < bytesRead && error === undefined; at += PLAIN_PIECE) {
            const piece = chunk.subarray(at, Math.min(bytesRead, at + PLAIN_PIECE));
            await Promise.race([new Promise<void>((resolve) => gz.write(piece, () => resolve())), settled]);
          }
        }
        const text = out.map((b) => decoder.write(b)).join('');
        out = [];
        yield* lines(text, pos);
      }
      if (error !== undefined) {
        const truncated = error.code === 'Z_BUF_ERROR';
        const partial = carry.length > 0 ? `, a partial line of ${carry.length} characters dropped` : '';
        carry = '';
        report(truncated ? 'truncated' : 'corrupt', pos, truncated
          ? `the file ends inside a gzip member (plain gzip): read up to its last whole line${partial}`
          : `gzip data damaged (${error.message}): a plain gzip file cannot be read past damage (and the lines of the last kilobyte before it may be lost), the rest of it is skipped${partial}`);
      }
      gz.destroy();
    }.bind(this);
    /** Skips damaged bytes up to the next member header (or the end of the file). */
    const resync = async (why: string): Promise<void> => {
      const from = base;
      for (;;) {
        const at = findMemberHeader(buf, 1);
        if (at >= 0) {
          consume(at);
          break;
        }
        if (eof) {
          consume(buf.length);
          break;
        }
        // Keep a header's worth of tail: a header may straddle the chunk boundary.
        consume(Math.max(0, buf.length - MEMBER_HEADER_BYTES));
        await fill(buf.length + this.chunkBytes);
      }
      report('corrupt', from, `${why}; ${base - from} bytes skipped${eof && buf.length === 0 ? ' to the end of the file' : ' to the next member'}`);
    };
    try {
      for (;;) {
        await fill(MEMBER_HEADER_BYTES);
        if (buf.length === 0) break;
        if (buf.length < MEMBER_HEADER_BYTES) {
          report('truncated', base, `the file ends inside a gzip member header (${buf.length} bytes): the recorder stopped while writing it`);
          break;
        }
        if (base === 0 && buf[0] === 0x1f && buf[1] === 0x8b && !isMemberHeader(buf, 0)) {
          // A capture compressed again by another tool: plain gzip, read as one stream.
          yield* plain();
          break;
        }
        if (!isMemberHeader(buf, 0)) {
          await resync(base === 0 ? 'not a capture file (no bhtrade gzip member header at its start)' : 'no gzip member header where one should start');
          continue;
        }
        const len = memberLength(buf, 0);
        if (len < MEMBER_HEADER_BYTES + MEMBER_TRAILER_BYTES || len > this.maxMemberBytes) {
          await resync(`a member header declares an impossible length ${len}`);
          continue;
        }
        await fill(len);
        if (buf.length < len) {
          // The last member was being written when the recorder was killed: read what its deflate data holds.
          const at = base;
          let text = '';
          try {
            text = inflateRawSync(buf.subarray(MEMBER_HEADER_BYTES), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
          } catch {
            text = '';
          }
          yield* lines(text, at);
          const dropped = carry.length;
          carry = '';
          report('truncated', at, `the last gzip member is cut short (${buf.length} of ${len} bytes): read up to its last whole line${dropped > 0 ? `, a partial line of ${dropped} characters dropped` : ''}`);
          consume(buf.length);
          break;
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
        const at = base;
        consume(len);
        yield* lines(data.toString('utf8'), at);
      }
      if (carry.length > 0) {
        report('truncated', base, `a partial last line of ${carry.length} characters dropped`);
        carry = '';
      }
    } finally {
      await fh.close();
    }
  }
}

/** Reads capture files back, streaming member by member (through fileLines): yields every whole `<ns> <frame>` or marker line, and reports a truncated or damaged part clearly instead of throwing. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileLines } from './file-lines.ts';
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
  constructor(private readonly files: readonly string[], private readonly o: CaptureReaderOptions = {}) {}

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
    let whole = 0;
    const report = (kind: CaptureIssue['kind'], offset: number, message: string): void => {
      this.issue({ file, kind, offset, afterLines: whole, message: `${file}: ${message} (at byte ${offset}, after ${whole} whole lines)` });
    };
    let last = -1n;
    let catchingUp = false;
    for await (const l of fileLines(file, (i) => report(i.kind === 'too-long' ? 'bad-line' : i.kind, i.offset, i.message), this.o)) {
      if (l.resumed) catchingUp = true;
      if (l.text.length === 0) continue;
      const r = parseLine(l.text);
      if (typeof r === 'string') {
        report('bad-line', l.offset, `line skipped: ${r}`);
        continue;
      }
      if (catchingUp) {
        // Plain gzip read on after damage restarts at a member that may hold lines already read.
        if (r.ns <= last) continue;
        catchingUp = false;
      }
      last = r.ns;
      whole += 1;
      this.lines += 1;
      yield r;
    }
  }
}

/** Reads recorded line files (`<ns> <frame>`, gzip or plain), yielding each whole line and reporting a truncated or corrupt tail instead of failing. */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
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

/** Yields the text lines of a file (gunzipped when it is gzip); a damaged gzip stream ends the lines with a problem in the report. */
export async function* textLines(file: string, report: ConvertReport): AsyncGenerator<{ line: number; text: string }> {
  const gz = await isGzip(file);
  const raw = createReadStream(file);
  // Concatenated members (one per flush) are read on; a cut or damaged member ends in an error after the lines before it.
  const stream: Readable = gz ? raw.pipe(createGunzip()) : raw;
  if (gz) raw.on('error', (e) => stream.destroy(e));
  let rest = '';
  let n = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const text = rest + chunk.toString('utf8');
      let from = 0;
      for (let nl = text.indexOf('\n', from); nl >= 0; nl = text.indexOf('\n', from)) {
        n += 1;
        yield { line: n, text: text.slice(from, nl) };
        from = nl + 1;
      }
      rest = text.slice(from);
    }
  } catch (e) {
    report.problem(file, n + 1, `the file is damaged after line ${n} (${(e as Error).message}); lines up to there were converted`);
  }
  if (rest.length > 0) {
    // A last line without its newline was cut mid-write: it is reported, not guessed at.
    report.problem(file, n + 1, `the last line is incomplete (${rest.length} bytes without a newline) and was skipped`);
  }
}

/** Yields the `<ns> <frame>` lines of a recording; a line that does not have that shape is reported and skipped. */
export async function* recordedLines(file: string, report: ConvertReport): AsyncGenerator<RecordedLine> {
  for await (const { line, text } of textLines(file, report)) {
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
    yield { line, ns, frame: text.slice(sp + 1) };
  }
}

/** Reads recorded line files (`<ns> <frame>`: bhtrade captures, plain gzip or plain text) for the converter, naming every damaged part in its report with file and line. */
import { fileLines } from './capture/file-lines.ts';
import { parseNs } from './ns.ts';
import type { ConvertReport } from './report.ts';

export { MAX_LINE } from './capture/file-lines.ts';

/** One line of a recording: its 1-based number, the receive time and the frame text. */
export interface RecordedLine {
  readonly line: number;
  readonly ns: bigint;
  readonly frame: string;
}

/** Yields the `<ns> <frame>` lines of a recording; a line that does not have that shape is reported and skipped. */
export async function* recordedLines(file: string, report: ConvertReport): AsyncGenerator<RecordedLine> {
  let last = -1n;
  let catchingUp = false;
  for await (const { line, text, resumed } of fileLines(file, (i) => report.problem(file, i.line, i.message), { plainText: true })) {
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

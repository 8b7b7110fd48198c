/** A backtest's log file (log.jsonl in its results folder): every line the run logs, counted by level so the summary can say how many warnings and errors it holds. */
import { mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import pino, { type DestinationStream } from 'pino';

/** pino's numeric levels of the lines worth a count in the summary. */
const WARN = '{"level":40';
const ERROR = '{"level":50';
const FATAL = '{"level":60';

/** A log file, made at its first line (a run that stops on a bad setting leaves no folder behind), with its line counts. */
export class RunLog implements DestinationStream {
  lines = 0;
  warnings = 0;
  errors = 0;
  private file: ReturnType<typeof pino.destination> | undefined;

  constructor(readonly path: string) {}

  write(line: string): void {
    this.lines++;
    if (line.startsWith(WARN)) this.warnings++;
    else if (line.startsWith(ERROR) || line.startsWith(FATAL)) this.errors++;
    this.file ??= this.open();
    this.file.write(line);
  }

  /** Writes what is buffered and closes the file. */
  close(): void {
    this.file?.flushSync();
    this.file?.end();
    this.file = undefined;
  }

  /** The summary's line about the log: where it is and what it holds. */
  describe(): string {
    if (this.lines === 0) return 'log: nothing was logged';
    const n = (x: number, one: string): string => `${x.toLocaleString('en-US')} ${one}${x === 1 ? '' : 's'}`;
    return `log: ${this.path} (${n(this.lines, 'line')}: ${n(this.warnings, 'warning')}, ${n(this.errors, 'error')})`;
  }

  private open(): ReturnType<typeof pino.destination> {
    mkdirSync(dirname(this.path), { recursive: true });
    // Opened here (sonic-boom would open it asynchronously, and could not be closed before that); buffered, so that a strategy logging on every event costs no write call each.
    return pino.destination({ dest: openSync(this.path, 'w'), sync: false, minLength: 8_192 });
  }
}

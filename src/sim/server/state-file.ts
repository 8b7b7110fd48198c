/** The venue's state file: read at start, written atomically (temp file, then rename) on stop and on a period, so a crash never leaves half a state. */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../../core/errors.ts';

/** The file's envelope: a format tag, so a file from something else is refused rather than half-read. */
interface Envelope {
  readonly format: 'bhtrade-venue-state';
  readonly version: 1;
  readonly savedAt: number;
  /** SimVenue.exportState's JSON text. */
  readonly state: string;
  /** The last journal entry the state holds (entries up to it are not replayed again). */
  readonly journalSeq?: number;
}

/** A saved state with when it was saved and the last journal entry it holds. */
export interface SavedState {
  readonly state: string;
  readonly savedAt: number;
  readonly journalSeq: number;
}

const FORMAT = 'bhtrade-venue-state';

/** One state file on disk. */
export class StateFile {
  constructor(readonly path: string) {}

  /** Returns the saved state text, or undefined when there is no file yet; throws ConfigError naming the file when it cannot be read. */
  load(): string | undefined {
    return this.loadSaved()?.state;
  }

  /** Returns the saved state with its time and journal position, or undefined when there is no file yet. */
  loadSaved(): SavedState | undefined {
    if (!existsSync(this.path)) return undefined;
    let env: Partial<Envelope>;
    try {
      env = JSON.parse(readFileSync(this.path, 'utf8')) as Partial<Envelope>;
    } catch (e) {
      throw new ConfigError('server.stateFile', `${this.path} is not a readable venue state (${(e as Error).message}); move it away to start afresh`, { cause: e });
    }
    if (typeof env !== 'object' || env === null || env.format !== FORMAT || env.version !== 1 || typeof env.state !== 'string') {
      throw new ConfigError('server.stateFile', `${this.path} is not a venue state file of version 1; move it away to start afresh`);
    }
    return { state: env.state, savedAt: typeof env.savedAt === 'number' ? env.savedAt : 0, journalSeq: typeof env.journalSeq === 'number' ? env.journalSeq : 0 };
  }

  /** Writes `state` to a temp file beside the target, then renames it over the target (atomic on one file system). */
  save(state: string, savedAt: number, journalSeq = 0): void {
    const env: Envelope = { format: FORMAT, version: 1, savedAt, state, journalSeq };
    const text = JSON.stringify(env);
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, text, { encoding: 'utf8', flush: true });
      renameSync(tmp, this.path);
    } catch (e) {
      try {
        rmSync(tmp, { force: true });
      } catch {
        // The write's own error is the one to report.
      }
      throw e;
    }
  }
}

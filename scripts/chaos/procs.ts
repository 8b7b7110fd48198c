/** Child processes of the chaos run (`bhtrade venue`, `bhtrade run`): logs appended to files, start-up awaited on the venue's printed URL, kills by signal. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/bhtrade.js');

/** One child: its exit, whether the runner asked for it, and its log file. */
export class Child {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** True once the runner sent a signal: an exit before that is a crash. */
  asked = false;
  private readonly out: WriteStream;

  constructor(readonly name: string, args: readonly string[], env: NodeJS.ProcessEnv, readonly logFile: string, onLine?: (line: string) => void) {
    this.out = createWriteStream(logFile, { flags: 'a' });
    const p: ChildProcess = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let partial = '';
    p.stdout!.on('data', (d: Buffer) => {
      this.out.write(d);
      if (onLine === undefined) return;
      partial += d.toString('utf8');
      const lines = partial.split('\n');
      partial = lines.pop()!;
      lines.forEach(onLine);
    });
    p.stderr!.on('data', (d: Buffer) => this.out.write(d));
    this.exited = new Promise((res) => p.once('exit', (code, signal) => { this.out.end(); res({ code, signal }); }));
    this.proc = p;
  }

  private readonly proc: ChildProcess;

  /** Returns why the child ended badly, as lines to print under its exit (see problemLines). */
  why(): string {
    return problemLines(this.logFile);
  }

  /** Sends `signal` and resolves with the exit. */
  async kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.asked = true;
    this.proc.kill(signal);
    return this.exited;
  }
}

/**
 * Returns the end of a child's log as lines to print under its exit: the last `max` lines that are
 * errors or warnings (pino level 40 and up) or not JSON (stderr), each cut to 300 characters; '' when
 * there are none or no log. CI keeps only what the run prints, not the log files.
 */
export function problemLines(logFile: string, max = 5): string {
  let text: string;
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return '';
  }
  const bad = text.split('\n').filter((l) => {
    if (l.trim() === '') return false;
    try {
      return ((JSON.parse(l) as { level?: number }).level ?? 0) >= 40;
    } catch {
      return true;
    }
  });
  return bad.slice(-max).map((l) => `\n    | ${l.length > 300 ? `${l.slice(0, 300)}…` : l}`).join('');
}

/** Returns a free loopback port (the venue binds it again at each restart). */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a !== null ? res(a.port) : rej(new Error('no port'))));
    });
  });
}

/** Starts `bhtrade venue` and resolves once it printed its REST URL; rejects when it exits first or after `hangMs`. */
export async function startVenueChild(config: string, port: number, env: NodeJS.ProcessEnv, logFile: string, hangMs: number): Promise<Child> {
  let ready!: () => void;
  const up = new Promise<void>((r) => (ready = r));
  const child = new Child('venue', ['venue', '--config', config, '--port', String(port)], env, logFile, (line) => {
    if (line.startsWith('http://')) ready();
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    up,
    child.exited.then((e) => { throw new Error(`venue exited at start (${e.code ?? e.signal}); see ${logFile}`); }),
    new Promise((_, rej) => (timer = setTimeout(() => rej(new Error(`venue not up after ${hangMs} ms; see ${logFile}`)), hangMs))),
  ]).finally(() => clearTimeout(timer));
  return child;
}

/** Starts `bhtrade run CONFIG` with the bot's key pair in its environment. */
export function startBotChild(name: string, config: string, env: NodeJS.ProcessEnv, logFile: string): Child {
  return new Child(name, ['run', config], env, logFile);
}

/** The backtest's progress on stderr: one line rewritten in place on a terminal, a plain line every few seconds otherwise. */
import type { WriteStream } from 'node:tty';

/** How often the progress is written, ms of wall time. */
const TTY_EVERY_MS = 200;
const PLAIN_EVERY_MS = 5_000;

/** Reports events, simulated time, events per second and the time left. */
export class Progress {
  private startWall = 0;
  private lastWrite = 0;
  private from = 0;
  private to = 0;
  private shown = false;
  private readonly tty: boolean;

  constructor(
    private readonly out: NodeJS.WritableStream & Partial<Pick<WriteStream, 'isTTY'>>,
    /** Wall clock in ms (tests give their own). */
    private readonly wall: () => number = () => performance.now(),
  ) {
    this.tty = out.isTTY === true;
  }

  /** Starts timing a run over simulated times [from, to), ms. */
  start(from: number, to: number): void {
    this.from = from;
    this.to = to;
    this.startWall = this.wall();
    this.lastWrite = this.startWall;
  }

  /** Notes progress; writes at most every so often (checks the wall clock once per 4096 events). */
  update(events: number, time: number): void {
    if ((events & 4095) !== 0) return;
    const now = this.wall();
    if (now - this.lastWrite < (this.tty ? TTY_EVERY_MS : PLAIN_EVERY_MS)) return;
    this.lastWrite = now;
    const secs = (now - this.startWall) / 1000;
    const rate = secs > 0 ? events / secs : 0;
    const done = this.to > this.from ? Math.min(1, Math.max(0, (time - this.from) / (this.to - this.from))) : 0;
    const eta = done > 0 ? (secs * (1 - done)) / done : undefined;
    const line = `${events.toLocaleString('en-US')} events  sim ${new Date(time).toISOString().replace('.000Z', 'Z')}  ${Math.round(rate).toLocaleString('en-US')} events/s  ${(done * 100).toFixed(1)} %  ETA ${eta === undefined ? '?' : `${eta.toFixed(0)} s`}`;
    if (this.tty) {
      this.out.write(`\r\x1b[2K${line}`);
      this.shown = true;
    } else {
      this.out.write(`${line}\n`);
    }
  }

  /** Ends the live line. */
  end(): void {
    if (this.tty && this.shown) this.out.write('\r\x1b[2K');
    this.shown = false;
  }
}

/**
 * A strategy's PnL of the UTC day, as DAILY_LOSS reads it: what its fills realized since 00:00 UTC
 * (fees included) plus how far its unrealized PnL at the mark moved since then. The unrealized PnL is
 * noted at every UTC midnight, so a position carried into the day counts from that note, one opened
 * today counts in full, and a loss closed today on a position carried over counts only its part since
 * midnight (the fill realizes all of it; the unrealized PnL noted at midnight gives the earlier part back).
 */
import { Decimal } from '../core/fixed.ts';
import type { Clock, TimerHandle } from '../core/clock.ts';
import { DAY_MS } from '../model/index.ts';
import type { StrategyBooks } from './strategy-book.ts';

export class DayPnl {
  /** Each strategy's unrealized PnL at the start of `day` (a strategy without a note had none). */
  private noted = new Map<string, Decimal>();
  private day: number;
  private timer: TimerHandle | undefined;

  constructor(private readonly clock: Clock, private readonly books: StrategyBooks) {
    this.day = Math.floor(clock.now() / DAY_MS);
  }

  /** Notes the unrealized PnL at every UTC midnight from now on. */
  start(): void {
    this.timer ??= this.clock.setTimeout(() => this.midnight(), (this.day + 1) * DAY_MS - this.clock.now());
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Returns `strategyId`'s PnL today, given what its fills realized today (`realized`, exact text). */
  of(strategyId: string, realized: string | undefined, now: number): string {
    // A check past midnight before the timer's turn starts the day itself (within a day, note() does nothing).
    this.note(Math.floor(now / DAY_MS));
    const moved = this.books.unrealized(strategyId).minus(this.noted.get(strategyId) ?? 0);
    return moved.plus(realized ?? '0').toFixed();
  }

  private midnight(): void {
    this.timer = undefined;
    this.note(Math.max(this.day + 1, Math.floor(this.clock.now() / DAY_MS)));
    this.start();
  }

  private note(day: number): void {
    if (day <= this.day) return;
    this.day = day;
    this.noted = new Map(this.books.strategies().map((id) => [id, this.books.unrealized(id)]));
  }
}

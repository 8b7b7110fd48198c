/**
 * Round trips for the trade metrics: a trip runs from flat to flat; its PnL is everything realized
 * while it was open (closing PnL, fees, funding). The accounts feed it as they settle, so the
 * metrics see the same numbers the ledger moved. Trips are kept as running totals, so memory does
 * not grow with the number of trades.
 */
import { Decimal } from '../core/fixed.ts';

/** Totals of closed round trips, what the trade metrics are computed from. */
export interface TradeStats {
  readonly count: number;
  readonly wins: number;
  readonly losses: number;
  /** Sum of winning trips' PnL, and of losing trips' PnL (negative or zero), decimal texts. */
  readonly grossWin: string;
  readonly grossLoss: string;
}

/** Returns the totals of a list of trip PnLs (decimal texts). */
export function tradeStats(pnls: readonly string[]): TradeStats {
  const t = new RoundTrips();
  for (const p of pnls) t.close(new Decimal(p));
  return t.stats();
}

/** Follows the net position and what is realized, and totals each trip when it closes. */
export class RoundTrips {
  private position = new Decimal(0);
  private realized = new Decimal(0);
  private count = 0;
  private wins = 0;
  private losses = 0;
  private grossWin = new Decimal(0);
  private grossLoss = new Decimal(0);

  /** Adds an amount realized while a trip is open or opening (PnL, a fee as a negative amount, funding). */
  realize(amount: Decimal | string): void {
    this.realized = this.realized.plus(amount);
  }

  /** Notes the net position after a fill; the trip ends when it comes back to zero (a fill through zero closes one and opens the next). */
  positionAfter(after: Decimal | string): void {
    const next = new Decimal(after);
    if (!this.position.isZero() && (next.isZero() || next.isNeg() !== this.position.isNeg())) {
      this.close(this.realized);
      this.realized = new Decimal(0);
    }
    this.position = next;
  }

  /** Counts one closed trip of `pnl`. */
  close(pnl: Decimal): void {
    this.count++;
    if (pnl.gt(0)) {
      this.wins++;
      this.grossWin = this.grossWin.plus(pnl);
    } else if (pnl.lt(0)) {
      this.losses++;
      this.grossLoss = this.grossLoss.plus(pnl);
    }
  }

  /** Returns the totals of the trips closed so far. */
  stats(): TradeStats {
    return { count: this.count, wins: this.wins, losses: this.losses, grossWin: this.grossWin.toString(), grossLoss: this.grossLoss.toString() };
  }
}

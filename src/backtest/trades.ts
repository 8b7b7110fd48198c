/**
 * Round trips for the trade metrics: a trip runs from flat to flat; its PnL is everything realized
 * while it was open (closing PnL, fees, funding). The accounts feed it as they settle, so the
 * metrics see the same numbers the ledger moved. Trips are kept as running totals, so memory does
 * not grow with the number of trades.
 */
import { addScaled, compareScaled, Decimal, roundToDecimal, scaledDecimal, scaledOfAny, SCALED_ZERO, scaledText, type Scaled } from '../core/fixed.ts';
import { AMOUNT_SCALE } from '../sim/ledger/amount.ts';

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
  for (const p of pnls) t.close(p);
  return t.stats();
}

/** An amount as the accounts give it: a text, a decimal.js value, or a scaled integer (the ledger's own amounts, with no text made). */
export type TripAmount = Decimal | string | Scaled;

/** Returns an amount exactly, as a scaled integer. */
function exact(a: TripAmount): Scaled {
  if (typeof a === 'string') return scaledOfAny(a, 'amount');
  return Decimal.isDecimal(a) ? scaledOfAny(a.toFixed(), 'amount') : a;
}

/** Follows the net position and what is realized, and totals each trip when it closes (in scaled integers, each sum rounded as decimal.js rounds it: the accounts call it on every fill). */
export class RoundTrips {
  private position: Scaled = SCALED_ZERO;
  private realized: Scaled = SCALED_ZERO;
  private count = 0;
  private wins = 0;
  private losses = 0;
  private grossWin: Scaled = SCALED_ZERO;
  private grossLoss: Scaled = SCALED_ZERO;

  /** Adds an amount realized while a trip is open or opening (PnL, a fee as a negative amount, funding). */
  realize(amount: TripAmount): void {
    this.realized = roundToDecimal(addScaled(this.realized, exact(amount)));
  }

  /**
   * Notes a fill: `flow`, what it realized (cash in less cash out, fees, closing PnL), and `after`, the net
   * position it left. A fill through zero closes the trip with the share of `flow` its closing part
   * makes of its size (held / (held + after), exact to the ledger's 18 decimals) and opens the next trip
   * with the rest: the quantity that opens the next trip is not charged to the one it closed.
   */
  fill(flow: TripAmount, after: TripAmount): void {
    const next = exact(after);
    const held = this.position;
    if (held.units === 0n || next.units === 0n || next.units < 0n === held.units < 0n) {
      this.realize(flow);
      this.positionAfter(next);
      return;
    }
    const whole = scaledDecimal(exact(flow));
    const h = scaledDecimal(held).abs();
    const closing = whole.mul(h).div(h.plus(scaledDecimal(next).abs())).toDecimalPlaces(AMOUNT_SCALE, Decimal.ROUND_DOWN);
    this.realize(closing);
    this.closeTrip(this.realized);
    this.realized = exact(whole.minus(closing));
    this.position = next;
  }

  /** Notes the net position after a change that realized nothing more (a liquidation's loss was realized before); the trip ends when it comes back to zero. */
  positionAfter(after: TripAmount): void {
    const next = exact(after);
    const held = this.position.units;
    if (held !== 0n && (next.units === 0n || next.units < 0n !== held < 0n)) {
      this.closeTrip(this.realized);
      this.realized = SCALED_ZERO;
    }
    this.position = next;
  }

  /** Counts one closed trip of `pnl`. */
  close(pnl: TripAmount): void {
    this.closeTrip(exact(pnl));
  }

  private closeTrip(pnl: Scaled): void {
    this.count++;
    const sign = compareScaled(pnl, SCALED_ZERO);
    if (sign > 0) {
      this.wins++;
      this.grossWin = roundToDecimal(addScaled(this.grossWin, pnl));
    } else if (sign < 0) {
      this.losses++;
      this.grossLoss = roundToDecimal(addScaled(this.grossLoss, pnl));
    }
  }

  /** Returns the totals of the trips closed so far. */
  stats(): TradeStats {
    return { count: this.count, wins: this.wins, losses: this.losses, grossWin: scaledText(this.grossWin), grossLoss: scaledText(this.grossLoss) };
  }
}

/**
 * PnL and average-price formulas of venue-notes.md §6 in exact decimals (decimal.js at 60 digits):
 * spot and linear arithmetic, inverse harmonic. Nothing here rounds; callers format at the edges.
 */
import { Decimal } from '../../core/fixed.ts';
import type { Instrument } from '../../model/index.ts';

export type InstrumentKind = Instrument['kind'];

/** Returns the value of `qty` contracts at `price` in the margin token: inverse qty × m / price, linear (and spot) qty × m × price. */
export function positionValue(kind: InstrumentKind, qty: Decimal, price: Decimal, multiplier: Decimal): Decimal {
  if (kind === 'inverse') return qty.mul(multiplier).div(price);
  return qty.mul(multiplier).mul(price);
}

/**
 * Returns the PnL of a LONG of `qty` opened at `avg` and valued at `price` (negate for a SHORT):
 * inverse qty × m × (1/avg − 1/price) in the margin token; linear and spot qty × m × (price − avg).
 */
export function longPnl(kind: InstrumentKind, qty: Decimal, avg: Decimal, price: Decimal, multiplier: Decimal): Decimal {
  if (qty.isZero()) return new Decimal(0);
  if (kind === 'inverse') return qty.mul(multiplier).mul(new Decimal(1).div(avg).minus(new Decimal(1).div(price)));
  return qty.mul(multiplier).mul(price.minus(avg));
}

/** Returns the PnL of a position of `side`. */
export function sidePnl(kind: InstrumentKind, side: 'LONG' | 'SHORT', qty: Decimal, avg: Decimal, price: Decimal, multiplier: Decimal): Decimal {
  const p = longPnl(kind, qty, avg, price, multiplier);
  return side === 'LONG' ? p : p.neg();
}

/**
 * Returns the average entry after adding `qty` at `price` to `position` at `avg`: harmonic for inverse
 * contracts (so PnL stays linear in 1/price, as the venue keeps it), arithmetic otherwise.
 */
export function averageEntry(kind: InstrumentKind, position: Decimal, avg: Decimal, qty: Decimal, price: Decimal): Decimal {
  if (position.isZero()) return price;
  const total = position.plus(qty);
  if (kind === 'inverse') return total.div(position.div(avg).plus(qty.div(price)));
  return position.mul(avg).plus(qty.mul(price)).div(total);
}

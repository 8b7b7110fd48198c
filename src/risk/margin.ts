/**
 * The margin a contract order needs (venue-api.md new contract order rule 2, venue-notes.md §6):
 * initial margin (value / leverage) plus the fee to open and the fee to close, value being
 * qty × multiplier / price (inverse) or qty × multiplier × price (linear). Exact: nothing is rounded here.
 */
import type { Instrument } from '../model/index.ts';
import { Decimal } from './num.ts';
import { valueOf } from './terms.ts';

export interface OrderMarginNeed {
  readonly value: Decimal;
  /** value / leverage. */
  readonly margin: Decimal;
  /** value × fee rate. */
  readonly openFee: Decimal;
  /** value × fee rate, reserved now so the position can always be closed. */
  readonly closeFee: Decimal;
  /** margin + openFee + closeFee. */
  readonly total: Decimal;
}

/** Returns what opening `qty` contracts at `price` and `leverage` needs in the margin token, at `feeRate` for each fee. */
export function orderMarginNeed(instrument: Instrument, qty: Decimal, price: Decimal, leverage: Decimal, feeRate: Decimal): OrderMarginNeed {
  const value = valueOf(instrument, qty, price);
  const margin = value.div(leverage);
  const openFee = value.mul(feeRate);
  const closeFee = openFee;
  return { value, margin, openFee, closeFee, total: margin.add(openFee).add(closeFee) };
}

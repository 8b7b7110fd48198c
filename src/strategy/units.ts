/** Exact price and quantity helpers for strategies: whole ticks and steps as integers, back to the venue's decimal strings. */
import { fromUnits, toUnits } from '../core/fixed.ts';
import type { Instrument } from '../model/index.ts';

/** Returns how many ticks make `price` (exact; throws when `price` is off the tick grid). */
export function toTicks(inst: Instrument, price: string): number {
  return toUnits(price, inst.tickSize, `${inst.symbol}.price`);
}

/** Returns the price of `ticks` whole ticks as a decimal string. */
export function fromTicks(inst: Instrument, ticks: number): string {
  return fromUnits(ticks, inst.tickSize);
}

/** Returns how many steps make `qty` (exact; throws when `qty` is off the step grid). */
export function toSteps(inst: Instrument, qty: string): number {
  return toUnits(qty, inst.stepSize, `${inst.symbol}.quantity`);
}

/** Returns the quantity of `steps` whole steps as a decimal string. */
export function fromSteps(inst: Instrument, steps: number): string {
  return fromUnits(steps, inst.stepSize);
}

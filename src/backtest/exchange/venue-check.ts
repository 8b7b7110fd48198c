/**
 * The simulated venue's own order validation, run for the backtest exchange: an order in ticks and
 * lots is written back as the venue's request parameters and checked by the engine's planSpotOrder
 * and planContractOrder against the account's ledger and positions, so codes, messages and the
 * order of checks are the venue's. Book-dependent checks are left to the exchange (its book is the
 * recording): a book-priced contract order is checked at the price the exchange gave it.
 */
import { VenueError } from '../../core/errors.ts';
import { planContractOrder, type ContractDesk, type ContractOrderParams } from '../../sim/engine/contract.ts';
import type { EngineCore } from '../../sim/engine/core.ts';
import type { SimInstrument } from '../../sim/engine/instruments.ts';
import { planSpotOrder, type SpotOrderParams } from '../../sim/engine/spot.ts';
import type { AccountOrder } from './account.ts';

/** Returns the venue's refusal code of an error thrown by the engine's planning (-1000 for anything else). */
function codeOf(e: unknown): number {
  return e instanceof VenueError ? e.venueCode : -1000;
}

/** Returns 0 when the venue would take the spot order `x` for `accountId`, else its code. */
export function checkSpot(core: EngineCore, inst: SimInstrument, accountId: string, x: AccountOrder): number {
  const r = x.req;
  const p: SpotOrderParams = {
    symbol: inst.symbol,
    side: r.side,
    type: r.type,
    quantity: r.quoteBudget !== undefined ? inst.quoteText(r.quoteBudget) : inst.qtyText(r.lots),
  };
  if (r.timeInForce !== undefined) p.timeInForce = r.timeInForce;
  if (r.type !== 'MARKET') p.price = inst.priceText(x.limitTicks);
  try {
    planSpotOrder(core, accountId, p);
    return 0;
  } catch (e) {
    return codeOf(e);
  }
}

/** Returns 0 when the venue would take the contract order `x` for `accountId`, else its code. */
export function checkContract(desk: ContractDesk, inst: SimInstrument, accountId: string, x: AccountOrder): number {
  const r = x.req;
  const stop = r.type === 'STOP';
  // A LIMIT arrives priced (the exchange resolved its priceType from the recording); a STOP is priced when it triggers.
  const priceType = stop ? (r.priceType ?? 'INPUT') : 'INPUT';
  const p: ContractOrderParams = { symbol: inst.symbol, side: r.side, orderType: r.type, quantity: inst.qtyText(r.lots), priceType, clientOrderId: r.clientOrderId };
  if (r.leverage !== undefined) p.leverage = r.leverage;
  if (r.timeInForce !== undefined) p.timeInForce = r.timeInForce;
  if (priceType === 'INPUT' && x.limitTicks > 0) p.price = inst.priceText(x.limitTicks);
  if (r.triggerTicks !== undefined && r.triggerTicks > 0) p.triggerPrice = inst.priceText(r.triggerTicks);
  if (r.overTicks !== undefined) p.overPrice = inst.priceText(r.overTicks);
  try {
    planContractOrder(desk, accountId, p);
    return 0;
  } catch (e) {
    return codeOf(e);
  }
}

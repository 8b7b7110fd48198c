/**
 * Order rules of the backtest exchange that need no account: the simulated venue's instrument
 * filters (price and lot bounds, minimum notional as SimInstrument holds them), its enum guards and
 * its refusal codes. The accounts add the venue's own validation (venue-check.ts). What the venue
 * decides from its own book (LIMIT_MAKER crossing, priceType resolution) is decided here from the
 * recorded book with the same codes.
 */
import { isContractOrderType, isContractSide, isContractTimeInForce, isPriceType, isSpotNewOrderType, isSpotSide, isSpotTimeInForce } from '../../model/enums.ts';
import type { SimInstrument } from '../../sim/engine/instruments.ts';
import type { RecordedBook } from './book.ts';
import { bookSideOf, type OrderRequest } from './types.ts';

/** Returns 0 when `r` passes the venue's static rules for `inst`, else the venue's refusal code. */
export function checkOrder(inst: SimInstrument, r: OrderRequest): number {
  const contract = inst.contract !== undefined;
  const tif = r.timeInForce ?? 'GTC';
  if (contract) {
    if (!isContractSide(r.side)) return -1117;
    if (!isContractOrderType(r.type)) return -1116;
    if (!isContractTimeInForce(tif)) return -1115;
    if (r.priceType !== undefined && !isPriceType(r.priceType)) return -1154;
    if (!r.clientOrderId) return -1105;
  } else {
    if (!isSpotSide(r.side)) return -1117;
    if (!isSpotNewOrderType(r.type)) return -1116;
    if (!isSpotTimeInForce(tif)) return -1115;
  }
  if (r.quoteBudget !== undefined) {
    if (contract || r.side !== 'BUY' || r.type !== 'MARKET') return -1130;
    if (!Number.isSafeInteger(r.quoteBudget) || r.quoteBudget <= 0) return -1105;
    return r.quoteBudget < inst.minNotional ? -1140 : 0;
  }
  // The venue takes a spot MARKET BUY by quote amount only.
  if (!contract && r.type === 'MARKET' && r.side === 'BUY') return -1105;
  if (!Number.isSafeInteger(r.lots) || r.lots <= 0) return -1105;
  if (r.lots > inst.maxQty) return -1135;
  if (r.lots < inst.minQty) return -1136;
  if (r.type === 'STOP') {
    const t = r.triggerTicks ?? 0;
    if (!Number.isSafeInteger(t) || t <= 0) return -1105;
    const c = priceBounds(inst, t);
    if (c !== 0) return c;
  }
  const needsPrice = r.type !== 'MARKET' && (r.priceType ?? 'INPUT') === 'INPUT';
  if (needsPrice) {
    if (!Number.isSafeInteger(r.priceTicks) || r.priceTicks <= 0) return -1105;
    const c = priceBounds(inst, r.priceTicks);
    if (c !== 0) return c;
    if (!contract && r.priceTicks * r.lots < inst.minNotional) return -1140;
  }
  if (contract && r.priceType === 'OVER' && !(Number.isSafeInteger(r.overTicks) && r.overTicks! >= 0)) return -1105;
  return 0;
}

function priceBounds(inst: SimInstrument, ticks: number): number {
  if (ticks > inst.maxPrice) return -1132;
  if (ticks < inst.minPrice) return -1133;
  return 0;
}

/**
 * Returns -1158 when a maker-only order would take at arrival, else 0: it crosses the best recorded
 * opposite price, or `ownOpposite`, the best of the strategy's own resting orders on the other side
 * (the venue's book holds them too, and refuses a post-only order that would trade with one).
 */
export function checkMakerOnly(book: RecordedBook, r: OrderRequest, priceTicks: number, ownOpposite?: number): number {
  if (r.type !== 'LIMIT_MAKER' && r.timeInForce !== 'LIMIT_MAKER') return 0;
  const buy = bookSideOf(r.side) === 0;
  const recorded = book.best(buy ? 1 : 0);
  const opp = recorded === undefined ? ownOpposite : ownOpposite === undefined ? recorded : buy ? Math.min(recorded, ownOpposite) : Math.max(recorded, ownOpposite);
  if (opp === undefined) return 0;
  return (buy ? priceTicks >= opp : priceTicks <= opp) ? -1158 : 0;
}

/**
 * Returns the limit price in ticks of an order at arrival: its own price (INPUT), the best opposite
 * (OPPONENT), the best on its side (QUEUE), the best opposite moved by overTicks (OVER), or the last
 * trade ±5% (MARKET), kept within the instrument's bounds as the venue does; -1149 when there is no
 * quote to price it from. A spot MARKET order has no limit (Infinity for a buy, 0 for a sell).
 */
export function limitOf(inst: SimInstrument, book: RecordedBook, r: OrderRequest, last: number | undefined): number {
  const buy = bookSideOf(r.side) === 0;
  if (r.type === 'MARKET') return buy ? Infinity : 0;
  const pt = r.priceType ?? 'INPUT';
  let ticks: number | undefined;
  switch (pt) {
    case 'INPUT':
      return r.priceTicks;
    case 'OPPONENT':
      ticks = book.best(buy ? 1 : 0);
      break;
    case 'QUEUE':
      ticks = book.best(buy ? 0 : 1);
      break;
    case 'OVER': {
      const opp = book.best(buy ? 1 : 0);
      ticks = opp === undefined ? undefined : buy ? opp + (r.overTicks ?? 0) : opp - (r.overTicks ?? 0);
      break;
    }
    case 'MARKET': {
      const ref = last ?? book.best(buy ? 1 : 0);
      ticks = ref === undefined ? undefined : buy ? Math.floor((ref * 105) / 100) : Math.ceil((ref * 95) / 100);
      break;
    }
    default:
      return -1154;
  }
  if (ticks === undefined) return -1149;
  return Math.min(Math.max(ticks, inst.minPrice), inst.maxPrice);
}

/**
 * Account state as a pure fold: a venue snapshot (balances, positions, a trade-id watermark) plus the
 * fills counted after it, applied in trade-id order. Because the fold always runs over the sorted fills
 * above the watermark, the state is the same whatever order or batches the fills arrived in.
 *
 * Invariants:
 * 1. A fill at or below its account's watermark is in the snapshot already and is never applied again.
 * 2. Positions: quantity = snapshot quantity ± fill quantities; average entry by averageEntry (harmonic
 *    for inverse); closing realizes sidePnl at the fill price. Fees are charged to realized PnL.
 * 3. Balances: the total (free + locked) of every asset moves by exactly the fills' amounts (spot: base
 *    ± qty, quote ∓ qty × price, fee asset − fee; contracts: margin token + realized − fee). The moves are
 *    booked on `free`/`total`: how the venue splits free and locked shows at the next snapshot, or sooner
 *    at the next stream balance or position event newer than it (overlay.ts, whose fills after the
 *    event move it by the same amounts, so the total does not depend on which came first).
 * 4. The fold alone gives realized PnL: snapshots and stream overlays replace balances and positions,
 *    never the PnL already realized by counted fills.
 */
import {
  addScaled, addToText, Decimal, divideDecimal, minScaled, mulScaled, negScaled, scaled, SCALED_ZERO, scaledText, subScaled, type Scaled,
} from '../../core/fixed.ts';
import type { AccountKind, ContractBalance, FillReport, Instrument, PositionSide } from '../../model/index.ts';
import { compareIds } from '../reconcile/fills.ts';
import { averageEntry, sidePnl } from './pnl.ts';

export interface Holding {
  readonly free: string;
  readonly locked: string;
}

/** One side of one contract position. */
export interface ContractPosition {
  readonly symbol: string;
  readonly side: PositionSide;
  readonly qty: string;
  /** Exact average entry (the venue shows it rounded down to the tick). */
  readonly avgPrice: string;
  readonly margin: string;
  readonly leverage: string | undefined;
}

/** Spot inventory of one symbol traded since the start: signed base quantity at an average cost. */
export interface SpotInventory {
  readonly symbol: string;
  readonly qty: string;
  readonly avgPrice: string;
}

/** Everything the fold keeps. Values are exact decimal strings. */
export interface AccountState {
  readonly spot: Readonly<Record<string, Holding>>;
  readonly contract: Readonly<Record<string, ContractBalance>>;
  /** By `symbol|side`. */
  readonly positions: Readonly<Record<string, ContractPosition>>;
  /** By symbol. */
  readonly inventory: Readonly<Record<string, SpotInventory>>;
  /** Realized PnL by symbol, in the quote asset (spot) or margin token (contracts). */
  readonly realized: Readonly<Record<string, string>>;
  /** The largest trade id the snapshot includes, per account. */
  readonly watermark: Readonly<Partial<Record<AccountKind, string>>>;
}

/** The realized PnL one fill produced (fees included), for per-strategy and per-day sums. */
export interface FillEffect {
  readonly fill: FillReport;
  readonly realized: string;
  /** The asset `realized` is in. */
  readonly asset: string;
}

export const EMPTY_ACCOUNT: AccountState = { spot: {}, contract: {}, positions: {}, inventory: {}, realized: {}, watermark: {} };

/**
 * Returns `s` with the given parts replaced. Written out, not `{ ...s, spot }`: a state made on every
 * fill and balance by spreading the last one took a new hidden class at each site, so its readers went megamorphic.
 */
export function withParts(s: AccountState, p: Partial<AccountState>): AccountState {
  return {
    spot: p.spot ?? s.spot, contract: p.contract ?? s.contract, positions: p.positions ?? s.positions,
    inventory: p.inventory ?? s.inventory, realized: p.realized ?? s.realized, watermark: p.watermark ?? s.watermark,
  };
}

/** Returns the key of a contract position. */
export function positionKey(symbol: string, side: PositionSide): string {
  return `${symbol}|${side}`;
}

/** Returns true when `fill` is above its account's watermark (not in the snapshot). */
export function aboveWatermark(state: AccountState, fill: FillReport): boolean {
  const w = state.watermark[fill.account];
  return w === undefined || compareIds(fill.tradeId, w) > 0;
}

/** Returns the state after `fills` (any order; applied in trade-id order, those at or below the watermark skipped) and what each did. */
export function foldFills(state: AccountState, fills: readonly FillReport[], instruments: ReadonlyMap<string, Instrument>): { state: AccountState; effects: FillEffect[] } {
  // Each record is copied when a fill first changes it (a spot fill leaves the contract side as it is): this runs on every fill, twice.
  let spot: Record<string, Holding> | undefined;
  let contract: Record<string, ContractBalance> | undefined;
  let positions: Record<string, ContractPosition> | undefined;
  let inventory: Record<string, SpotInventory> | undefined;
  let realized: Record<string, string> | undefined;
  const effects: FillEffect[] = [];
  // One fill (the stream's usual batch) needs no sort and no duplicate check.
  const one = fills.length === 1;
  const fresh = fills.filter((f) => aboveWatermark(state, f));
  const sorted = one ? fresh : fresh.sort((a, b) => (a.account === b.account ? compareIds(a.tradeId, b.tradeId) : a.account < b.account ? -1 : 1));
  const seen = one ? undefined : new Set<string>();
  for (const f of sorted) {
    if (seen !== undefined) {
      const k = `${f.account}:${f.tradeId}`;
      if (seen.has(k)) continue;
      seen.add(k);
    }
    const inst = instruments.get(f.symbol);
    if (inst === undefined) continue;
    const r = inst.kind === 'spot'
      ? spotFill(f, inst, (spot ??= { ...state.spot }), (inventory ??= { ...state.inventory }))
      : contractFill(f, inst, (contract ??= { ...state.contract }), (positions ??= { ...state.positions }));
    realized ??= { ...state.realized };
    const gained = scaledText(r.realized);
    const before = realized[f.symbol];
    realized[f.symbol] = before === undefined ? gained : addToText(before, r.realized, 'realized');
    effects.push({ fill: f, realized: gained, asset: r.asset });
  }
  return { state: withParts(state, { spot, contract, positions, inventory, realized }), effects };
}

function addFree(spot: Record<string, Holding>, asset: string, delta: Scaled): void {
  const h = spot[asset] ?? { free: '0', locked: '0' };
  spot[asset] = { free: addToText(h.free, delta, 'free'), locked: h.locked };
}

function isBuy(f: FillReport): boolean {
  return f.side === 'BUY' || f.side === 'BUY_OPEN' || f.side === 'BUY_CLOSE';
}

/** Returns what a spot fill moves, per asset: base ± qty, quote ∓ qty × price, fee asset − fee. */
export function spotDeltas(f: FillReport, inst: Instrument): [string, Scaled][] {
  const qty = scaled(f.qty, 'qty');
  const quote = mulScaled(qty, scaled(f.price, 'price'));
  const buy = isBuy(f);
  const out: [string, Scaled][] = [[inst.baseAsset, buy ? qty : negScaled(qty)], [inst.quoteAsset, buy ? negScaled(quote) : quote]];
  const fee = scaled(f.fee, 'fee');
  if (fee.units !== 0n) out.push([f.feeAsset, negScaled(fee)]);
  return out;
}

/**
 * Applies a spot fill in exact scaled integers (it runs on every fill, for the portfolio and for the
 * strategy's own book); only a new average cost that does not end within 20 decimals goes to decimal.js.
 */
function spotFill(f: FillReport, inst: Instrument, spot: Record<string, Holding>, inventory: Record<string, SpotInventory>): { realized: Scaled; asset: string } {
  const qty = scaled(f.qty, 'qty');
  const price = scaled(f.price, 'price');
  const buy = isBuy(f);
  const fee = scaled(f.fee, 'fee');
  // spotDeltas's moves, in its order, from the amounts read once here.
  const quote = mulScaled(qty, price);
  addFree(spot, inst.baseAsset, buy ? qty : negScaled(qty));
  addFree(spot, inst.quoteAsset, buy ? negScaled(quote) : quote);
  if (fee.units !== 0n) addFree(spot, f.feeAsset, negScaled(fee));
  // Fees go to realized PnL in the quote asset, valued at the fill price when charged in the base.
  let realized = f.feeAsset === inst.baseAsset ? negScaled(mulScaled(fee, price)) : f.feeAsset === inst.quoteAsset ? negScaled(fee) : SCALED_ZERO;
  const inv = inventory[f.symbol];
  let held = inv === undefined ? SCALED_ZERO : scaled(inv.qty, 'qty');
  let avg = inv === undefined ? '0' : inv.avgPrice;
  // A buy whose fee is taken from the base it receives holds that much less: the fee was charged to realized PnL at the fill
  // price above, and what is held cost the fill price each, so a round trip back to flat realizes exactly the quote it moved.
  const got = buy && f.feeAsset === inst.baseAsset ? subScaled(qty, fee) : qty;
  const signed = buy ? got : negScaled(got);
  if (held.units === 0n || (held.units > 0n) === (signed.units > 0n)) {
    // Arithmetic average cost: (|held| × avg + got × price) / (|held| + got).
    const abs = held.units < 0n ? negScaled(held) : held;
    avg = held.units === 0n ? f.price
      : divideDecimal(scaledText(addScaled(mulScaled(abs, scaled(avg, 'avgPrice')), mulScaled(got, price))), scaledText(addScaled(abs, got)));
    held = addScaled(held, signed);
  } else {
    const long = held.units > 0n;
    const closing = minScaled(long ? held : negScaled(held), got);
    const pnl = mulScaled(closing, subScaled(price, scaled(avg, 'avgPrice')));
    realized = addScaled(realized, long ? pnl : negScaled(pnl));
    held = addScaled(held, signed);
    if (held.units === 0n) avg = '0';
    else if ((held.units > 0n) === (signed.units > 0n)) avg = f.price; // flipped: the rest opened at the fill price
  }
  inventory[f.symbol] = { symbol: f.symbol, qty: scaledText(held), avgPrice: avg };
  return { realized, asset: inst.quoteAsset };
}

/** Returns which position a contract fill opens or closes; BUY/SELL (real stream reports) nets against an open opposite side. */
function contractEffect(f: FillReport, positions: Record<string, ContractPosition>): { side: PositionSide; open: boolean } {
  switch (f.side) {
    case 'BUY_OPEN':
      return { side: 'LONG', open: true };
    case 'SELL_OPEN':
      return { side: 'SHORT', open: true };
    case 'SELL_CLOSE':
      return { side: 'LONG', open: false };
    case 'BUY_CLOSE':
      return { side: 'SHORT', open: false };
    case 'BUY':
      return positions[positionKey(f.symbol, 'SHORT')] ? { side: 'SHORT', open: false } : { side: 'LONG', open: true };
    case 'SELL':
      return positions[positionKey(f.symbol, 'LONG')] ? { side: 'LONG', open: false } : { side: 'SHORT', open: true };
    default: {
      const never: never = f.side;
      throw new RangeError(`fill side: ${String(never)}`);
    }
  }
}

function contractFill(f: FillReport, inst: Instrument, contract: Record<string, ContractBalance>, positions: Record<string, ContractPosition>): { realized: Scaled; asset: string } {
  const token = inst.marginToken ?? inst.quoteAsset;
  const qty = new Decimal(f.qty);
  const price = new Decimal(f.price);
  const m = new Decimal(inst.multiplier);
  const fee = new Decimal(f.fee);
  const { side, open } = contractEffect(f, positions);
  const key = positionKey(f.symbol, side);
  const pos = positions[key];
  let realized = fee.neg();
  if (open) {
    const held = new Decimal(pos?.qty ?? '0');
    const avg = averageEntry(inst.kind, held, new Decimal(pos?.avgPrice ?? '0'), qty, price);
    positions[key] = { symbol: f.symbol, side, qty: held.plus(qty).toFixed(), avgPrice: avg.toFixed(), margin: pos?.margin ?? '0', leverage: pos?.leverage };
  } else if (pos !== undefined) {
    const held = new Decimal(pos.qty);
    const closing = Decimal.min(held, qty);
    realized = realized.plus(sidePnl(inst.kind, side, closing, new Decimal(pos.avgPrice), price, m));
    const left = held.minus(closing);
    if (left.isZero()) delete positions[key];
    else positions[key] = { ...pos, qty: left.toFixed(), margin: new Decimal(pos.margin).mul(left).div(held).toFixed() };
  }
  const b = contract[token] ?? { token, total: '0', availableMargin: '0', positionMargin: '0', orderMargin: '0' };
  contract[token] = { ...b, total: new Decimal(b.total).plus(realized).toFixed(), availableMargin: new Decimal(b.availableMargin).plus(realized).toFixed() };
  return { realized: scaled(realized.toFixed(), 'realized'), asset: token };
}

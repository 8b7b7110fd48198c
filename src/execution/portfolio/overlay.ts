/**
 * Stream overlays: the user stream's balance and position events laid over the folded account state
 * between snapshots, so spot free/locked and the contract margin split follow the venue. Pure.
 *
 * Invariants (checked by test/execution/portfolio.test.ts):
 * 1. An overlay is kept only when its venue time is not before the snapshot's (the time its reads left:
 *    an event of that same millisecond may be newer than the answer, and the answer cannot be newer than
 *    a later event), and only the newest per asset or position key (a tie goes to the later arrival): an
 *    older event never replaces a newer value.
 * 2. A balance overlay at time E holds every fill with a trade time ≤ E; fills counted after it with a
 *    time > E move it exactly as they move the fold (spot: base ± qty, quote ∓ qty × price, fee asset −
 *    fee, on `free`; contracts: realized − fee on total and availableMargin). So the total of an asset is
 *    the same whether a fill was read before or after the event.
 * 3. A contract balance overlay splits as the venue does: total = free + locked, availableMargin = free,
 *    positionMargin = the margins of the token's positions as held, orderMargin = locked − positionMargin.
 * 4. A position event carries no venue time (the published payload has none: its ts is when it arrived), so
 *    it may be older than fills the fold holds (a delayed or reordered frame) or newer than a fill not
 *    counted yet. Quantities and averages therefore come from the fold alone (snapshot + fills); a
 *    position overlay only lends the venue's margin to the folded position it matches, one of the same
 *    quantity, and none while a counted fill of its symbol is later than its ts. Overlays never change
 *    realized PnL: that comes from the fold alone.
 */
import { addScaled, compareDecimal, Decimal, scaled, scaledText } from '../../core/fixed.ts';
import type { AccountKind, ContractBalance, Instrument, PositionSide } from '../../model/index.ts';
import { spotDeltas, withParts, type AccountState, type ContractPosition, type FillEffect, type Holding } from './accounting.ts';

/** A balance as a stream event reported it. */
export interface BalanceOverlay {
  readonly account: AccountKind;
  readonly asset: string;
  readonly free: string;
  readonly locked: string;
  /** Venue time of the event. */
  readonly ts: number;
}

/** A position as a stream event reported it. */
export interface PositionOverlay {
  readonly symbol: string;
  readonly side: PositionSide;
  readonly qty: string;
  readonly avgPrice: string;
  readonly margin: string;
  readonly ts: number;
}

/** Returns the key of a balance overlay. */
export function balanceKey(account: AccountKind, asset: string): string {
  return `${account}:${asset}`;
}

/** Returns true when an event at `ts` is not older than the snapshot (`since`) nor than the overlay held (`held`); ties go to the newcomer. */
export function isNewer(ts: number, since: number, held: { readonly ts: number } | undefined): boolean {
  return ts >= since && (held === undefined || ts >= held.ts);
}

/**
 * Returns the spot holding a spot balance overlay gives: its free moved by the counted fills later than it (invariant 2), its locked as reported.
 * `latest`, the time of the latest of `effects` when the caller knows it, spares the walk over them when none is later than the overlay (the usual case).
 */
export function spotHolding(o: BalanceOverlay, effects: readonly FillEffect[], instruments: ReadonlyMap<string, Instrument>, latest = Infinity): Holding {
  let free = scaled(o.free, 'free');
  if (latest <= o.ts) return { free: scaledText(free), locked: o.locked };
  // Most fills are older than the event: the cheap tests go first.
  for (const { fill: f } of effects) {
    if (f.account !== 'spot' || f.time <= o.ts) continue;
    const inst = instruments.get(f.symbol);
    if (inst === undefined) continue;
    for (const [asset, delta] of spotDeltas(f, inst)) if (asset === o.asset) free = addScaled(free, delta);
  }
  return { free: scaledText(free), locked: o.locked };
}

/** Returns the state with the overlays laid over it (see the invariants above); `effects` are the fills the fold counted and what each did. */
export function applyOverlays(
  state: AccountState,
  effects: readonly FillEffect[],
  balances: ReadonlyMap<string, BalanceOverlay>,
  positionsIn: ReadonlyMap<string, PositionOverlay>,
  instruments: ReadonlyMap<string, Instrument>,
  /** The time of the latest of `effects`, when the caller knows it (see spotHolding). */
  latest = Infinity,
): AccountState {
  if (balances.size === 0 && positionsIn.size === 0) return state;
  const positions: Record<string, ContractPosition> = { ...state.positions };
  for (const [key, o] of positionsIn) {
    if (effects.some(({ fill: f }) => f.account === 'contract' && f.symbol === o.symbol && f.time > o.ts)) continue;
    const mine = positions[key];
    // Another quantity means the event is stale or ahead of the fills counted (see invariant 4): the fold's position stands.
    if (mine === undefined || compareDecimal(mine.qty, o.qty) !== 0) continue;
    positions[key] = { ...mine, margin: o.margin };
  }
  const spot: Record<string, Holding> = { ...state.spot };
  const contract: Record<string, ContractBalance> = { ...state.contract };
  for (const o of balances.values()) {
    if (o.account === 'spot') {
      spot[o.asset] = spotHolding(o, effects, instruments, latest);
      continue;
    }
    let later = new Decimal(0);
    for (const e of effects) if (e.fill.account === 'contract' && e.fill.time > o.ts && e.asset === o.asset) later = later.plus(e.realized);
    const positionMargin = Object.values(positions)
      .filter((p) => (instruments.get(p.symbol)?.marginToken ?? instruments.get(p.symbol)?.quoteAsset) === o.asset)
      .reduce((a, p) => a.plus(p.margin), new Decimal(0));
    const free = new Decimal(o.free).plus(later);
    contract[o.asset] = {
      ...contract[o.asset], token: o.asset, total: free.plus(o.locked).toFixed(), availableMargin: free.toFixed(),
      positionMargin: positionMargin.toFixed(), orderMargin: new Decimal(o.locked).minus(positionMargin).toFixed(),
    };
  }
  return withParts(state, { spot, contract, positions });
}

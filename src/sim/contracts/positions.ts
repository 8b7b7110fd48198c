/**
 * LONG and SHORT positions per (contracts account, symbol): opened and closed by fills, margin
 * held as locked funds of the account's margin token, realized PnL paid through the clearing pool,
 * close orders reserving available quantity, and modifyMargin.
 */
import { divRound, type Amount } from '../ledger/amount.ts';
import { insufficient, invalidParam, venueError } from '../ledger/errors.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { AccountId, PoolPosting, Posting } from '../ledger/types.ts';
import { averagePrice, contractFee, liquidationPrice, orderMargin, pnl, positionValue, riskTier, type OrderMargin, type PositionSide } from './math.ts';
import type { ContractSpec } from './spec.ts';

/** A position's state. `available` is `position` less what open close orders hold. */
export interface Position {
  readonly accountId: AccountId;
  readonly symbol: string;
  readonly side: PositionSide;
  readonly position: Amount;
  readonly available: Amount;
  readonly avgPrice: Amount;
  readonly margin: Amount;
  /** Closing PnL less fees and funding paid, plus funding received, since the position was first opened. */
  readonly realizedPnl: Amount;
  readonly leverage: Amount;
}

type MutablePosition = { -readonly [K in keyof Position]: Position[K] };

/** A fill of an open order (BUY_OPEN → LONG, SELL_OPEN → SHORT). */
export interface OpenFill {
  readonly accountId: AccountId;
  readonly symbol: string;
  readonly side: PositionSide;
  readonly qty: Amount;
  readonly price: Amount;
  readonly leverage: Amount;
  readonly isMaker: boolean;
  /** The part of the order's marginLocked this fill frees (the last fill frees all that is left). */
  readonly release: Amount;
}

/** What an open fill did. */
export interface OpenFillResult {
  readonly fee: Amount;
  /** Margin added to the position. */
  readonly margin: Amount;
  /** Part of `release` returned to free. */
  readonly refunded: Amount;
}

/** A fill of a close order (SELL_CLOSE closes LONG, BUY_CLOSE closes SHORT). */
export interface CloseFill {
  readonly accountId: AccountId;
  readonly symbol: string;
  readonly side: PositionSide;
  readonly qty: Amount;
  readonly price: Amount;
  readonly isMaker: boolean;
  /** True when a close order reserved `qty` with reserveClose (its reservation is consumed). */
  readonly reserved: boolean;
}

/** What a close fill did. */
export interface CloseFillResult {
  /** Realized PnL of the closed contracts before fees (what the clearing pool paid or took). */
  readonly pnl: Amount;
  readonly fee: Amount;
  /** Margin released from the position. */
  readonly margin: Amount;
  /** A loss or fee the account could not pay, taken by the insurance fund (and, beyond it, the clearing pool). */
  readonly uncovered: Amount;
}

/** The contract account of one margin token, as GET /openapi/contract/v1/account shows it. */
export interface ContractBalance {
  readonly total: Amount;
  readonly availableMargin: Amount;
  readonly positionMargin: Amount;
  readonly orderMargin: Amount;
}

/**
 * The positions of all contracts accounts. Every change goes through the ledger in one balanced
 * step; a refused call throws a VenueError and changes nothing.
 */
export class Positions {
  private readonly specs = new Map<string, ContractSpec>();
  private readonly byKey = new Map<string, MutablePosition>();

  constructor(readonly ledger: Ledger, specs: readonly ContractSpec[]) {
    for (const s of specs) this.specs.set(s.symbol, s);
  }

  /** Returns a contract's terms; throws -1130 for 'symbol' when unknown. */
  spec(symbol: string): ContractSpec {
    const s = this.specs.get(symbol);
    if (!s) throw invalidParam('symbol', 'unknown contract', { symbol });
    return s;
  }

  /** Returns every contract's terms. */
  allSpecs(): ContractSpec[] {
    return [...this.specs.values()];
  }

  /** Returns the position, or undefined when none is open. */
  get(accountId: AccountId, symbol: string, side: PositionSide): Position | undefined {
    const p = this.byKey.get(key(accountId, symbol, side));
    return p ? { ...p } : undefined;
  }

  /** Returns an account's open positions (optionally of one symbol), ordered by symbol then LONG before SHORT. */
  list(accountId: AccountId, symbol?: string): Position[] {
    return [...this.byKey.values()]
      .filter((p) => p.accountId === accountId && (symbol === undefined || p.symbol === symbol))
      .sort(comparePositions)
      .map((p) => ({ ...p }));
  }

  /** Returns every open position of a symbol, ordered by account then side. */
  ofSymbol(symbol: string): Position[] {
    return [...this.byKey.values()].filter((p) => p.symbol === symbol).sort(comparePositions).map((p) => ({ ...p }));
  }

  /** Returns what an open order locks (its marginLocked, at the taker rate so either outcome is covered). */
  orderMargin(symbol: string, qty: Amount, price: Amount, leverage: Amount): OrderMargin {
    const spec = this.spec(symbol);
    return orderMargin(spec, qty, price, leverage, spec.takerFee);
  }

  /** Locks an open order's marginLocked in the account's margin token; returns it; throws -1131 when free margin is short. */
  lockOrderMargin(accountId: AccountId, symbol: string, qty: Amount, price: Amount, leverage: Amount): Amount {
    const spec = this.spec(symbol);
    const m = this.orderMargin(symbol, qty, price, leverage);
    this.ledger.lock(accountId, spec.marginToken, m.total);
    return m.total;
  }

  /** Returns an open order's unused margin to free (on cancel or after its last fill). */
  releaseOrderMargin(accountId: AccountId, symbol: string, amount: Amount): void {
    if (amount === 0n) return;
    this.ledger.unlock(accountId, this.spec(symbol).marginToken, amount);
  }

  /** Holds `qty` of a position's available quantity for a close order; throws -1156 when there is not that much available. */
  reserveClose(accountId: AccountId, symbol: string, side: PositionSide, qty: Amount): void {
    this.spec(symbol);
    const p = this.byKey.get(key(accountId, symbol, side));
    if (qty <= 0n) throw invalidParam('quantity', 'must be positive');
    if (!p || p.available < qty) throw venueError(-1156, [], { rule: 'close quantity above the available position', available: (p?.available ?? 0n).toString(), qty: qty.toString() });
    p.available -= qty;
  }

  /** Gives back a close order's unfilled reservation (on cancel). */
  releaseClose(accountId: AccountId, symbol: string, side: PositionSide, qty: Amount): void {
    const p = this.byKey.get(key(accountId, symbol, side));
    if (!p) return;
    p.available += qty;
    if (p.available > p.position) p.available = p.position;
  }

  /**
   * Opens or adds to a position. Fee = value at the fill price × maker or taker rate (rounded up);
   * margin added = value / leverage (rounded up). Both come out of `release`; the rest of it returns
   * to free. When `release` falls short (an order locked at a price where the value was lower),
   * the difference comes from free funds, and when those are short too the position gets less margin.
   */
  openFill(f: OpenFill): OpenFillResult {
    const spec = this.spec(f.symbol);
    if (f.qty <= 0n || f.price <= 0n || f.leverage <= 0n || f.release < 0n) throw invalidParam('fill', 'qty, price and leverage must be positive and release not negative');
    const token = spec.marginToken;
    const fee = contractFee(spec, f.qty, f.price, f.isMaker ? spec.makerFee : spec.takerFee);
    const wanted = divRound(positionValue(spec, f.qty, f.price, 'ceil') * 10n ** 18n, f.leverage, 'ceil');
    const bal = this.ledger.balance(f.accountId, token);
    if (bal.locked < f.release) throw insufficient({ accountId: f.accountId, asset: token, locked: bal.locked.toString(), release: f.release.toString() });
    // Funds the fill may use: the freed order lock first, then free margin.
    const usable = f.release + bal.free;
    if (usable < fee) throw insufficient({ accountId: f.accountId, asset: token, need: fee.toString(), usable: usable.toString() });
    const margin = usable - fee < wanted ? usable - fee : wanted;
    // Locked: − release + margin; free: the rest of (release − fee − margin).
    const legs: Posting[] = [
      { accountId: f.accountId, asset: token, locked: margin - f.release, free: f.release - fee - margin, flow: 'FEE' },
    ];
    const pools: PoolPosting[] = fee > 0n ? [{ pool: 'fees', asset: token, delta: fee }] : [];
    this.ledger.post(legs, pools);
    const k = key(f.accountId, f.symbol, f.side);
    const p = this.byKey.get(k);
    if (p) {
      p.avgPrice = averagePrice(spec, p.position, p.avgPrice, f.qty, f.price);
      p.position += f.qty;
      p.available += f.qty;
      p.margin += margin;
      p.realizedPnl -= fee;
      p.leverage = f.leverage;
    } else {
      this.byKey.set(k, { accountId: f.accountId, symbol: f.symbol, side: f.side, position: f.qty, available: f.qty, avgPrice: f.price, margin, realizedPnl: -fee, leverage: f.leverage });
    }
    return { fee, margin, refunded: f.release - fee - margin > 0n ? f.release - fee - margin : 0n };
  }

  /**
   * Closes `qty` of a position at `price`: releases margin pro rata (all of it on the last
   * contract), pays or takes the realized PnL (rounded toward −∞) through the clearing pool (flow
   * PNL) and charges the close fee (flow FEE). A loss or fee beyond the released margin and free
   * funds comes from the rest of the position's margin, and what is still unpaid from the insurance
   * fund. Throws -1156 when `qty` is above what may be closed.
   */
  closeFill(f: CloseFill): CloseFillResult {
    const spec = this.spec(f.symbol);
    const k = key(f.accountId, f.symbol, f.side);
    const p = this.byKey.get(k);
    if (f.qty <= 0n || f.price <= 0n) throw invalidParam('fill', 'qty and price must be positive');
    const limit = p ? (f.reserved ? p.position - p.available : p.available) : 0n;
    if (!p || f.qty > limit) throw venueError(-1156, [], { rule: 'close quantity above the position', limit: limit.toString(), qty: f.qty.toString() });
    const released = f.qty === p.position ? p.margin : divRound(p.margin * f.qty, p.position, 'floor');
    const gain = pnl(spec, f.side, f.qty, p.avgPrice, f.price, 'floor');
    const fee = contractFee(spec, f.qty, f.price, f.isMaker ? spec.makerFee : spec.takerFee);
    const token = spec.marginToken;
    const bal = this.ledger.balance(f.accountId, token);
    const legs: Posting[] = [{ accountId: f.accountId, asset: token, locked: -released, free: released }];
    const pools: PoolPosting[] = [];
    // Pay in this order: PnL, then fee; each from free (after the released margin and any gain), then from the margin left on the position.
    let free = bal.free + released;
    let marginLeft = p.margin - released;
    let uncovered = 0n;
    const take = (amount: Amount, flow: 'PNL' | 'FEE', pool: 'clearing' | 'fees'): Amount => {
      const fromFree = free < amount ? free : amount;
      const rest = amount - fromFree;
      const fromMargin = marginLeft < rest ? marginLeft : rest;
      free -= fromFree;
      marginLeft -= fromMargin;
      legs.push({ accountId: f.accountId, asset: token, free: -fromFree, locked: -fromMargin, flow });
      pools.push({ pool, asset: token, delta: fromFree + fromMargin });
      return amount - fromFree - fromMargin;
    };
    if (gain >= 0n) {
      legs.push({ accountId: f.accountId, asset: token, free: gain, flow: 'PNL' });
      pools.push({ pool: 'clearing', asset: token, delta: -gain });
      free += gain;
    } else {
      const short = take(-gain, 'PNL', 'clearing');
      uncovered += short;
      this.coverFromInsurance(token, short, pools);
    }
    const feeShort = take(fee, 'FEE', 'fees');
    uncovered += feeShort;
    this.ledger.post(legs, pools);
    const paidFee = fee - feeShort;
    p.position -= f.qty;
    if (f.reserved) {
      // The reservation is consumed; available is unchanged.
    } else {
      p.available -= f.qty;
    }
    p.margin = marginLeft;
    p.realizedPnl += gain - paidFee;
    if (p.position === 0n) this.byKey.delete(k);
    return { pnl: gain, fee: paidFee, margin: released, uncovered };
  }

  /** Adds to `pools` the insurance fund's cover of `short` paid into the clearing pool, capped at the fund (the rest stays a clearing-pool deficit). */
  private coverFromInsurance(token: string, short: Amount, pools: PoolPosting[]): void {
    if (short <= 0n) return;
    const fund = this.ledger.insuranceFund(token);
    const cover = fund < short ? (fund > 0n ? fund : 0n) : short;
    if (cover > 0n) pools.push({ pool: 'insurance', asset: token, delta: -cover }, { pool: 'clearing', asset: token, delta: cover });
  }

  /**
   * Changes a position's margin by `amount` (positive adds from free, negative returns to free)
   * and returns the new margin. Throws -1130 for a zero amount, -1160 when there is no position,
   * -1131 when free funds are short, and -1161 (Reduce margin forbidden) when a removal would leave
   * less than the initial margin of the position's tier at `markPrice`, or at or past the liquidation price.
   */
  modifyMargin(accountId: AccountId, symbol: string, side: PositionSide, amount: Amount, markPrice: Amount): Amount {
    const spec = this.spec(symbol);
    if (amount === 0n) throw invalidParam('amount', 'must not be zero');
    const p = this.byKey.get(key(accountId, symbol, side));
    if (!p) throw venueError(-1160, [], { rule: 'no position', symbol, side });
    const next = p.margin + amount;
    if (amount < 0n) {
      const tier = riskTier(spec, p.position);
      const value = positionValue(spec, p.position, markPrice, 'ceil');
      const initial = divRound(value * tier.initialMargin, 10n ** 18n, 'ceil');
      const flp = liquidationPrice(spec, side, p.position, p.avgPrice, next, tier.maintMargin);
      const liquidates = flp !== undefined && (side === 'LONG' ? markPrice <= flp : markPrice >= flp);
      if (next < initial || liquidates) {
        throw venueError(-1161, [], { margin: p.margin.toString(), after: next.toString(), initialMargin: initial.toString() });
      }
    }
    this.ledger.post([{ accountId, asset: spec.marginToken, free: -amount, locked: amount }]);
    p.margin = next;
    return next;
  }

  /** Returns the contract account of each margin token the account holds, as the account endpoint shows it. */
  contractAccount(accountId: AccountId): Record<string, ContractBalance> {
    const out: Record<string, ContractBalance> = {};
    const held = new Map<string, Amount>();
    for (const p of this.byKey.values()) {
      if (p.accountId !== accountId) continue;
      const t = this.spec(p.symbol).marginToken;
      held.set(t, (held.get(t) ?? 0n) + p.margin);
    }
    for (const b of this.ledger.balances(accountId)) {
      const positionMargin = held.get(b.asset) ?? 0n;
      out[b.asset] = { total: b.free + b.locked, availableMargin: b.free, positionMargin, orderMargin: b.locked - positionMargin };
    }
    return out;
  }

  /** Removes a position and returns it (for liquidation, which settles the money itself). */
  takeOver(accountId: AccountId, symbol: string, side: PositionSide): Position | undefined {
    const k = key(accountId, symbol, side);
    const p = this.byKey.get(k);
    if (!p) return undefined;
    this.byKey.delete(k);
    return { ...p };
  }

  /** Applies a funding or liquidation change to a position's margin and realized PnL (the money moved in the same ledger step). */
  adjust(accountId: AccountId, symbol: string, side: PositionSide, marginDelta: Amount, realizedDelta: Amount): void {
    const p = this.byKey.get(key(accountId, symbol, side));
    if (!p) return;
    p.margin += marginDelta;
    p.realizedPnl += realizedDelta;
  }

  /** Loads positions written by snapshotData (exportState) into an empty book of positions. */
  importData(rows: readonly string[][]): void {
    for (const [accountId, symbol, side, position, available, avgPrice, margin, realizedPnl, leverage] of rows) {
      const s = side === 'SHORT' ? 'SHORT' : 'LONG';
      this.byKey.set(key(accountId!, symbol!, s), {
        accountId: accountId!, symbol: symbol!, side: s, position: BigInt(position!), available: BigInt(available!), avgPrice: BigInt(avgPrice!),
        margin: BigInt(margin!), realizedPnl: BigInt(realizedPnl!), leverage: BigInt(leverage!),
      });
    }
  }

  /** Returns all positions as canonical JSON-ready data. */
  snapshotData(): unknown {
    return [...this.byKey.values()].sort(comparePositions).map((p) => [p.accountId, p.symbol, p.side, p.position.toString(), p.available.toString(), p.avgPrice.toString(), p.margin.toString(), p.realizedPnl.toString(), p.leverage.toString()]);
  }
}

function key(accountId: AccountId, symbol: string, side: PositionSide): string {
  return `${accountId}|${symbol}|${side}`;
}

function comparePositions(a: Position, b: Position): number {
  if (a.accountId !== b.accountId) return a.accountId < b.accountId ? -1 : 1;
  if (a.symbol !== b.symbol) return a.symbol < b.symbol ? -1 : 1;
  return a.side === b.side ? 0 : a.side === 'LONG' ? -1 : 1;
}

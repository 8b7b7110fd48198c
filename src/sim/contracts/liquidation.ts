/**
 * Forced liquidation: when the mark price crosses a position's flp, the venue takes the position
 * over at that mark. The trader loses the position's margin; the loss at the mark goes to the
 * clearing pool (which pays the other side's PnL); what margin is left beyond the loss goes to the
 * insurance fund, and a loss beyond the margin (a mark that gapped past the bankruptcy price) is
 * paid by the insurance fund. Each change of the fund writes an insurance record.
 */
import type { Amount } from '../ledger/amount.ts';
import type { PoolPosting } from '../ledger/types.ts';
import { liquidationPrice, pnl, riskTier, type PositionSide } from './math.ts';
import type { Position, Positions } from './positions.ts';

/** What one liquidation did. */
export interface Liquidation {
  readonly accountId: string;
  readonly symbol: string;
  readonly side: PositionSide;
  readonly qty: Amount;
  /** The mark at which the position was taken over. */
  readonly price: Amount;
  /** The flp that was crossed. */
  readonly flp: Amount;
  /** The position's margin, all of which the trader loses. */
  readonly margin: Amount;
  /** PnL of the position at `price` (negative: a loss). */
  readonly pnl: Amount;
  /** Margin left beyond the loss, paid into the insurance fund. */
  readonly toInsurance: Amount;
  /** Loss beyond the margin, paid by the insurance fund. */
  readonly fromInsurance: Amount;
  /** Loss beyond the margin that the fund could not pay (left as a clearing-pool deficit). */
  readonly uncovered: Amount;
  /** Quantity close orders held on the position: the engine cancels those orders. */
  readonly reservedQty: Amount;
}

/** Returns the flp of a position from its state (undefined when it cannot be liquidated). */
export function flpOf(positions: Positions, p: Position): Amount | undefined {
  const spec = positions.spec(p.symbol);
  return liquidationPrice(spec, p.side, p.position, p.avgPrice, p.margin, riskTier(spec, p.position).maintMargin);
}

/** Returns true when `markPrice` has reached or crossed the flp: at or below for a long, at or above for a short. */
export function crossed(side: PositionSide, markPrice: Amount, flp: Amount | undefined): boolean {
  if (flp === undefined) return false;
  return side === 'LONG' ? markPrice <= flp : markPrice >= flp;
}

/** Liquidates every position of `symbol` whose flp `markPrice` crossed; returns what was done, in account then side order. */
export function liquidateCrossed(positions: Positions, symbol: string, markPrice: Amount): Liquidation[] {
  const out: Liquidation[] = [];
  for (const p of positions.ofSymbol(symbol)) {
    const flp = flpOf(positions, p);
    if (flp !== undefined && crossed(p.side, markPrice, flp)) out.push(liquidate(positions, p, markPrice, flp));
  }
  return out;
}

/** Liquidates one position at `price` in one balanced ledger step (flow LIQUIDATION for the lost margin). */
export function liquidate(positions: Positions, p: Position, price: Amount, flp: Amount): Liquidation {
  const spec = positions.spec(p.symbol);
  const token = spec.marginToken;
  const ledger = positions.ledger;
  const gain = pnl(spec, p.side, p.position, p.avgPrice, price, 'floor');
  const equity = p.margin + gain;
  const pools: PoolPosting[] = [];
  let toInsurance = 0n;
  let fromInsurance = 0n;
  let uncovered = 0n;
  if (equity >= 0n) {
    toInsurance = equity;
    pools.push({ pool: 'clearing', asset: token, delta: -gain }, { pool: 'insurance', asset: token, delta: equity });
  } else {
    const deficit = -equity;
    const fund = ledger.insuranceFund(token);
    fromInsurance = fund >= deficit ? deficit : fund > 0n ? fund : 0n;
    uncovered = deficit - fromInsurance;
    pools.push({ pool: 'clearing', asset: token, delta: p.margin + fromInsurance }, { pool: 'insurance', asset: token, delta: -fromInsurance });
  }
  ledger.post([{ accountId: p.accountId, asset: token, locked: -p.margin, flow: 'LIQUIDATION' }], pools);
  positions.takeOver(p.accountId, p.symbol, p.side);
  return {
    accountId: p.accountId,
    symbol: p.symbol,
    side: p.side,
    qty: p.position,
    price,
    flp,
    margin: p.margin,
    pnl: gain,
    toInsurance,
    fromInsurance,
    uncovered,
    reservedQty: p.position - p.available,
  };
}

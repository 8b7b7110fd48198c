/**
 * Positions the venue closed without an order of the account's (a liquidation, an auto-deleverage):
 * after a snapshot, a contract side the venue holds less of than the fills made. The strategies whose
 * books held that side close it too, in proportion to what each held, each charged its share of the
 * position's margin, which is what the account lost. Without this a strategy would go on seeing, and
 * trying to close, a position that is gone.
 */
import { Decimal } from '../core/fixed.ts';
import type { Instrument, PositionSide } from '../model/index.ts';
import type { ContractPosition } from './portfolio/accounting.ts';

/** One strategy's part of a position closed outside: quantity (on the step) and margin lost (exact). */
export interface OutsideClose {
  readonly strategyId: string;
  readonly symbol: string;
  readonly side: PositionSide;
  readonly qty: string;
  readonly loss: string;
}

/**
 * Returns what each strategy's book must close: `before` holds the positions the fills made (the
 * portfolio just before the snapshot), `after` the venue's; `heldOn` what each strategy's book holds
 * on a side; `marginOf` the margin of a position. A side that shrank loses at most what the books hold, split pro rata on the step (what
 * rounding leaves goes to the largest holder), the margin in proportion.
 */
export function outsideCloses(
  before: readonly ContractPosition[],
  after: readonly ContractPosition[],
  heldOn: (symbol: string, side: PositionSide) => ReadonlyMap<string, string>,
  instruments: ReadonlyMap<string, Instrument>,
  /** The margin the venue held for a position (the fills alone do not say): the last stream event's while it was open. */
  marginOf: (p: ContractPosition) => string = (p) => p.margin,
): OutsideClose[] {
  const out: OutsideClose[] = [];
  for (const p of before) {
    const was = new Decimal(p.qty);
    const left = new Decimal(after.find((q) => q.symbol === p.symbol && q.side === p.side)?.qty ?? '0');
    if (was.isZero() || !left.lt(was)) continue;
    const held = [...heldOn(p.symbol, p.side)].sort((a, b) => new Decimal(b[1]).cmp(a[1]) || (a[0] < b[0] ? -1 : 1));
    const total = held.reduce((a, [, q]) => a.plus(q), new Decimal(0));
    const gone = Decimal.min(was.minus(left), total);
    if (!gone.gt(0)) continue;
    const step = new Decimal(instruments.get(p.symbol)?.stepSize ?? '1');
    const shares = held.map(([id, q]) => ({ id, qty: gone.mul(q).div(total).div(step).floor().mul(step) }));
    shares[0]!.qty = shares[0]!.qty.plus(gone.minus(shares.reduce((a, x) => a.plus(x.qty), new Decimal(0))));
    const lost = new Decimal(marginOf(p)).mul(gone).div(was);
    for (const x of shares) {
      if (x.qty.isZero()) continue;
      out.push({ strategyId: x.id, symbol: p.symbol, side: p.side, qty: x.qty.toFixed(), loss: lost.mul(x.qty).div(gone).toFixed() });
    }
  }
  return out;
}

/**
 * The account's contract positions as a strategy's handler must see them. A fill reaches the
 * strategies first and the account portfolio right after their handlers return, so an intent sent
 * from the handler of a fill (a close on FILLED) would be judged against positions without it.
 */
import { Decimal } from '../core/fixed.ts';
import type { OrderFill, PositionSide } from '../model/index.ts';
import type { PortfolioSnapshot, SnapshotPosition } from '../risk/index.ts';
import { positionKey } from './portfolio/accounting.ts';

/** Returns `s` with its contract positions moved by `fills` (told to strategies, not counted by the portfolio yet); `s` itself when there are none. */
export function withUnapplied(s: PortfolioSnapshot, fills: readonly OrderFill[]): PortfolioSnapshot {
  if (!fills.some((f) => f.account === 'contract')) return s;
  const positions = new Map<string, SnapshotPosition>(s.positions.map((p) => [positionKey(p.symbol, p.side), p]));
  for (const f of fills) {
    if (f.account !== 'contract') continue;
    const side: PositionSide = f.side === 'BUY_OPEN' || f.side === 'SELL_CLOSE' ? 'LONG' : 'SHORT';
    const key = positionKey(f.symbol, side);
    const held = positions.get(key);
    const moved = new Decimal(held?.quantity ?? '0')[f.side.endsWith('_OPEN') ? 'plus' : 'minus'](f.qty);
    positions.set(key, held === undefined
      ? { symbol: f.symbol, side, quantity: moved.toFixed(), avgPrice: f.price, margin: '0' }
      : { symbol: held.symbol, side: held.side, quantity: moved.toFixed(), avgPrice: held.avgPrice, margin: held.margin, ...(held.leverage === undefined ? {} : { leverage: held.leverage }) });
  }
  return { ...s, positions: [...positions.values()].filter((p) => new Decimal(p.quantity).gt(0)) };
}

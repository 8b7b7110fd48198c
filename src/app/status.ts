/** The periodic one-line status of a run: per strategy its state, open orders, position and PnL (gross, fees, net). */
import { Decimal } from '../core/fixed.ts';
import type { StrategyState } from '../strategy/index.ts';

/** What the status line says of one strategy. */
export interface StrategyLine {
  readonly id: string;
  readonly state: StrategyState;
  /** Working orders the venue acknowledged (an order whose outcome is still unknown is not counted). */
  readonly openOrders: number;
  /** Net position per symbol from the strategy's own fills, zero when flat: spot base held (in the base asset), or contracts (+long −short). */
  readonly positions: readonly { readonly symbol: string; readonly qty: string; readonly unit: string }[];
  /** PnL in the strategy's accounting asset: gross (realized before fees + unrealized), fees, and net = gross − fees + funding. */
  readonly pnl: AssetPnl;
  /** The PnL of its symbols counted in an asset with no price to the accounting asset (e.g. a USDT swap beside an inverse contract), one per asset. */
  readonly otherPnl: readonly AssetPnl[];
}

/** PnL counted in one asset. */
export interface AssetPnl {
  readonly asset: string;
  readonly gross: string;
  readonly fees: string;
  readonly net: string;
}

/** Returns `status mm[running] orders=2 pos=+0.003 BTC gross=+1.30 fees=0.05 net=+1.25 USDT | tf[failed] …`, one line for the whole run (a strategy's PnL in another asset follows its first after a comma). */
export function formatStatus(lines: readonly StrategyLine[]): string {
  if (lines.length === 0) return 'status: no strategies';
  return `status ${lines.map(formatOne).join(' | ')}`;
}

function formatOne(s: StrategyLine): string {
  // One symbol reads `pos=+0.003 BTC`; several name theirs: `pos=BTCUSDT:+0.003 BTC,BTC-PERP-REV:-5 contracts`.
  const named = s.positions.length > 1;
  const pos = s.positions.length === 0 ? '0' : s.positions.map((p) => `${named ? `${p.symbol}:` : ''}${signed(p.qty)} ${p.unit}`).join(',');
  const pnl = [s.pnl, ...s.otherPnl].map(({ asset, gross, fees, net }) => `gross=${signed(gross)} fees=${fees} net=${signed(net)} ${asset}`).join(', ');
  return `${s.id}[${s.state}] orders=${s.openOrders} pos=${pos} ${pnl}`;
}

/** Returns a decimal with its sign: `+1.5`, `-2`, `0`. */
export function signed(v: string): string {
  return v.startsWith('-') || new Decimal(v).isZero() ? v : `+${v}`;
}

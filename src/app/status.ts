/** The periodic one-line status of a run: per strategy its state, open orders, position and PnL. */
import { Decimal } from '../core/fixed.ts';
import type { StrategyState } from '../strategy/index.ts';

/** What the status line says of one strategy. */
export interface StrategyLine {
  readonly id: string;
  readonly state: StrategyState;
  readonly openOrders: number;
  /** Net position per symbol, zero when flat: spot base bought less sold since the start (inventory, in the base asset), or contracts (+long −short). */
  readonly positions: readonly { readonly symbol: string; readonly qty: string; readonly unit: string }[];
  /** Realized plus unrealized PnL per accounting asset. */
  readonly pnl: Readonly<Record<string, string>>;
}

/** Returns `status mm[running] orders=2 pos=+0.003 BTC pnl=+1.25 USDT | tf[failed] …`, one line for the whole run. */
export function formatStatus(lines: readonly StrategyLine[]): string {
  if (lines.length === 0) return 'status: no strategies';
  return `status ${lines.map(formatOne).join(' | ')}`;
}

function formatOne(s: StrategyLine): string {
  // One symbol reads `pos=+0.003 BTC`; several name theirs: `pos=BTCUSDT:+0.003 BTC,BTC-PERP-REV:-5 contracts`.
  const named = s.positions.length > 1;
  const pos = s.positions.length === 0 ? '0' : s.positions.map((p) => `${named ? `${p.symbol}:` : ''}${signed(p.qty)} ${p.unit}`).join(',');
  const pnlParts = Object.entries(s.pnl).filter(([, v]) => !new Decimal(v).isZero());
  // Display only: eight decimals are enough to read (inverse PnL divides and runs long).
  const pnl = pnlParts.length === 0 ? '0' : pnlParts.map(([asset, v]) => `${signed(new Decimal(v).toDecimalPlaces(8).toFixed())} ${asset}`).join(' ');
  return `${s.id}[${s.state}] orders=${s.openOrders} pos=${pos} pnl=${pnl}`;
}

/** Returns a decimal with its sign: `+1.5`, `-2`, `0`. */
export function signed(v: string): string {
  return v.startsWith('-') || new Decimal(v).isZero() ? v : `+${v}`;
}

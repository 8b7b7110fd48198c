/** A sweep's ranking: combinations ordered by one metric, printed as a table and written as sweep.csv. */
import { Decimal } from '../../core/fixed.ts';
import { ConfigError } from '../../core/errors.ts';
import type { Metrics } from '../../backtest/index.ts';
import { toCsv } from '../../backtest/report/csv.ts';
import { metricRows } from '../../backtest/report/html.ts';
import type { ComboOutcome } from './task.ts';
import type { Combination } from './spec.ts';

/** The metrics a sweep can rank by, whether more is better, and the row of the printed summary that shows it. */
export const RANK_METRICS = {
  netPnl: { better: 'high', label: 'Net PnL' },
  return: { better: 'high', label: 'Return' },
  cagr: { better: 'high', label: 'CAGR' },
  sharpe: { better: 'high', label: 'Sharpe (daily, 365)' },
  sortino: { better: 'high', label: 'Sortino (daily, 365)' },
  calmar: { better: 'high', label: 'Calmar' },
  maxDrawdown: { better: 'low', label: 'Max drawdown' },
  maxDrawdownDurationMs: { better: 'low', label: 'Max drawdown duration' },
  trades: { better: 'high', label: 'Trades' },
  winRate: { better: 'high', label: 'Win rate' },
  profitFactor: { better: 'high', label: 'Profit factor' },
  expectancy: { better: 'high', label: 'Expectancy' },
  exposure: { better: 'high', label: 'Exposure time' },
  turnover: { better: 'high', label: 'Turnover' },
  fees: { better: 'low', label: 'Fees' },
  fills: { better: 'high', label: 'Fills (maker / taker)' },
} as const satisfies Partial<Record<keyof Metrics, { better: 'high' | 'low'; label: string }>>;

export type RankMetric = keyof typeof RANK_METRICS;

/** Net PnL: defined for every run, where Sharpe needs daily returns of at least 2 days. */
export const DEFAULT_RANK: RankMetric = 'netPnl';

/** Returns the metric `--rank` names; throws ConfigError listing the choices. */
export function rankMetric(name: string): RankMetric {
  if (Object.hasOwn(RANK_METRICS, name)) return name as RankMetric;
  throw new ConfigError('--rank', `unknown metric ${JSON.stringify(name)} (one of ${Object.keys(RANK_METRICS).join(', ')})`);
}

/** A combination with its outcome, and its place in the ranking (failed ones have none). */
export interface SweepRow {
  readonly combo: Combination;
  readonly dir: string;
  readonly outcome: ComboOutcome;
  readonly rank?: number;
}

/** Returns the rows best first by `metric` (a metric that cannot be computed last; ties in combination order), failed combinations after them. */
export function rankRows(rows: readonly Omit<SweepRow, 'rank'>[], metric: RankMetric): SweepRow[] {
  const sign = RANK_METRICS[metric].better === 'high' ? -1 : 1;
  const ok = rows.filter((r) => r.outcome.ok);
  const ranked = ok.map((r) => ({ r, v: r.outcome.ok ? r.outcome.metrics[metric] : null })).sort((a, b) => {
    if (a.v === null || b.v === null) return a.v === b.v ? a.r.outcome.index - b.r.outcome.index : a.v === null ? 1 : -1;
    const c = new Decimal(a.v).cmp(new Decimal(b.v));
    return c !== 0 ? sign * c : a.r.outcome.index - b.r.outcome.index;
  });
  return [...ranked.map(({ r }, i) => ({ ...r, rank: i + 1 })), ...rows.filter((r) => !r.outcome.ok)];
}

const SHOWN = ['Net PnL', 'Return', 'Max drawdown', 'Trades', 'Fills (maker / taker)', 'Orders / cancels'] as const;

/** Returns the ranking as an aligned text table (one line per combination, failed ones with their error). */
export function sweepTable(rows: readonly SweepRow[], metric: RankMetric): string {
  const paths = rows[0]?.combo.map((c) => c.path) ?? [];
  const label = RANK_METRICS[metric].label;
  const labels: string[] = [label, ...SHOWN.filter((l) => l !== label)];
  const head = ['rank', ...paths, ...labels.map((l) => (l === label ? `${l} ▼` : l)), 'results'];
  const lines = rows.map((r) => {
    const values = r.combo.map((c) => c.value);
    if (!r.outcome.ok) return [r.rank === undefined ? '-' : String(r.rank), ...values, `failed: ${r.outcome.error}`];
    const cells = new Map(metricRows(r.outcome.metrics, r.outcome.moneyDecimals, r.outcome.currency));
    return [String(r.rank), ...values, ...labels.map((l) => cells.get(l) ?? ''), r.dir];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => (i < l.length - 1 || l.length === head.length ? (l[i] ?? '').length : 0))));
  const fmt = (cells: readonly string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [fmt(head), ...lines.map(fmt)].join('\n');
}

/** Returns sweep.csv: one line per combination (rank, swept values, status, error, every metric, result hash, folder). */
export function sweepCsv(rows: readonly SweepRow[]): string {
  const paths = rows[0]?.combo.map((c) => c.path) ?? [];
  const first = rows.find((r) => r.outcome.ok)?.outcome;
  const metricKeys = first?.ok === true ? Object.keys(first.metrics) : [];
  const columns = ['rank', ...paths, 'status', 'error', ...metricKeys, 'resultHash', 'dir'];
  return toCsv(columns, rows.map((r) => {
    const row: Record<string, string | number | boolean> = { rank: r.rank ?? '', status: r.outcome.ok ? 'ok' : 'failed', error: r.outcome.ok ? '' : r.outcome.error, dir: r.dir };
    r.combo.forEach((c) => { row[c.path] = c.value; });
    const m = r.outcome.ok ? (r.outcome.metrics as unknown as Record<string, string | number | null>) : {};
    for (const k of metricKeys) row[k] = m[k] ?? '';
    row['resultHash'] = r.outcome.ok ? r.outcome.resultHash : '';
    return row;
  }));
}

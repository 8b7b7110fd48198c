/**
 * The texts of a run's results: orders.csv, fills.csv, equity.csv and summary.json. They hold no
 * wall-clock time and keys come in a fixed order, so the same run gives byte-identical files; the
 * result hash covers the three tables and the metrics.
 */
import { Decimal } from '../../core/fixed.ts';
import { toCsv } from './csv.ts';
import { sha256, stableJson } from './hash.ts';
import type { BacktestResults } from './results.ts';
import { tableTexts } from './rows.ts';

/** Version of the summary.json layout. */
export const SUMMARY_VERSION = 1;

const EQUITY_COLUMNS = ['time', 'equity'] as const;

/** The files of a run's results, by file name. */
export interface ResultFiles {
  readonly 'orders.csv': string;
  readonly 'fills.csv': string;
  readonly 'equity.csv': string;
  readonly 'summary.json': string;
}

/** Returns the results' files (all but report.html). */
export function resultFiles(r: BacktestResults): ResultFiles {
  const { orders, fills } = tableTexts(r);
  // Equity is kept exact for the metrics; the file shows it at the currency's precision (a contract's PnL at its average entry carries 18 decimals).
  const equity = toCsv(EQUITY_COLUMNS, r.equity.map((e) => ({ time: e.time, equity: new Decimal(e.equity).toDecimalPlaces(r.moneyDecimals).toFixed() })));
  const metricsJson = stableJson(r.metrics);
  const resultHash = sha256(orders, fills, equity, metricsJson);
  // Key order is fixed by this literal; the metrics' keys are sorted.
  const summary = {
    version: SUMMARY_VERSION,
    name: r.name,
    symbol: r.symbol,
    currency: r.currency,
    // The net position the run left open (its unrealized PnL at the last mark is in the metrics' net PnL).
    endPosition: r.positions.at(-1)?.position ?? '0',
    configHash: r.configHash,
    dataHash: r.dataHash,
    seed: r.seed,
    resultHash,
    metrics: JSON.parse(metricsJson) as unknown,
  };
  return { 'orders.csv': orders, 'fills.csv': fills, 'equity.csv': equity, 'summary.json': `${JSON.stringify(summary, null, 2)}\n` };
}

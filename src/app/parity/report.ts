/** A parity check's report: the side-by-side table printed, and parity.json, matched.csv, unmatched.csv and orders.csv in its folder. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decimal } from '../../core/fixed.ts';
import { toCsv } from '../../backtest/report/csv.ts';
import type { ParityOrder, RunMoney } from './compare.ts';
import type { ParityResult } from './run.ts';

/** `1 trade`, `2 trades`: a count with its noun. */
const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
const pct = (x: number | undefined): string => (x === undefined ? 'n/a' : `${x.toFixed(2)}%`);

/** Returns the printed report, one line per entry. */
export function parityLines(p: ParityResult, decimals: number): string[] {
  const c = p.comparison;
  const money = (v: string): string => new Decimal(v).toFixed(decimals);
  const row = (name: string, l: string | number, b: string | number): string => `  ${name.padEnd(22)}${String(l).padStart(18)}${String(b).padStart(18)}`;
  const side = (f: (m: RunMoney) => string | number): [string | number, string | number] => [f(c.live), f(c.backtest)];
  const sameOrder = c.matched.filter((m) => m.sameOrder).length;
  const samePrice = c.matched.filter((m) => new Decimal(m.priceDiff).isZero()).length;
  return [
    `parity ${p.symbol}: ${p.durationMs / 1000} s live on the embedded venue vs its backtest on the recording`,
    `  recorded latency: ${count(p.latency.trips, 'round trip')}, mean entry ${p.latency.meanEntryMs.toFixed(1)} ms, mean response ${p.latency.meanResponseMs.toFixed(1)} ms`,
    `  own orders out of the recorded book: ${count(p.ownRemoval.levelsAdjusted, 'level')} lowered (${p.ownRemoval.levelsClamped} clamped at zero), ${p.ownRemoval.removedQty} ${p.units.position} in all; ${count(p.ownRemoval.tradesRemoved, 'own taker trade')} out of the recorded trades`,
    `  receive times: ${count(p.ownRemoval.held, 'message')} held past a late strategy tick, ${p.ownRemoval.before} read just before one, ${p.ownRemoval.early} stamped before they were sent; ${count(p.ownRemoval.queueEvidence, 'trade')} replayed after the diff that showed the others ahead of the quote gone`,
    row('', 'live', 'backtest'),
    row('orders placed', ...side((m) => m.orders)),
    row('fills', ...side((m) => m.fills)),
    row('  maker fills', ...side((m) => m.makerFills)),
    row(`volume (${p.units.volume})`, ...side((m) => (p.units.volumeDecimals === undefined ? money(m.volume) : new Decimal(m.volume).toFixed(p.units.volumeDecimals)))),
    row(`fees (${p.quote})`, ...side((m) => money(m.fees))),
    row(`position (${p.units.position})`, ...side((m) => m.position)),
    row(`PnL (${p.quote})`, ...side((m) => money(m.pnl))),
    `  marked at ${p.mark}; PnL difference ${money(c.pnlDiff)} ${p.quote} (${pct(c.pnlDiffPct)} of live; ${c.pnlDiffBp === undefined ? 'n/a' : c.pnlDiffBp.toFixed(3)} bp of the live value traded)`,
    `  fills matched: ${c.matched.length} of ${c.live.fills} live (${pct(c.matchedPct)}); ${sameOrder} from the same order of the sequence, ${c.matched.length - sameOrder} shifted by an order`,
    `  matched fill prices: ${samePrice} equal, largest difference ${c.maxPriceDiff}, mean |difference| ${c.meanAbsPriceDiff}`,
    `  unmatched fills: ${c.unmatched.length} (live ${c.unmatched.filter((u) => u.run === 'live').length}, backtest ${c.unmatched.filter((u) => u.run === 'backtest').length}); causes: queue ${c.causes.queue}, latency ${c.causes.latency}, own impact ${c.causes['own-impact']}, diverged ${c.causes.diverged}`,
    ...c.unmatched.slice(0, 10).map((u) => `    ${new Date(u.fill.time).toISOString()} ${u.run} ${u.fill.side} ${u.fill.qty}@${u.fill.price}: ${u.cause}: ${u.detail}`),
    ...(c.unmatched.length > 10 ? [`    ... ${c.unmatched.length - 10} more in unmatched.csv`] : []),
  ];
}

/** Writes parity.json, matched.csv, unmatched.csv and orders.csv (the n-th order of each run side by side) into `dir`; returns their paths. */
export function writeParity(dir: string, p: ParityResult, lines: readonly string[]): string[] {
  const c = p.comparison;
  const files = [join(dir, 'parity.json'), join(dir, 'matched.csv'), join(dir, 'unmatched.csv'), join(dir, 'orders.csv')];
  const json = {
    symbol: p.symbol, durationMs: p.durationMs, mark: p.mark, base: p.base, quote: p.quote,
    live: c.live, backtest: c.backtest,
    matched: c.matched.length, matchedSameOrder: c.matched.filter((m) => m.sameOrder).length, matchedPct: c.matchedPct,
    unmatched: c.unmatched.length, causes: c.causes,
    pnlDiff: c.pnlDiff, pnlDiffPct: c.pnlDiffPct ?? null, pnlDiffBp: c.pnlDiffBp ?? null, maxPriceDiff: c.maxPriceDiff, meanAbsPriceDiff: c.meanAbsPriceDiff,
    latency: p.latency, ownRemoval: p.ownRemoval, fees: p.live.fees,
    problems: p.journal.problems.slice(0, 100),
    dirs: p.dirs,
    report: lines,
  };
  writeFileSync(files[0]!, `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(files[1]!, toCsv(
    ['liveTime', 'backtestTime', 'timeDiffMs', 'side', 'qty', 'livePrice', 'backtestPrice', 'priceDiff', 'liveOrder', 'backtestOrder', 'sameOrder', 'liveMaker', 'backtestMaker', 'liveFee', 'backtestFee'] as const,
    c.matched.map((m) => ({
      liveTime: new Date(m.live.time).toISOString(), backtestTime: new Date(m.backtest.time).toISOString(), timeDiffMs: m.timeDiffMs, side: m.live.side, qty: m.live.qty,
      livePrice: m.live.price, backtestPrice: m.backtest.price, priceDiff: m.priceDiff, liveOrder: m.live.clientOrderId, backtestOrder: m.backtest.clientOrderId,
      sameOrder: m.sameOrder, liveMaker: m.live.maker, backtestMaker: m.backtest.maker, liveFee: m.live.fee, backtestFee: m.backtest.fee,
    })),
  ));
  writeFileSync(files[2]!, toCsv(
    ['time', 'run', 'order', 'side', 'qty', 'price', 'maker', 'cause', 'detail'] as const,
    c.unmatched.map((u) => ({ time: new Date(u.fill.time).toISOString(), run: u.run, order: u.fill.clientOrderId, side: u.fill.side, qty: u.fill.qty, price: u.fill.price, maker: u.fill.maker, cause: u.cause, detail: u.detail })),
  ));
  const o = (x: ParityOrder | undefined): Record<'Time' | 'Side' | 'Price' | 'Qty' | 'Order', string> => ({
    Time: x === undefined ? '' : new Date(x.time).toISOString(), Side: x?.side ?? '', Price: x?.price ?? '', Qty: x?.qty ?? '', Order: x?.clientOrderId ?? '',
  });
  writeFileSync(files[3]!, toCsv(
    ['seq', 'liveTime', 'liveSide', 'livePrice', 'liveQty', 'liveOrder', 'backtestTime', 'backtestSide', 'backtestPrice', 'backtestQty', 'backtestOrder'] as const,
    c.orders.map((x) => {
      const l = o(x.live);
      const b = o(x.backtest);
      return {
        seq: x.seq, liveTime: l.Time, liveSide: l.Side, livePrice: l.Price, liveQty: l.Qty, liveOrder: l.Order,
        backtestTime: b.Time, backtestSide: b.Side, backtestPrice: b.Price, backtestQty: b.Qty, backtestOrder: b.Order,
      };
    }),
  ));
  return files;
}

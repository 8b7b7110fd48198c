/**
 * `bhtrade parity`: the config run live on the embedded venue with its market and orders recorded, the
 * bot's own orders taken out of the recorded book, the recording converted into a catalog, the same
 * config backtested on it with the recorded order latencies, and the two runs compared.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Clock, VirtualClock } from '../../core/clock.ts';
import { ConfigError } from '../../core/errors.ts';
import { Decimal, scaleOf } from '../../core/fixed.ts';
import { silentLogger, type Logger } from '../../core/logger.ts';
import { captureFiles } from '../../data/capture/index.ts';
import { convert } from '../../data/convert.ts';
import type { VenueConfig } from '../../sim/server/config.ts';
import { catalogAssets, runBacktest, type BacktestRun } from '../backtest.ts';
import type { LoadedConfig } from '../config.ts';
import { compare, type Comparison, type ParityFill, type ParityOrder } from './compare.ts';
import { readJournal, type Journal } from './journal.ts';
import { laggedClock } from './lagged-clock.ts';
import { parityLatencyOf } from './recorded-latency.ts';
import { embeddedVenueOf, recordedLive, runLive, type LiveRun } from './live.ts';
import { ownChanges, removeOwnOrders, type OwnRemovalStats } from './own-book.ts';
import { aheadGone } from './queue-evidence.ts';
import { Stalls } from './stalls.ts';

export interface ParityOptions {
  readonly out: string;
  readonly durationMs: number;
  readonly clock?: Clock;
  readonly log?: Logger;
  readonly venueConfig?: VenueConfig;
  /** How the live run waits out its duration (a test on a VirtualClock advances it). */
  readonly wait?: (ms: number) => Promise<void>;
  /** How often the venue pushes its book changes during the live run, ms (default: the venue config's). */
  readonly depthPushMs?: number;
  /** Compare on this earlier parity recording instead of running live again (the live run's folder `recording`). */
  readonly recording?: string;
  /** Called as each stage starts. */
  readonly onStage?: (stage: string) => void;
}

/** Statuses an order ends in without being wholly filled. */
const UNFILLED_ENDS = new Set(['CANCELED', 'EXPIRED', 'REJECTED']);

/** Everything a parity check found. */
export interface ParityResult {
  readonly symbol: string;
  readonly durationMs: number;
  readonly live: LiveRun;
  readonly journal: Journal;
  readonly ownRemoval: OwnRemovalStats;
  readonly backtest: BacktestRun;
  readonly comparison: Comparison;
  readonly latency: { readonly trips: number; readonly meanEntryMs: number; readonly meanResponseMs: number };
  readonly mark: string;
  readonly base: string;
  /** The asset fees and PnL are counted in. */
  readonly quote: string;
  /**
   * What volume and position are counted in: the quote and the base (spot, linear), the quote and contracts (inverse);
   * an inverse volume is a whole number of lots × multiplier, shown with its own decimals (not the margin asset's).
   */
  readonly units: { readonly volume: string; readonly position: string; readonly volumeDecimals?: number };
  readonly dirs: { readonly recording: string; readonly publicBook: string; readonly catalog: string };
}

/** Throws ConfigError (--recording) unless `dir` is a folder holding a live run's market and order captures. */
async function checkRecording(dir: string): Promise<void> {
  const what = `${dir} is not the recording of a parity run (the recording folder of its --out, with market-*.cap.gz and orders-*.cap.gz)`;
  let st;
  try {
    st = statSync(dir);
  } catch (e) {
    throw new ConfigError('--recording', (e as NodeJS.ErrnoException).code === 'ENOENT' ? `${dir}: no such folder` : `${dir}: ${(e as Error).message}`, { cause: e });
  }
  if (!st.isDirectory()) throw new ConfigError('--recording', `${what}: it is a file`);
  for (const stream of ['market', 'orders']) {
    if ((await captureFiles(dir, stream)).length === 0) throw new ConfigError('--recording', `${what}: it holds no ${stream}-*.cap.gz`);
  }
}

/** Runs a parity check of `loaded`; its files go under `o.out`. */
export async function runParity(loaded: LoadedConfig, o: ParityOptions): Promise<ParityResult> {
  const symbols = [...new Set(loaded.config.strategies.flatMap((s) => s.symbols))];
  if (symbols.length !== 1) throw new ConfigError('strategies', `bhtrade parity compares one traded symbol; the config trades ${symbols.length} (${symbols.join(', ')})`);
  const symbol = symbols[0]!;
  // A config parity cannot run, or a recording that is none, stops before any file is touched.
  embeddedVenueOf(loaded, o.venueConfig);
  if (o.recording !== undefined) await checkRecording(o.recording);
  const out = resolve(o.out);
  const dirs = { recording: o.recording !== undefined ? resolve(o.recording) : join(out, 'recording'), publicBook: join(out, 'public'), catalog: join(out, 'catalog') };
  // A folder of an earlier check would mix two recordings.
  for (const d of o.recording !== undefined ? [dirs.publicBook, dirs.catalog] : Object.values(dirs)) rmSync(d, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const log = o.log ?? silentLogger();

  let live: LiveRun;
  if (o.recording !== undefined) {
    o.onStage?.(`live: the recording in ${dirs.recording}`);
    live = recordedLive(loaded, dirs.recording, o.venueConfig);
  } else {
    o.onStage?.(`live: ${o.durationMs / 1000} s on the embedded venue, recording into ${dirs.recording}`);
    live = await runLive(loaded, {
      recordDir: dirs.recording, durationMs: o.durationMs, log, ...(o.depthPushMs === undefined ? {} : { depthPushMs: o.depthPushMs }),
      ...(o.clock ? { clock: o.clock } : {}), ...(o.venueConfig ? { venueConfig: o.venueConfig } : {}), ...(o.wait ? { wait: o.wait } : {}),
    });
  }
  const journal = await readJournal(dirs.recording);
  const problems = [...journal.problems];

  o.onStage?.('taking the bot\'s own orders out of the recorded book');
  // What the venue sent while a strategy tick was overdue reached the live bot after that tick (stalls.ts).
  const stalls = Stalls.of(live.intervals, live.from);
  // Where a live fill shows the others ahead of the bot's quote had gone before the recorded book showed it.
  const moved = await aheadGone(dirs.recording, journal.reports, ownChanges(journal.reports));
  const ownRemoval = await removeOwnOrders(dirs.recording, dirs.publicBook, journal.reports, problems, (t, recv) => stalls.end(t, recv), moved, (t, recv) => stalls.readBefore(t, recv));
  o.onStage?.(`converting the recording into a catalog at ${dirs.catalog}`);
  const converted = await convert({ inputs: [dirs.publicBook], out: dirs.catalog });
  const inst = converted.index.instruments[symbol];
  if (inst === undefined) {
    const held = `it holds ${Object.keys(converted.index.instruments).join(', ') || 'none'}`;
    // An earlier recording of another config is a wrong --recording (bad usage), not a failed run.
    if (o.recording !== undefined) throw new ConfigError('--recording', `${o.recording} holds no market data of ${symbol}, the symbol the config trades (${held})`);
    throw new Error(`the recording holds no market data of ${symbol} (${held})`);
  }
  for (const p of converted.report.problems) problems.push(`${p.file}:${p.line}: ${p.message}`);

  o.onStage?.('backtesting the same config on the recording with the recorded latencies');
  const bt = loaded.config.backtest;
  const btLoaded: LoadedConfig = {
    ...loaded,
    // The account's other assets (the venue's demo account holds several) are no asset of the recording's instruments.
    config: { ...loaded.config, backtest: { ...bt, data: dirs.catalog, balances: ofAssets(live.balances, catalogAssets(converted.index)), fees: live.fees, from: undefined, to: undefined } },
  };
  const trips = journal.trips;
  const recorded = trips.length > 0 ? await parityLatencyOf(journal, dirs.catalog, symbol, inst, stalls) : undefined;
  const backtest = await runBacktest(btLoaded, {
    log,
    // From the instant the live strategies started, so that their timers tick in the same phase (the book before is warmed up),
    // to the instant they were stopped.
    ...(live.from > 0 ? { from: String(live.from) } : {}),
    ...(live.to > live.from ? { to: String(live.to) } : {}),
    ownOrdersInBook: true,
    ...(recorded !== undefined ? { latency: recorded } : {}),
    // The strategies' timers tick on the live run's grid, each tick as late as it fired live.
    ...(live.intervals.length > 0 ? { strategyClock: (c: VirtualClock) => laggedClock(c, live.intervals, live.from) } : {}),
  });

  const r = backtest.results;
  const moneyAsset = inst.kind === 'inverse' ? inst.margin : inst.quote;
  const mark = r.prices.at(-1)?.price ?? '0';
  const ended = new Map<string, number>();
  for (const ev of journal.reports) if (UNFILLED_ENDS.has(ev.status)) ended.set(ev.clientOrderId, ev.ts);
  const liveOrders: ParityOrder[] = journal.orders.map((x) => ({
    time: x.venueMs ?? x.sentMs, clientOrderId: x.clientOrderId, side: x.side, type: x.type, timeInForce: x.timeInForce, price: x.price, qty: x.quantity,
    cancelledAt: ended.get(x.clientOrderId),
  }));
  const btOrders: ParityOrder[] = r.orders.map((x) => ({
    time: x.time, clientOrderId: x.clientOrderId, side: x.side, type: x.type, timeInForce: x.timeInForce, price: x.price, qty: x.qty,
    cancelledAt: UNFILLED_ENDS.has(x.status) ? x.updateTime : undefined,
  }));
  const btFills: ParityFill[] = r.fills.map((f) => ({ time: f.time, clientOrderId: f.clientOrderId, side: f.side, price: f.price, qty: f.qty, fee: f.fee, feeAsset: f.feeAsset, maker: f.isMaker }));
  const comparison = compare({ live: { orders: liveOrders, fills: journal.fills }, backtest: { orders: btOrders, fills: btFills }, base: inst.base, money: moneyAsset, kind: inst.kind, multiplier: inst.multiplier, mark });
  const n = trips.length;
  const latency = {
    trips: n,
    meanEntryMs: n === 0 ? 0 : trips.reduce((s, t) => s + t.exchange - t.request, 0) / n,
    meanResponseMs: n === 0 ? 0 : trips.reduce((s, t) => s + t.response - t.exchange, 0) / n,
  };
  const durationMs = o.recording !== undefined ? backtest.range.to - backtest.range.from : o.durationMs;
  return { symbol, durationMs, live, journal: { ...journal, problems }, ownRemoval, backtest, comparison, latency, mark, base: inst.base, quote: moneyAsset, units: inst.kind === 'inverse' ? { volume: inst.quote, position: 'contracts', volumeDecimals: scaleOf(new Decimal(inst.lot).times(inst.multiplier).toFixed()) } : { volume: moneyAsset, position: inst.base }, dirs };
}

/** Returns the balances of `assets` alone. */
function ofAssets(balances: Readonly<Record<string, string>>, assets: ReadonlySet<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(balances).filter(([a]) => assets.has(a)));
}

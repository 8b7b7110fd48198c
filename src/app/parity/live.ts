/** The live half of a parity check: the config run on the embedded simulated venue for a while, recording its market and its own orders. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Clock } from '../../core/clock.ts';
import { ConfigError } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import { runRecordSchema } from '../../data/capture/options.ts';
import { loadVenueConfig, type VenueConfig } from '../../sim/server/config.ts';
import type { LoadedConfig } from '../config.ts';
import { venueConfigPath } from '../embedded.ts';
import { startApp } from '../run.ts';
import { GridClock, type GridInterval } from './grid-clock.ts';
import type { StrategySummary } from '../summary.ts';

export interface LiveOptions {
  /** Where the capture files go. */
  readonly recordDir: string;
  readonly durationMs: number;
  /** Default: a wall clock whose intervals tick on a fixed grid (grid-clock.ts). */
  readonly clock?: Clock;
  readonly log?: Logger;
  /** The venue config itself instead of the file embedded.config names (tests). */
  readonly venueConfig?: VenueConfig;
  /** How often the venue cuts its book changes into a diffDepth push, ms (default: the venue config's). */
  readonly depthPushMs?: number;
  /** Waits `ms` of the clock's time (default: a timer of the wall clock); a test on a VirtualClock advances it. */
  readonly wait?: (ms: number) => Promise<void>;
}

/** What the live run leaves besides its recording. */
export interface LiveRun {
  readonly summary: readonly StrategySummary[];
  /** The venue's fee rates the bot paid (spot, or contract for a contract symbol). */
  readonly fees: { readonly maker: string; readonly taker: string };
  /** The bot's account's starting balances (spot, or contract for a contract symbol). */
  readonly balances: Readonly<Record<string, string>>;
  readonly venueConfig: VenueConfig;
  /** Clock time (ms) the strategies started (their timers count from here) and the run stopped. */
  readonly from: number;
  readonly to: number;
  /** The live run's intervals with their late ticks (empty on another clock than GridClock). */
  readonly intervals: readonly GridInterval[];
}

/** The file beside a parity recording that keeps when the live run's strategies started and stopped. */
export const LIVE_TIMES_FILE = 'parity-live.json';

/** Returns the simulated venue's config a run config names, with the account the bot trades on. */
export function embeddedVenueOf(loaded: LoadedConfig, override?: VenueConfig): { config: VenueConfig; account: VenueConfig['accounts'][number] } {
  const cfg = loaded.config;
  if (cfg.venue !== 'embedded') throw new ConfigError('venue', 'bhtrade parity runs the config on the embedded simulated venue: set `venue: embedded`');
  const config = override ?? loadVenueConfig(venueConfigPath(cfg.embedded.config, loaded.baseDir), process.env);
  const account = config.accounts.find((a) => a.name === cfg.embedded.account);
  if (account === undefined) throw new ConfigError('embedded.account', `no account ${JSON.stringify(cfg.embedded.account)} in the venue config`);
  return { config, account };
}

/** Runs `loaded` with its market and orders recorded into `recordDir` for `durationMs`, then stops it as `bhtrade run` does. */
export async function runLive(loaded: LoadedConfig, o: LiveOptions): Promise<LiveRun> {
  const { config: configured, account } = embeddedVenueOf(loaded, o.venueConfig);
  // Diffs are cut at the faster of the spot depth and contract merged-depth cadences (src/sim/server/market-stream.ts).
  const venueConfig: VenueConfig = o.depthPushMs === undefined ? configured : {
    ...configured, server: { ...configured.server, depthPushMs: { ...configured.server.depthPushMs, spotDepth: o.depthPushMs, contractMergedDepth: Math.min(o.depthPushMs, configured.server.depthPushMs.contractMergedDepth) } },
  };
  const record = runRecordSchema.parse({ out: resolve(o.recordDir), topics: ['diffDepth', 'trade'], orders: true, hourly: false });
  const config = { ...loaded.config, record };
  const clock = o.clock ?? new GridClock();
  const app = await startApp({ config, baseDir: loaded.baseDir }, { clock, ...(clock instanceof GridClock ? { strategyClock: clock.forStrategies() } : {}), ...(o.log ? { log: o.log } : {}), venueConfig });
  const now = (): number => clock.now();
  // startApp returns right after the strategies started: a backtest started here runs their timers in the same phase.
  const from = now();
  let to = from;
  try {
    await (o.wait ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))))(o.durationMs);
    to = now();
  } finally {
    await app.stop('parity: the live run is over');
  }
  // The live run's intervals and their late ticks, for the backtest's strategies to tick as they did.
  const intervals = clock instanceof GridClock ? clock.intervals : [];
  writeFileSync(join(o.recordDir, LIVE_TIMES_FILE), `${JSON.stringify({ from, to, intervals })}\n`);
  return { ...accountOf(loaded, venueConfig, account), summary: app.summary(), from, to, intervals };
}

/** Returns the start and stop times a parity recording's live run kept, when it kept them. */
export function liveTimes(recordDir: string): { from: number; to: number; intervals: GridInterval[] } | undefined {
  const file = join(recordDir, LIVE_TIMES_FILE);
  if (!existsSync(file)) return undefined;
  const v = JSON.parse(readFileSync(file, 'utf8')) as { from?: unknown; to?: unknown; intervals?: unknown };
  if (typeof v.from !== 'number' || typeof v.to !== 'number') return undefined;
  const intervals = Array.isArray(v.intervals) ? (v.intervals as GridInterval[]).filter((i) => typeof i?.start === 'number' && typeof i.period === 'number' && Array.isArray(i.late)) : [];
  return { from: v.from, to: v.to, intervals };
}

/** What a live run that was recorded earlier had: the venue's fees, the account's balances and the times it kept (no summary). */
export function recordedLive(loaded: LoadedConfig, recordDir: string, override?: VenueConfig): LiveRun {
  const { config, account } = embeddedVenueOf(loaded, override);
  const times = liveTimes(recordDir);
  return { ...accountOf(loaded, config, account), summary: [], from: times?.from ?? 0, to: times?.to ?? 0, intervals: times?.intervals ?? [] };
}

/** The fees and starting balances of the account's side (spot or contract) that trades the config's symbol. */
function accountOf(loaded: LoadedConfig, venueConfig: VenueConfig, account: VenueConfig['accounts'][number]): Pick<LiveRun, 'fees' | 'balances' | 'venueConfig'> {
  const symbols = loaded.config.strategies.flatMap((s) => s.symbols);
  const contract = venueConfig.instruments.contracts.some((c) => symbols.includes(c.symbol));
  const fees = contract ? venueConfig.fees.contract : account.spotFees ?? venueConfig.fees.spot;
  return { fees: { maker: fees.maker, taker: fees.taker }, balances: { ...(contract ? account.balances.contract : account.balances.spot) }, venueConfig };
}

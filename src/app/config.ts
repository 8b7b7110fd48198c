/** The run config (`bhtrade run CONFIG`): one zod schema that is also the type, `${ENV}` interpolation for secrets, and errors naming the bad key's path. */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { configErrorFromZod, interpolateEnv, readYamlFile } from '../core/config.ts';
import { ConfigError } from '../core/errors.ts';
import { compareDecimal } from '../core/fixed.ts';
import { runRiskConfigSchema } from '../risk/index.ts';
import { streamRequestSchema } from '../strategy/streams.ts';
import { runRecordSchema } from '../data/capture/options.ts';

const DURATION_RE = /^(\d+)(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Returns the milliseconds of a duration such as "500ms", "30s", "5m" or "1h"; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const m = DURATION_RE.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}

const duration = z
  .string()
  .refine((s) => parseDuration(s) !== undefined && parseDuration(s)! > 0, 'must be a duration such as "500ms", "30s", "5m" or "1h"')
  .transform((s) => parseDuration(s)!);

const count = (): z.ZodNumber => z.number().int('must be a whole number').positive('must be at least 1');

const httpUrl = z.string().regex(/^https?:\/\/\S+$/, 'must be an http:// or https:// URL');
const wsUrl = z.string().regex(/^wss?:\/\/\S+$/, 'must be a ws:// or wss:// URL');

/** A real venue: its REST and WebSocket bases and the key pair, normally `${BH_API_KEY}` and `${BH_SECRET}`. */
const remoteVenue = z.strictObject({
  rest: httpUrl.describe('REST base URL, e.g. https://api.example.com'),
  ws: wsUrl.describe('WebSocket base URL (market stream and user stream)'),
  apiKey: z.string().min(1, 'must not be empty').describe('API key; write ${BH_API_KEY} and set it in the environment'),
  secret: z.string().min(1, 'must not be empty').describe('API secret; write ${BH_SECRET} and set it in the environment'),
});

const embeddedOptions = z.strictObject({
  config: z.string().default('venue.yaml').describe('the simulated venue\'s config, relative to this file (when venue.yaml is not there, the one shipped with bhtrade)'),
  account: z.string().default('demo').describe('the venue account whose first key the bot trades with'),
  seed: z.number().int().optional().describe('overrides the venue config\'s seed'),
}).describe('options of `venue: embedded`');

const strategyEntry = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_]{1,12}$/, 'must be 1-12 letters, digits or _ (it prefixes the strategy\'s clientOrderIds)')
    .describe('instance id, 1-12 letters, digits or _: prefixes its clientOrderIds, names it in logs, status and risk limits'),
  use: z.string().min(1, 'must name a .ts/.js path or an npm package').describe('the plugin: a .ts or .js path relative to this file, or an npm package name'),
  symbols: z.array(z.string().min(1)).min(1, 'must list at least one symbol').describe('symbols the strategy trades and receives market events for'),
  params: z.unknown().optional().describe('the plugin\'s params, validated by its manifest\'s schema'),
  streams: streamRequestSchema.optional().describe('the market streams it receives, field by field over its manifest\'s `streams`'),
});

const logOptions = z.strictObject({
  level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('least severe level written'),
  pretty: z.enum(['auto', 'on', 'off']).default('auto').describe('auto: pretty on a terminal, JSON lines otherwise'),
});

const statusOptions = z.strictObject({
  every: duration.prefault('5s').describe('how often the one-line status is printed'),
});

const stopOptions = z.strictObject({
  cancelAll: z.boolean().default(true).describe('cancel every open order of the run on SIGINT/SIGTERM or at the end of --duration'),
  timeout: duration.prefault('10s').describe('longest wait of each step of the stop: each stop() handler, the answers to orders it placed, the cancels, the final reconciliation'),
});

const orderHistoryOptions = z.strictObject({
  maxOrders: count().default(10_000).describe('most finished orders kept readable (ctx.orders.get); older ones are forgotten'),
  maxAge: duration.prefault('1h').describe('finished orders older than this are forgotten'),
});

const reconcileOptions = z.strictObject({
  every: duration.prefault('30s').describe('period of the reconciliation against the venue; a bar-mode backtest reconciles at the first bar close at least this long after the last'),
  unknownOrders: z.enum(['adopt', 'cancel']).default('cancel').describe('what to do with open orders the bot did not place: adopt (track them; a graceful stop leaves them working and logs their ids) or cancel'),
});

/** The rule of a latency that is none of latencySpec's forms (zod says only "Invalid input"). */
const LATENCY_FORMS = 'must be a number of ms ≥ 0 without a unit (e.g. 20, not "20ms"), { min, max } (ms, drawn uniformly between) or { base, meanExtra } (ms: base plus an exponential extra of that mean)';
const latencyMs = z.number().min(0, 'must be ≥ 0 ms');
const latencySpec = z.union([
  latencyMs,
  z.strictObject({ min: latencyMs.describe('shortest, ms'), max: latencyMs.describe('longest, ms (drawn uniformly between)') })
    .refine((l) => l.max >= l.min, { path: ['max'], error: (i) => `must be at least min (${(i.input as { min: number }).min}), got ${(i.input as { max: number }).max}` }),
  z.strictObject({ base: latencyMs.describe('least, ms'), meanExtra: latencyMs.describe('mean of an exponential extra, ms (a long tail)') }),
]);
/**
 * A decimal of at least 0 written as a string: a number, a number with a unit, "1." or "+1" is not one
 * (`formatRule`, with an example); a negative decimal is one, and is refused as negative.
 */
function nonNegativeDecimal(formatRule: string): z.ZodString {
  return z.string().superRefine((s, ctx) => {
    if (!/^-?\d+(\.\d+)?$/.test(s)) ctx.addIssue({ code: 'custom', message: formatRule });
    else if (s.startsWith('-')) ctx.addIssue({ code: 'custom', message: /[1-9]/.test(s) ? `must not be negative, got ${JSON.stringify(s)}` : `must be written without a minus sign, got ${JSON.stringify(s)}` });
  });
}
const decimalText = nonNegativeDecimal('must be a decimal written as a string, e.g. "0.001"');
// A rate is in [0, 1) (the venue's ledger takes no other): checked here, a swept fee of 1 stops a sweep before anything runs.
const feeRate = nonNegativeDecimal('must be a decimal fraction written as a string, e.g. "0.001"').refine((s) => !/^-?\d+(\.\d+)?$/.test(s) || compareDecimal(s, '1') < 0, { error: (i) => `must be below 1 (a rate: "0.001" is 0.1 %), got ${JSON.stringify(i.input)}` });
const timeText = z.string().refine((s) => parseTime(s) !== undefined, 'must be an ISO time such as "2024-08-08T23:55:00Z" or epoch ms');

/** Returns the epoch ms of an ISO time (a Z or offset, or UTC when absent) or of a whole number of epoch ms; undefined when it is neither. */
export function parseTime(text: string): number | undefined {
  const t = text.trim();
  if (/^\d+$/.test(t)) return Number(t);
  if (!/^\d{4}-\d{2}-\d{2}/.test(t)) return undefined;
  const ms = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(t) || t.length === 10 ? t : `${t}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The backtest's starting balances when the config gives none. */
export const DEFAULT_BALANCES: Readonly<Record<string, string>> = { BTC: '1', USDT: '100000' };

const backtestOptions = z.strictObject({
  data: z.string().optional().describe('the Parquet catalog to replay, relative to this file (`bhtrade data convert` makes one); --data overrides it. Without it: the 2-minute Binance sample that ships with bhtrade (backtest/data/binance-samples), wherever the config is'),
  symbols: z.array(z.string().min(1)).optional().describe('symbols replayed onto the bus (default: the strategies\' symbols); the strategies\' symbols are traded'),
  from: timeText.optional().describe('first local time replayed (ISO or epoch ms; default the catalog\'s start); --from overrides it'),
  to: timeText.optional().describe('end of the replay, exclusive (default the catalog\'s end); --to overrides it'),
  mode: z.enum(['auto', 'l2', 'bars']).default('auto').describe('how orders fill: l2 (on the recorded book, with queue position), bars (along each kline\'s path: coarser, see docs/backtest.md) or auto (bars when the range holds klines but no book or trades of the symbols)'),
  balances: z.record(z.string(), decimalText).optional().describe(`starting balances by asset: spot balances, and the margin token of each contract traded (default ${JSON.stringify(DEFAULT_BALANCES)}); an asset no instrument of the catalog holds is refused`),
  fees: z.strictObject({
    maker: feeRate.default('0.001').describe('maker fee rate, charged in the asset received'),
    taker: feeRate.default('0.001').describe('taker fee rate'),
  }).prefault({}).describe('fee rates'),
  latency: z.strictObject({
    entry: latencySpec.default(20).describe('ms from an order or cancel leaving the bot to the exchange acting on it: a number of ms (20; no unit), {min, max} (drawn uniformly between) or {base, meanExtra} (base plus an exponential extra)'),
    response: latencySpec.default(20).describe('ms from the exchange acting to its report reaching the bot (same forms)'),
  }).prefault({}).describe('order latencies, drawn from the seeded generator'),
  queue: z.discriminatedUnion('model', [
    z.strictObject({ model: z.literal('risk-averse') }),
    z.strictObject({ model: z.literal('log') }),
    z.strictObject({ model: z.literal('power'), n: z.number().positive('must be above 0').default(2) }),
  ]).default({ model: 'log' }).describe('queue position model of resting orders: risk-averse (only trades advance it), log or power (with exponent n): see docs/backtest.md'),
  funding: z.strictObject({
    rate: z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal written as a string, e.g. "0.0001" or "-0.00005"').optional()
      .describe('a fixed 8-hour funding rate for every interval (longs pay a positive rate), in place of the catalog\'s recorded rates; without it, intervals the catalog has no rate for pay nothing'),
  }).prefault({}).describe('funding of contract positions, settled every 8 hours (00:00, 08:00, 16:00 UTC) at the mark'),
  seed: z.number().int().default(1).describe('seed of sampled latencies: the same config, data and seed give the same results'),
  equityEvery: duration.prefault('1s').describe('how often equity is sampled for equity.csv, the metrics and the report'),
}).describe('`bhtrade backtest`: the recorded data, account and exchange model the config is backtested with (ignored by `bhtrade run`)');

const feeRates = z.strictObject({
  maker: feeRate.describe('maker fee, a fraction of the traded value'),
  taker: feeRate.describe('taker fee, a fraction of the traded value'),
});

const feeOptions = z.strictObject({
  spot: feeRates.optional().describe('spot maker and taker fee rates'),
  contract: feeRates.optional().describe('contract maker and taker fee rates'),
}).describe('the venue\'s fee rates strategies read (ctx.fees); `venue: embedded` takes the simulated venue\'s own when absent');

/** The whole run config. */
export const runConfigSchema = z.strictObject({
  venue: z.union([z.literal('embedded'), remoteVenue]).describe('`embedded` (the simulated venue in-process, over loopback) or a real venue'),
  embedded: embeddedOptions.prefault({}),
  strategies: z.array(strategyEntry).min(1, 'must list at least one strategy').describe('the strategies of the run, each an instance of a plugin'),
  risk: runRiskConfigSchema.prefault({}).describe('risk gate limits: see docs/risk-codes.md'),
  reconcile: reconcileOptions.prefault({}).describe('reconciliation with the venue (also at start and after every reconnect)'),
  log: logOptions.prefault({}).describe('logging (secrets are redacted)'),
  status: statusOptions.prefault({}).describe('the periodic one-line status'),
  stop: stopOptions.prefault({}).describe('graceful stop'),
  backtest: backtestOptions.prefault({}),
  fees: feeOptions.prefault({}),
  orderHistory: orderHistoryOptions.prefault({}).describe('finished orders leave the executor\'s working set at once and stay readable within these bounds'),
  onStrategyFailure: z.enum(['stop', 'continue']).default('stop')
    .describe('stop: a strategy that fails makes the run (or backtest) exit non-zero at its end (the others go on; with none left running a live run stops); continue: it exits 0'),
  record: runRecordSchema.optional(),
});

export type RunConfig = z.output<typeof runConfigSchema>;
export type RunConfigInput = z.input<typeof runConfigSchema>;
export type RemoteVenueConfig = z.output<typeof remoteVenue>;
export type BacktestConfig = z.output<typeof backtestOptions>;

/** A loaded config and the folder its relative paths are resolved against. */
export interface LoadedConfig {
  readonly config: RunConfig;
  readonly baseDir: string;
}

/** The catalog a backtest replays when its config names none: the sample that ships with bhtrade. */
export const SAMPLE_CATALOG = fileURLToPath(new URL('../../backtest/data/binance-samples', import.meta.url));

/** Returns the catalog folder a loaded config's backtest replays: `data` (a --data option) when given, else its backtest.data relative to its folder, else SAMPLE_CATALOG. */
export function configCatalog(loaded: LoadedConfig, data?: string): string {
  if (data !== undefined) return resolve(data);
  const own = loaded.config.backtest.data;
  return own === undefined ? SAMPLE_CATALOG : resolve(loaded.baseDir, own);
}

/** Returns the validated config of a parsed document; throws ConfigError naming the first bad key's path and rule. */
export function parseRunConfig(raw: unknown, env: NodeJS.ProcessEnv = {}): RunConfig {
  const r = runConfigSchema.safeParse(interpolateEnv(raw ?? {}, env));
  if (!r.success) throw configErrorFromZod(r.error, '', unionMessage);
  const ids = new Set<string>();
  r.data.strategies.forEach((s, i) => {
    if (ids.has(s.id)) throw new ConfigError(`strategies[${i}].id`, `duplicate strategy id ${s.id}`);
    ids.add(s.id);
  });
  return r.data;
}

/** Returns the validated config of a YAML file, with relative paths to be resolved against its folder. */
export function loadRunConfig(file: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  return { config: parseRunConfig(readYamlFile(file), env), baseDir: dirname(resolve(file)) };
}

// zod's default texts for these two say little; say what the key accepts.
function unionMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return 'unknown key (docs/config.md lists every key)';
  if (issue.code === 'invalid_union' && issue.path.length === 1 && issue.path[0] === 'venue') {
    return 'must be `embedded` or { rest, ws, apiKey, secret }';
  }
  if (issue.code === 'invalid_union' && issue.path.length === 3 && issue.path[0] === 'backtest' && issue.path[1] === 'latency') return LATENCY_FORMS;
  return issue.message;
}

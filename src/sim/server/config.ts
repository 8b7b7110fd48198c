/** The simulated venue's configuration (config/venue.yaml): one zod schema that is also the type, with errors naming the bad key's path. */
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { configErrorFromZod, interpolateEnv, readYamlFile } from '../../core/config.ts';
import { ConfigError } from '../../core/errors.ts';
import { isDecimalString } from '../../core/fixed.ts';
import { PERMISSION_PRESETS, type Permission } from './auth.ts';
import { faultSchema } from './faults.ts';

const decimal = z.string().refine(isDecimalString, 'must be a decimal number written as a string, e.g. "0.01"');
const positiveDecimal = decimal.refine((s) => /[1-9]/.test(s) && !s.startsWith('-'), 'must be a positive decimal');
const balances = z.record(z.string().regex(/^[A-Z0-9]{2,16}$/, 'asset names are 2-16 capital letters or digits'), decimal);

const filter = z.discriminatedUnion('filterType', [
  z.strictObject({ filterType: z.literal('PRICE_FILTER'), minPrice: positiveDecimal, maxPrice: positiveDecimal, tickSize: positiveDecimal }),
  z.strictObject({ filterType: z.literal('LOT_SIZE'), minQty: positiveDecimal, maxQty: positiveDecimal, stepSize: positiveDecimal }),
  z.strictObject({ filterType: z.literal('MIN_NOTIONAL'), minNotional: decimal }),
]);

const status = z.enum(['TRADING', 'HALT', 'BREAK']).default('TRADING');

const spotSymbol = z.strictObject({
  symbol: z.string().regex(/^[A-Z0-9]{4,20}$/, 'spot symbols are 4-20 capital letters or digits'),
  status,
  baseAsset: z.string(),
  quoteAsset: z.string(),
  baseAssetPrecision: positiveDecimal,
  quotePrecision: positiveDecimal,
  icebergAllowed: z.boolean().default(false),
  filters: z.array(filter).min(1),
  /** Price the market agents start from. */
  initialPrice: positiveDecimal.optional(),
});

const riskLimit = z.strictObject({
  riskLimitId: z.string().regex(/^\d+$/),
  quantity: positiveDecimal,
  initialMargin: positiveDecimal,
  maintMargin: positiveDecimal,
});

const contract = z.strictObject({
  symbol: z.string().regex(/^[A-Z0-9-]{4,24}$/, 'contract symbols are 4-24 capital letters, digits or dashes'),
  symbolName: z.string().optional(),
  status,
  baseAssetPrecision: positiveDecimal,
  quoteAsset: z.string(),
  quoteAssetPrecision: positiveDecimal,
  icebergAllowed: z.boolean().default(false),
  inverse: z.boolean(),
  index: z.string(),
  marginToken: z.string(),
  marginPrecision: positiveDecimal,
  contractMultiplier: positiveDecimal,
  underlying: z.string().optional(),
  filters: z.array(filter).min(1),
  riskLimits: z.array(riskLimit).min(1),
  initialPrice: positiveDecimal.optional(),
  /** A fixed funding rate per 8 hours for this contract; without one it pays the premium rate (mark basis over index). */
  fundingRate: decimal.optional(),
});

const permissions = z.union([
  z.enum(Object.keys(PERMISSION_PRESETS) as [string, ...string[]]),
  z.array(z.enum(['TRADE', 'USER_DATA', 'USER_STREAM', 'WALLET'])).min(1),
]).default('all');

const apiKey = z.string().regex(/^[A-Za-z0-9]{64}$/, 'an API key is 64 letters or digits');
const secret = z.string().min(16, 'a secret is at least 16 characters');

const extraKey = z.strictObject({
  apiKey,
  secret,
  permissions,
  enabled: z.boolean().default(true),
  ipWhitelist: z.array(z.string()).default([]),
});

const accountBalances = z.strictObject({
  /** Token trading account (type 1). */
  spot: balances.default({}),
  /** Contract account (type 3), by margin token. */
  contract: balances.default({}),
});

const feeRates = z.strictObject({ maker: decimal, taker: decimal });

const subAccount = z.strictObject({
  name: z.string(),
  index: z.number().int().min(1),
  keys: z.array(extraKey).default([]),
  balances: accountBalances.default({ spot: {}, contract: {} }),
});

const account = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/),
  keys: z.array(extraKey).min(1),
  balances: accountBalances.default({ spot: {}, contract: {} }),
  subAccounts: z.array(subAccount).default([]),
  /** Addresses the account may withdraw to. */
  withdrawAddresses: z.array(z.string()).default([]),
  /** The account's own spot fee tier (its main account and sub-accounts), as a market-maker programme gives; absent: the venue's `fees.spot`. */
  spotFees: feeRates.optional(),
});


const rateLimit = z.strictObject({
  rateLimitType: z.enum(['REQUEST_WEIGHT', 'REQUESTS_WEIGHT', 'ORDERS']).transform((t) => (t === 'REQUESTS_WEIGHT' ? 'REQUEST_WEIGHT' : t)),
  interval: z.enum(['SECOND', 'MINUTE', 'DAY']),
  limit: z.number().int().positive(),
});

const agent = z.strictObject({
  symbol: z.string(),
  kind: z.enum(['maker', 'taker', 'noise']),
  /** How often the agent acts, in ms of the venue's clock. */
  everyMs: z.number().int().min(10).default(1000),
  /** Levels a maker keeps on each side. */
  levels: z.number().int().min(1).max(100).default(10),
  /** Quantity per order, in the symbol's quantity unit. */
  qty: positiveDecimal.optional(),
  /** Distance between a maker's levels in ticks. */
  spreadTicks: z.number().int().min(1).default(1),
});

const serverSchema = z.strictObject({
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(8080),
  seed: z.number().int().default(1),
  /** Where the venue keeps its state across restarts; none when absent. */
  stateFile: z.string().min(1).optional(),
  /** How often the state is written while running (it is also written on stop). */
  stateEveryMs: z.number().int().min(100).default(10_000),
  /** With a stateFile: every state-changing call is appended to <stateFile>.journal before it is answered, and compacted into the state file at each write. */
  journal: z.strictObject({
    /** always: fsync each entry; interval: at most every fsyncEveryMs; never: leave it to the OS. A killed process loses nothing in any mode; a power cut may lose up to the interval. */
    fsync: z.enum(['always', 'interval', 'never']).default('interval'),
    fsyncEveryMs: z.number().int().min(1).default(200),
    /** The journal is compacted into the state file when it holds this many entries, whatever stateEveryMs says. */
    maxEntries: z.number().int().min(10).default(100_000),
  }).default({ fsync: 'interval', fsyncEveryMs: 200, maxEntries: 100_000 }),
  maxBodyBytes: z.number().int().min(1024).max(16 * 1024 * 1024).default(65536),
  /** The largest recvWindow a signed request may ask for (-1130 above it). */
  maxRecvWindowMs: z.number().int().min(1000).max(3_600_000).default(60_000),
  /** How many signatures of signed writes are remembered to refuse replays (-1003 when all are live). */
  replayMemory: z.number().int().min(100).max(10_000_000).default(100_000),
  /** Caps and timeouts of TCP connections: keep maxTotal under the process's file descriptor limit (ulimit -n). */
  connections: z.strictObject({
    maxPerAddress: z.number().int().min(1).default(512),
    maxTotal: z.number().int().min(1).default(4096),
    /** A request's headers must be complete this long after it started. */
    headersTimeoutMs: z.number().int().min(100).default(10_000),
    /** A whole request (headers and body) must arrive within this. */
    requestTimeoutMs: z.number().int().min(100).default(30_000),
    /** A connection that carries nothing for this long is closed (WebSockets excepted). */
    idleTimeoutMs: z.number().int().min(100).default(65_000),
  }).default({ maxPerAddress: 512, maxTotal: 4096, headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, idleTimeoutMs: 65_000 })
    .refine((c) => c.headersTimeoutMs <= c.requestTimeoutMs, { message: 'headersTimeoutMs must not exceed requestTimeoutMs', path: ['headersTimeoutMs'] }),
  depthPushMs: z.strictObject({
    spotDepth: z.number().int().min(10).default(300),
    spotMergedDepth: z.number().int().min(10).default(300),
    contractDepth: z.number().int().min(10).default(3000),
    contractMergedDepth: z.number().int().min(10).default(500),
  }).default({ spotDepth: 300, spotMergedDepth: 300, contractDepth: 3000, contractMergedDepth: 500 }),
  userStream: z.strictObject({
    pingIntervalMs: z.number().int().min(10).default(30_000),
    connectionCapMs: z.number().int().min(1000).default(86_400_000),
    listenKeyValidityMs: z.number().int().min(1000).default(3_600_000),
    /** A connection holding more unsent bytes is closed with 1008. */
    closeAboveBytes: z.number().int().min(1024).default(1_048_576),
  }).default({ pingIntervalMs: 30_000, connectionCapMs: 86_400_000, listenKeyValidityMs: 3_600_000, closeAboveBytes: 1_048_576 }),
  marketStream: z.strictObject({
    idleTimeoutMs: z.number().int().min(1000).default(300_000),
    /** Above this many unsent bytes a connection's depth, mergedDepth and bookTicker pushes are skipped; the latest goes out once it drains. */
    conflateAboveBytes: z.number().int().min(1024).default(32_768),
    /** Above this many unsent bytes a connection is closed with 1008 (trades and diffs cannot be skipped); it bounds the venue's memory per connection. */
    closeAboveBytes: z.number().int().min(1024).default(262_144),
  }).default({ idleTimeoutMs: 300_000, conflateAboveBytes: 32_768, closeAboveBytes: 262_144 })
    .refine((m) => m.conflateAboveBytes < m.closeAboveBytes, { message: 'conflateAboveBytes must be below closeAboveBytes', path: ['conflateAboveBytes'] }),
});

/** A market replayed from a catalog instead of the agents' (paper trading on real recordings). */
const marketSchema = z.strictObject({
  /** The catalog folder (bhtrade data convert) whose recorded book and trades the venue serves; relative to this file. */
  replay: z.string().min(1),
  /** Where in the recording to start, an ISO-8601 time (e.g. "2024-08-08T23:54:20Z"); absent: its first event. */
  from: z.string().refine((t) => /^\d{4}-\d{2}-\d{2}T/.test(t) && Number.isFinite(Date.parse(t)), 'must be an ISO-8601 time such as "2024-08-08T23:54:20Z"').optional(),
  /** How fast the recording plays on the venue's clock: 1 is real time, 10 ten times faster. */
  speed: z.number().positive().max(1000).default(1),
  /** At the recording's end: stop (the last book stays, nothing moves any more) or loop (the books clear and the recording plays again from `from`). */
  atEnd: z.enum(['stop', 'loop']).default('stop'),
  /** Spot symbols replayed (default: each spot symbol of this venue that the catalog has). */
  symbols: z.array(z.string()).min(1).optional(),
  /** Queue position model of the bot's resting orders, as a backtest's `backtest.queue`: risk-averse (only trades advance it), log, or power with exponent n. */
  queue: z.discriminatedUnion('model', [
    z.strictObject({ model: z.literal('risk-averse') }),
    z.strictObject({ model: z.literal('log') }),
    z.strictObject({ model: z.literal('power'), n: z.number().positive('must be above 0').default(2) }),
  ]).default({ model: 'log' }),
});

export const venueConfigSchema = z.strictObject({
  venue: z.strictObject({
    timezone: z.string().default('UTC'),
    exchangeId: z.string().default('301'),
  }).default({ timezone: 'UTC', exchangeId: '301' }),
  server: serverSchema.default(() => serverSchema.parse({})),
  rateLimits: z.array(rateLimit).default([
    { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', limit: 1500 },
    { rateLimitType: 'ORDERS', interval: 'SECOND', limit: 20 },
    { rateLimitType: 'ORDERS', interval: 'DAY', limit: 350000 },
  ]),
  bans: z.strictObject({
    minMs: z.number().int().positive().default(120_000),
    maxMs: z.number().int().positive().default(259_200_000),
    /** Multiplies every ban length (below 1 in tests). */
    scale: z.number().positive().default(1),
  }).default({ minMs: 120_000, maxMs: 259_200_000, scale: 1 }),
  instruments: z.strictObject({
    spot: z.array(spotSymbol).default([]),
    contracts: z.array(contract).default([]),
  }),
  accounts: z.array(account).default([]),
  fees: z.strictObject({
    spot: feeRates.default({ maker: '0.001', taker: '0.001' }),
    contract: feeRates.default({ maker: '0.0002', taker: '0.0006' }),
  }).default({ spot: { maker: '0.001', taker: '0.001' }, contract: { maker: '0.0002', taker: '0.0006' } }),
  agents: z.array(agent).default([]),
  /** Absent: the agents make the market. Present: the market is a replayed recording and the agents are off. */
  market: marketSchema.optional(),
  faults: faultSchema.default(() => faultSchema.parse({})),
});

export type VenueConfig = z.infer<typeof venueConfigSchema>;
export type VenueConfigInput = z.input<typeof venueConfigSchema>;
export type AccountConfig = z.infer<typeof account>;
export type KeyConfig = z.infer<typeof extraKey>;
export type SpotSymbolConfig = z.infer<typeof spotSymbol>;
export type ContractConfig = z.infer<typeof contract>;

/** Returns the permissions a key config names (a preset name or a list). */
export function permissionsOf(p: KeyConfig['permissions']): readonly Permission[] {
  return typeof p === 'string' ? PERMISSION_PRESETS[p]! : p;
}

/** Returns the validated config of an already-parsed object; throws ConfigError naming the first bad key's path and rule. */
export function parseVenueConfig(raw: unknown, env: NodeJS.ProcessEnv = {}): VenueConfig {
  const r = venueConfigSchema.safeParse(interpolateEnv(raw ?? {}, env));
  if (!r.success) throw configErrorFromZod(r.error);
  crossCheck(r.data);
  return r.data;
}

/** Returns the validated config of a YAML file; a relative `market.replay` is taken from the file's folder. */
export function loadVenueConfig(file: string, env: NodeJS.ProcessEnv = {}): VenueConfig {
  const c = parseVenueConfig(readYamlFile(file), env);
  return c.market === undefined ? c : { ...c, market: { ...c.market, replay: resolve(dirname(file), c.market.replay) } };
}

/** Checks rules that span keys: unique symbols and keys, contracts naming known indices, filters present. */
function crossCheck(c: VenueConfig): void {
  const symbols = new Set<string>();
  c.instruments.spot.forEach((s, i) => {
    if (symbols.has(s.symbol)) throw new ConfigError(`instruments.spot[${i}].symbol`, `duplicate symbol ${s.symbol}`);
    symbols.add(s.symbol);
    needFilters(s.filters, `instruments.spot[${i}].filters`);
  });
  c.instruments.contracts.forEach((k, i) => {
    if (symbols.has(k.symbol)) throw new ConfigError(`instruments.contracts[${i}].symbol`, `duplicate symbol ${k.symbol}`);
    symbols.add(k.symbol);
    needFilters(k.filters, `instruments.contracts[${i}].filters`);
  });
  const keys = new Set<string>();
  const names = new Set<string>();
  c.accounts.forEach((a, i) => {
    if (names.has(a.name)) throw new ConfigError(`accounts[${i}].name`, `duplicate account name ${a.name}`);
    names.add(a.name);
    const all = [...a.keys.map((k, j) => [k, `accounts[${i}].keys[${j}]`] as const),
      ...a.subAccounts.flatMap((s, si) => s.keys.map((k, j) => [k, `accounts[${i}].subAccounts[${si}].keys[${j}]`] as const))];
    for (const [k, path] of all) {
      if (keys.has(k.apiKey)) throw new ConfigError(`${path}.apiKey`, 'duplicate apiKey');
      keys.add(k.apiKey);
    }
    const idx = new Set<number>();
    a.subAccounts.forEach((s, si) => {
      if (idx.has(s.index)) throw new ConfigError(`accounts[${i}].subAccounts[${si}].index`, `duplicate sub-account index ${s.index}`);
      idx.add(s.index);
    });
  });
  c.agents.forEach((g, i) => {
    if (!symbols.has(g.symbol)) throw new ConfigError(`agents[${i}].symbol`, `unknown symbol ${g.symbol}`);
  });
  if (c.market !== undefined) {
    if (c.server.stateFile !== undefined) throw new ConfigError('market', 'a replayed market starts from its recording each time: remove server.stateFile or market');
    const spot = new Set(c.instruments.spot.map((s) => s.symbol));
    c.market.symbols?.forEach((s, i) => {
      if (!spot.has(s)) throw new ConfigError(`market.symbols[${i}]`, `${s} is not a spot symbol of instruments.spot (only spot symbols are replayed)`);
    });
  }
}

function needFilters(fs: readonly { filterType: string }[], path: string): void {
  for (const t of ['PRICE_FILTER', 'LOT_SIZE']) {
    if (!fs.some((f) => f.filterType === t)) throw new ConfigError(path, `needs a ${t}`);
  }
}

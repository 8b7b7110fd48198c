/** The chaos run's files: the venue's config (a state file in the run's folder, an account for the bot) and the bot's config: the three example strategies pointed at that venue. */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { Decimal } from '../../src/core/fixed.ts';
import { ROOT } from './procs.ts';

/** The chaos run's bot: the three example strategies in one `bhtrade run` on one venue account, its key pair from crypto (passed in the environment only). */
export interface Bot {
  readonly id: string;
  /** The strategy ids it runs (also the tags of their clientOrderIds). */
  readonly strategies: readonly string[];
  /** The venue account (user name) it trades on. */
  readonly user: string;
  readonly config: string;
  readonly env: NodeJS.ProcessEnv;
  /** Working orders allowed per symbol by its risk config. */
  readonly maxOpenOrders: Readonly<Record<string, number>>;
  /** Largest absolute position allowed per contract symbol by its risk config. */
  readonly maxPosition: Readonly<Record<string, string>>;
}

/** The examples run together: one IP and one account, as a user would deploy them, so a 418 or a limit is the bot's own. */
const EXAMPLES = ['default.yaml', 'grid.yaml', 'trend.yaml'] as const;

type Raw = Record<string, unknown>;

/**
 * Returns the examples' risk.symbols merged: where two examples trade one symbol (the market maker and
 * the grid on BTCUSDT) their maxOpenOrders add up and the larger maxPosition holds; other keys keep the first value.
 */
export function mergeRiskSymbols(all: readonly Record<string, Raw>[]): Record<string, Raw> {
  const out: Record<string, Raw> = {};
  for (const symbols of all) {
    for (const [symbol, r] of Object.entries(symbols)) {
      const m = out[symbol];
      if (m === undefined) { out[symbol] = { ...r }; continue; }
      for (const [k, v] of Object.entries(r)) {
        if (k === 'maxOpenOrders' && typeof m[k] === 'number' && typeof v === 'number') m[k] = m[k] + v;
        else if (k === 'maxPosition' && typeof m[k] === 'string' && typeof v === 'string') m[k] = new Decimal(m[k]).gte(v) ? m[k] : v;
        else if (m[k] === undefined) m[k] = v;
      }
    }
  }
  return out;
}

/** Writes the venue's config and the bot's config into `dir`; returns them and the venue's environment (the bot's key). */
export function writeConfigs(dir: string, port: number): { venueConfig: string; venueEnv: NodeJS.ProcessEnv; bot: Bot } {
  const venue = parse(readFileSync(join(ROOT, 'config/venue.yaml'), 'utf8')) as Raw;
  const server = venue['server'] as Raw;
  server['port'] = port;
  server['stateFile'] = join(dir, 'venue-state.json');
  const accounts = venue['accounts'] as Raw[];
  const demo = accounts.find((a) => a['name'] === 'demo')!;
  const key = randomBytes(32).toString('hex');
  const secret = randomBytes(32).toString('hex');
  const venueEnv: NodeJS.ProcessEnv = { ...process.env, CHAOS_BOT_KEY: key, CHAOS_BOT_SECRET: secret };
  const user = 'chaos-bot';
  accounts.push({ name: user, keys: [{ apiKey: '${CHAOS_BOT_KEY}', secret: '${CHAOS_BOT_SECRET}', permissions: 'all' }], balances: demo['balances'] });
  const examples = EXAMPLES.map((f) => parse(readFileSync(join(ROOT, 'config', f), 'utf8')) as Raw);
  const strategies = examples.flatMap((e) => e['strategies'] as Raw[]).map((s): Raw => ({ ...s, use: resolve(ROOT, 'config', s['use'] as string) }));
  const symbols = mergeRiskSymbols(examples.map((e) => ((e['risk'] as Raw | undefined)?.['symbols'] ?? {}) as Record<string, Raw>));
  const first = examples[0]!;
  const run: Raw = {
    ...first, strategies, risk: { ...(first['risk'] as Raw), symbols },
    venue: { rest: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}`, apiKey: '${BH_API_KEY}', secret: '${BH_SECRET}' },
  };
  delete run['embedded'];
  const config = join(dir, 'bot.yaml');
  writeFileSync(config, stringify(run));
  const maxOpenOrders: Record<string, number> = {};
  const maxPosition: Record<string, string> = {};
  for (const [symbol, r] of Object.entries(symbols)) {
    if (typeof r['maxOpenOrders'] === 'number') maxOpenOrders[symbol] = r['maxOpenOrders'];
    if (typeof r['maxPosition'] === 'string') maxPosition[symbol] = r['maxPosition'];
  }
  const venueConfig = join(dir, 'venue.yaml');
  writeFileSync(venueConfig, stringify(venue));
  const bot: Bot = {
    id: 'bot', strategies: strategies.map((s) => String(s['id'])), user, config,
    env: { ...process.env, BH_API_KEY: key, BH_SECRET: secret }, maxOpenOrders, maxPosition,
  };
  return { venueConfig, venueEnv, bot };
}

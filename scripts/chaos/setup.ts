/** The chaos run's files: the venue's config (a state file in the run's folder, one account per bot) and each example strategy's config pointed at that venue. */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { ROOT } from './procs.ts';

/** One bot of the chaos run: an example config, its venue account and its key pair (from crypto, passed in the environment only). */
export interface Bot {
  readonly id: string;
  /** The example config it runs, relative to config/. */
  readonly example: string;
  /** The venue account (user name) it trades on. */
  readonly user: string;
  readonly config: string;
  readonly env: NodeJS.ProcessEnv;
  /** Working orders allowed per symbol by its risk config. */
  readonly maxOpenOrders: Readonly<Record<string, number>>;
  /** Largest absolute position allowed per contract symbol by its risk config. */
  readonly maxPosition: Readonly<Record<string, string>>;
}

const EXAMPLES = [['mm', 'default.yaml'], ['grid', 'grid.yaml'], ['trend', 'trend.yaml']] as const;

type Raw = Record<string, unknown>;

/** Writes the venue's config and the bots' configs into `dir`; returns them and the venue's environment (the bots' keys). */
export function writeConfigs(dir: string, port: number): { venueConfig: string; venueEnv: NodeJS.ProcessEnv; bots: Bot[] } {
  const venue = parse(readFileSync(join(ROOT, 'config/venue.yaml'), 'utf8')) as Raw;
  const server = venue['server'] as Raw;
  server['port'] = port;
  server['stateFile'] = join(dir, 'venue-state.json');
  const accounts = venue['accounts'] as Raw[];
  const demo = accounts.find((a) => a['name'] === 'demo')!;
  const venueEnv: NodeJS.ProcessEnv = { ...process.env };
  const bots: Bot[] = [];
  const rest = `http://127.0.0.1:${port}`;
  for (const [id, example] of EXAMPLES) {
    const KEY = `CHAOS_${id.toUpperCase()}_KEY`;
    const SECRET = `CHAOS_${id.toUpperCase()}_SECRET`;
    const key = randomBytes(32).toString('hex');
    const secret = randomBytes(32).toString('hex');
    venueEnv[KEY] = key;
    venueEnv[SECRET] = secret;
    const user = `chaos-${id}`;
    accounts.push({ name: user, keys: [{ apiKey: `\${${KEY}}`, secret: `\${${SECRET}}`, permissions: 'all' }], balances: demo['balances'] });
    const run = parse(readFileSync(join(ROOT, 'config', example), 'utf8')) as Raw;
    delete run['embedded'];
    run['venue'] = { rest, ws: `ws://127.0.0.1:${port}`, apiKey: '${BH_API_KEY}', secret: '${BH_SECRET}' };
    for (const s of run['strategies'] as Raw[]) s['use'] = resolve(ROOT, 'config', s['use'] as string);
    const config = join(dir, `${id}.yaml`);
    writeFileSync(config, stringify(run));
    const symbols = ((run['risk'] as Raw | undefined)?.['symbols'] ?? {}) as Record<string, Raw>;
    const maxOpenOrders: Record<string, number> = {};
    const maxPosition: Record<string, string> = {};
    for (const [symbol, r] of Object.entries(symbols)) {
      if (typeof r['maxOpenOrders'] === 'number') maxOpenOrders[symbol] = r['maxOpenOrders'];
      if (typeof r['maxPosition'] === 'string') maxPosition[symbol] = r['maxPosition'];
    }
    bots.push({ id, example, user, config, env: { ...process.env, BH_API_KEY: key, BH_SECRET: secret }, maxOpenOrders, maxPosition });
  }
  const venueConfig = join(dir, 'venue.yaml');
  writeFileSync(venueConfig, stringify(venue));
  return { venueConfig, venueEnv, bots };
}

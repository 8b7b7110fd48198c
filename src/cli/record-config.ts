/** The settings of `bhtrade record`: a YAML file (its own keys, or a run config's venue, symbols and `record:` section) and the flags that override it, checked into one shape. */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { configErrorFromZod, interpolateEnv, readYamlFile } from '../core/config.ts';
import { parseRunConfig, type RunConfig } from '../app/config.ts';
import { durationFlag } from './duration.ts';
import { outProblem, requireValue } from './load-config.ts';
import { recordShape } from '../data/capture/options.ts';
import { loadVenueConfig, type VenueConfig } from '../sim/server/config.ts';

/** The simulated venue's config that ships with the package, used by `--venue embedded` without a config file. */
export const PACKAGE_VENUE_CONFIG = fileURLToPath(new URL('../../config/venue.yaml', import.meta.url));

const remote = z.strictObject({
  rest: z.string().regex(/^https?:\/\/\S+$/, 'must be an http:// or https:// URL').describe('REST base URL (instruments, depth snapshots)'),
  ws: z.string().regex(/^wss?:\/\/\S+$/, 'must be a ws:// or wss:// URL').describe('WebSocket base URL (market stream)'),
});

/** A `bhtrade record` config file. */
export const recordConfigSchema = z.strictObject({
  venue: z.union([z.literal('embedded'), remote]).describe('`embedded` (the simulated venue in-process) or { rest, ws } of a venue'),
  embedded: z.strictObject({
    config: z.string().default('venue.yaml').describe('the simulated venue\'s config, relative to this file'),
    seed: z.number().int().optional().describe('overrides the venue config\'s seed'),
  }).prefault({}),
  symbols: z.array(z.string().min(1)).min(1, 'must list at least one symbol').optional()
    .describe('symbols to record (required for a remote venue; default for the embedded one: every symbol it lists)'),
  ...recordShape,
});

/** The checked config, its symbols filled in. */
export type RecordConfig = Omit<z.output<typeof recordConfigSchema>, 'symbols'> & { readonly symbols: readonly string[] };

/** What the command runs: the config, where its relative paths start, and how long. */
export interface RecordPlan {
  readonly config: RecordConfig;
  /** The embedded venue's config file (absolute) when the venue is embedded. */
  readonly venueConfig: string | undefined;
  readonly out: string;
  readonly durationMs: number | undefined;
  /** How the symbols were given (`--symbols`, or the file's key), for messages about them. */
  readonly symbolsKey: string;
}

export const RECORD_USAGE = `Usage: npx bhtrade record [CONFIG] [--venue embedded|REST_URL] [--ws WS_URL] [--symbols A,B] [--topics diffDepth,trade,index]
                          [--out DIR] [--duration 60s] [--rotate-bytes N] [--seed N]
`;

/** `npx bhtrade record --help`. */
export const RECORD_HELP = `${RECORD_USAGE}
Records a venue's market WebSocket: every frame as received, with its receive time in nanoseconds, to
gzip line files in DIR (a gzip member a second, a new file every UTC hour and past --rotate-bytes).
Gaps and reconnects are marked and followed by a REST depth snapshot. Runs until Ctrl-C, SIGTERM or
the end of --duration. Format, keys and guarantees: docs/data.md.

  CONFIG             a record config (config/record.yaml) or a run config (its venue, its strategies'
                     symbols and its record: section); flags override its keys
  --venue V          embedded (the simulated venue in-process, no network) or a REST base URL
  --ws URL           WebSocket base URL of a real venue (default: the REST URL with ws:// or wss://)
  --symbols A,B      symbols to record (default with --venue embedded: every symbol it lists)
  --topics T,U       market topics (default diffDepth,trade,index; index: a contract's index symbol's)
  --out DIR          folder of the files (default recordings)
  --duration D       stop by itself after D (500ms, 30s, 5m, 1h)
  --rotate-bytes N   close a file past N compressed bytes (default 67108864)
  --seed N           seed of the embedded venue's market
  -h, --help         show this help

Exit codes: 0 after a clean stop, 1 when recording failed, 2 for bad usage, a bad config or an unknown symbol.
`;

/** Returns the plan of a command line; throws an Error (ConfigError for the file) naming the bad option or key. */
export function planRecord(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): RecordPlan {
  let file: string | undefined;
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      if (file !== undefined) throw new Error(`unexpected argument ${a}`);
      file = a;
      continue;
    }
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (!['--venue', '--ws', '--symbols', '--topics', '--out', '--duration', '--rotate-bytes', '--seed'].includes(flag)) throw new Error(`unknown option ${flag}`);
    flags[flag] = requireValue(flag, inline ?? argv[++i], inline !== undefined);
  }
  const read = file === undefined ? {} : readYamlFile(file) ?? {};
  if (typeof read !== 'object' || read === null || Array.isArray(read)) throw new Error(`${file}: must be a YAML mapping`);
  if ('instruments' in read && 'accounts' in read) {
    throw new Error(`${file}: is a simulated venue's config (bhtrade venue --config); record that venue with --venue embedded, or name the file as embedded.config in a record config`);
  }
  const doc: Record<string, unknown> = 'strategies' in read ? fromRunConfig(file!, read, env) : { ...(interpolateEnv(read, env) as object) };
  const list = (v: string): string[] => v.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (flags['--venue'] !== undefined) {
    const v = flags['--venue'];
    if (v === 'embedded' && flags['--ws'] !== undefined) throw new Error('--ws goes with --venue REST_URL: the embedded venue has its own');
    doc['venue'] = v === 'embedded' ? 'embedded' : { rest: v, ws: flags['--ws'] ?? v.replace(/^http/, 'ws') };
  } else if (flags['--ws'] !== undefined) {
    throw new Error('--ws goes with --venue REST_URL');
  }
  if (flags['--symbols'] !== undefined) doc['symbols'] = list(flags['--symbols']);
  if (flags['--topics'] !== undefined) doc['topics'] = list(flags['--topics']);
  if (flags['--out'] !== undefined) doc['out'] = flags['--out'];
  if (flags['--rotate-bytes'] !== undefined) doc['rotateBytes'] = intFlag('--rotate-bytes', flags['--rotate-bytes']);
  if (flags['--seed'] !== undefined) doc['embedded'] = { ...(doc['embedded'] as object | undefined), seed: intFlag('--seed', flags['--seed']) };
  if (doc['venue'] === undefined) throw new Error('no venue: give CONFIG or --venue embedded|REST_URL');
  const r = recordConfigSchema.safeParse(doc);
  if (!r.success) {
    const issue = r.error.issues.find((i) => i.code === 'unrecognized_keys') ?? r.error.issues[0]!;
    const flag = flagOf(issue.path, flags);
    if (flag !== undefined) {
      const got = issue.path.reduce<unknown>((o, k) => (o as Record<PropertyKey, unknown> | undefined)?.[k], doc);
      throw new Error(`${flag}: ${JSON.stringify(got)} ${issue.message}`);
    }
    const e = configErrorFromZod(r.error, '', (i) => (i.code === 'unrecognized_keys' ? 'unknown key (docs/data.md lists every key)' : i.message));
    throw new Error(`${file === undefined ? '' : `${file}: `}${e.message}`);
  }
  if (flags['--seed'] !== undefined && r.data.venue !== 'embedded') throw new Error('--seed goes with the embedded venue: a remote venue\'s market is its own');
  if (r.data.symbols === undefined && r.data.venue !== 'embedded') throw new Error('no symbols: give --symbols A,B or a symbols: key (a remote venue lists too many to record them all)');
  const durationMs = flags['--duration'] === undefined ? undefined : durationFlag(flags['--duration'], 'record');
  // Paths in a file are relative to it; paths given as flags, to the working directory.
  const base = file === undefined ? process.cwd() : dirname(resolve(file));
  const out = flags['--out'] !== undefined ? resolve(flags['--out']) : resolve(base, r.data.out);
  const outBad = outProblem(out);
  if (outBad !== undefined) throw new Error(`${flags['--out'] !== undefined ? '--out' : `${file}: out`} ${out}: ${outBad}`);
  const venueConfig = r.data.venue !== 'embedded' ? undefined : file === undefined ? PACKAGE_VENUE_CONFIG : resolve(base, r.data.embedded.config);
  const symbols = r.data.symbols ?? embeddedSymbols(venueConfig!, env);
  const symbolsKey = flags['--symbols'] !== undefined ? '--symbols' : `${file === undefined ? '' : `${file}: `}symbols`;
  return { config: { ...r.data, symbols }, venueConfig, out, durationMs, symbolsKey };
}

/** The flags that set each key, so that a bad value given as a flag is named as the user typed it. */
const FLAG_OF_KEY: Readonly<Record<string, string>> = {
  symbols: '--symbols', topics: '--topics', out: '--out', rotateBytes: '--rotate-bytes', 'embedded.seed': '--seed', 'venue.rest': '--venue', 'venue.ws': '--ws',
};

/** Returns the flag that set the value at `path`, when a flag did. */
function flagOf(path: readonly PropertyKey[], flags: Readonly<Record<string, string>>): string | undefined {
  const key = path.length > 1 && typeof path[1] === 'string' ? `${String(path[0])}.${path[1]}` : String(path[0]);
  const flag = FLAG_OF_KEY[key] ?? FLAG_OF_KEY[String(path[0])];
  if (flag === undefined) return undefined;
  // --ws is derived from --venue when not given.
  if (flag === '--ws' && flags['--ws'] === undefined) return flags['--venue'] === undefined ? undefined : '--venue';
  return flags[flag] === undefined ? undefined : flag;
}

/** Returns the record keys of a run config: its venue, its `record:` section, and its strategies' symbols unless the section names some. */
function fromRunConfig(file: string, raw: unknown, env: NodeJS.ProcessEnv): Record<string, unknown> {
  let run: RunConfig;
  try {
    run = parseRunConfig(raw, env);
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
  const { symbols, orders: _orders, ...keys } = run.record ?? {};
  const venue = run.venue === 'embedded' ? 'embedded' : { rest: run.venue.rest, ws: run.venue.ws };
  const embedded = { config: run.embedded.config, ...(run.embedded.seed === undefined ? {} : { seed: run.embedded.seed }) };
  return { ...keys, venue, embedded, symbols: symbols ?? [...new Set(run.strategies.flatMap((s) => s.symbols))] };
}

/** Returns every symbol the embedded venue's config lists, spot first. */
function embeddedSymbols(venueConfig: string, env: NodeJS.ProcessEnv): string[] {
  return listedSymbols(loadVenueConfig(venueConfig, env));
}

/** Returns every symbol a simulated venue's config lists, spot first. */
export function listedSymbols(vc: VenueConfig): string[] {
  return [...vc.instruments.spot.map((i) => i.symbol), ...vc.instruments.contracts.map((i) => i.symbol)];
}

function intFlag(name: string, v: string): number {
  if (!/^\d+$/.test(v)) throw new Error(`${name} must be a whole number, got ${JSON.stringify(v)}`);
  return Number(v);
}

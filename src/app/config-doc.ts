/** Renders the run config's key table from its zod schema (docs/config.md embeds it; a test keeps the two equal). */
import { z } from 'zod';
import { runConfigSchema } from './config.ts';

interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  description?: string;
  pattern?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  required?: string[];
  minimum?: number;
  minItems?: number;
}

interface Row {
  key: string;
  type: string;
  required: boolean;
  def: string;
  meaning: string;
}

const BEGIN = '<!-- config-keys:begin (generated from src/app/config.ts; UPDATE_DOCS=1 npx vitest run test/app/config-doc.test.ts) -->';
const END = '<!-- config-keys:end -->';

/** The markers around the generated table in docs/config.md. */
export const CONFIG_DOC_MARKERS = { begin: BEGIN, end: END } as const;

/** Returns the markdown table of every key of the run config: path, type, required, default, meaning. */
export function renderConfigKeys(): string {
  const schema = z.toJSONSchema(runConfigSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const rows: Row[] = [];
  walk(schema, '', true, rows);
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  return [
    '| key | type | required | default | meaning |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| \`${r.key}\` | ${esc(r.type)} | ${r.required ? 'yes' : ''} | ${r.def === '' ? '' : `\`${esc(r.def)}\``} | ${esc(r.meaning)} |`),
  ].join('\n');
}

// The risk section's schema (src/risk/config.ts) carries no descriptions; its keys are explained here, by their last segment.
const RISK_MEANING: Record<string, string> = {
  risk: 'risk gate settings; each denial code is in docs/risk-codes.md',
  tradingState: 'active: all orders; reducing: only orders that reduce a position, closes and cancels; halted: only cancels',
  rounding: 'round: prices to the tick toward the passive side, quantities down to the step (the quote amount of a spot MARKET BUY down to the tick); deny: refuse values off the grid',
  fees: 'fee rates the funds checks reserve (the worse of maker and taker)',
  spot: 'spot fee rate',
  contract: 'contract fee rate',
  defaults: 'limits for every symbol not named under risk.symbols, and for keys a symbol leaves out',
  symbols: 'limits by symbol',
  maxPosition: "largest position after the order: spot, the account's whole base balance (what it held before the run included, shared by every strategy: not a strategy's own book); contracts, one side (MAX_POSITION)",
  maxNotional: 'largest position value after the order: quote for spot, margin token for contracts (MAX_NOTIONAL)',
  maxOpenOrders: 'most open orders on the symbol, all strategies together, counting the new one (MAX_OPEN_ORDERS)',
  priceBandPct: 'limit prices must lie within ± this percent of the reference price (PRICE_BAND); default 10 for every symbol, `off` for none',
  priceBandRef: 'the band\'s reference price: last trade (default for spot) or mark (default for contracts)',
  strategy: 'limits for every strategy, and for keys a strategy entry leaves out',
  strategies: 'limits by strategy id',
  orderRate: 'most new orders a strategy may send (ORDER_RATE)',
  perSecond: 'in any 1 s window',
  perMinute: 'in any 60 s window',
  dailyLossLimit: 'new risk is denied once the strategy\'s PnL today (realized since 00:00 UTC plus the move of its unrealized PnL since then) is below minus this (DAILY_LOSS)',
};

function meaningOf(s: JsonSchema, path: string): string {
  if (s.description !== undefined) return s.description;
  if (path !== 'risk' && !path.startsWith('risk.')) return '';
  const last = path.split('.').filter((k) => k !== '<name>').pop() ?? '';
  return RISK_MEANING[last] ?? '';
}

function walk(s: JsonSchema, path: string, required: boolean, rows: Row[]): void {
  if (path !== '') rows.push({ key: path, type: typeOf(s), required: required && s.default === undefined, def: s.default === undefined ? '' : show(s.default), meaning: meaningOf(s, path) });
  // Every object form of a union has its keys listed (backtest.latency.entry: both {min, max} and {base, meanExtra}).
  for (const branch of s.anyOf ?? []) if (branch.properties) walkProperties(branch, path, rows);
  walkProperties(s, path, rows);
  if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${path}.<name>`, false, rows);
  if (s.items?.properties) walkProperties(s.items, `${path}[]`, rows);
}

function walkProperties(s: JsonSchema, path: string, rows: Row[]): void {
  for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, path === '' ? k : `${path}.${k}`, (s.required ?? []).includes(k), rows);
}

function typeOf(s: JsonSchema): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((e) => JSON.stringify(e)).join(' | ');
  // A union's object forms are told apart by their keys: `number or {min, max} or {base, meanExtra}`.
  if (s.anyOf) return s.anyOf.map((b) => (b.type === 'object' && b.properties ? `{${Object.keys(b.properties).join(', ')}}` : typeOf(b))).join(' or ');
  if (s.type === 'array') return `list of ${s.items ? typeOf(s.items) : 'any'}`;
  if (s.type === 'object') return s.properties ? 'object' : 'map';
  if (s.type === undefined) return 'any';
  return Array.isArray(s.type) ? s.type.join(' or ') : s.type;
}

function show(v: unknown): string {
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

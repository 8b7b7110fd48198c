// Fuzz every REST route of the venue (fast-check, fixed seed, bounded runs): any parameters get 200 or a {code,msg} refusal, never a 5xx or a stack, and a refusal changes nothing.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListenKeys } from '../../../src/sim/server/listen-keys.ts';
import { publicRoutes } from '../../../src/sim/server/routes-public.ts';
import { streamRoutes } from '../../../src/sim/server/routes-stream.ts';
import type { Route } from '../../../src/sim/server/route.ts';
import { hmac, KEY, send, startTest, T0, testConfig, type TestVenue } from './helpers.ts';

let t: TestVenue;
let routes: Route[];
beforeAll(async () => {
  // Limits high enough that the fuzzing itself is never rate limited or banned.
  t = await startTest({
    rateLimits: [
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', limit: 10_000_000 },
      { rateLimitType: 'ORDERS', interval: 'SECOND', limit: 1_000_000 },
      { rateLimitType: 'ORDERS', interval: 'DAY', limit: 10_000_000 },
    ],
  });
  const cfg = testConfig();
  const keys = new ListenKeys(t.clock);
  routes = [...publicRoutes(cfg, t.clock), ...streamRoutes(keys), ...t.venue.backend.routes];
  keys.dispose();
});
afterAll(async () => t.close());

/** Returns a URL path serving a canonical route path (`main:order` → /openapi/v1/order). */
function urlOf(canon: string): string {
  const [area, rest] = canon.split(':') as [string, string];
  if (area === 'quote') return `/openapi/quote/v1/${rest}`;
  if (area === 'contract') return `/openapi/contract/v1/${rest}`;
  return `/openapi/v1/${rest}`;
}

const NAMES = [
  'symbol', 'symbols', 'side', 'type', 'orderType', 'priceType', 'timeInForce', 'quantity', 'price', 'leverage', 'triggerPrice', 'overPrice',
  'newClientOrderId', 'clientOrderId', 'origClientOrderId', 'orderId', 'limit', 'fromId', 'toId', 'startTime', 'endTime', 'interval', 'listenKey',
  'tokenId', 'token', 'amount', 'currency', 'from', 'to', 'fromAccountType', 'fromAccountIndex', 'toAccountType', 'toAccountIndex',
  'accountType', 'accountIndex', 'address', 'addressExt', 'withdrawQuantity', 'chainType', 'fromFlowId', 'endFlowId', 'state', 'recvWindow',
];

const plausible = fc.constantFrom(
  'BTCUSDT', 'ETHBTC', 'BTC-PERP-REV', 'BTC-SWAP-USDT', 'BUY', 'SELL', 'BUY_OPEN', 'SELL_CLOSE', 'LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP',
  'INPUT', 'OPPONENT', 'GTC', 'IOC', 'FOK', '1', '0', '-1', '0.01', '0.066', '30000', '1000000000000', '1e3', '1m', '1M', 'wallet', 'contract',
  'USDT', 'BTC', '3', String(T0), '', ' ', '%', '..', '1'.repeat(40), 'current', 'past',
);
const junk = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 12 }), fc.integer().map(String), fc.double().map(String));
const params = fc.dictionary(fc.constantFrom(...NAMES), fc.oneof(plausible, plausible, junk), { maxKeys: 8 });

let stamp = 0;
/** Sends one request with these parameters, signed with the demo key at the venue's time unless `unsigned`. */
async function call(r: Route, p: Record<string, string>, unsigned: boolean) {
  stamp += 1;
  const all = r.security === 'NONE' || unsigned ? p : { ...p, timestamp: String(T0 + (stamp % 1000)) };
  const text = Object.entries(all).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  const signedText = r.security === 'NONE' || unsigned ? text : `${text}&signature=${hmac(text)}`;
  const key = r.security === 'NONE' ? undefined : KEY;
  if (r.method === 'GET' || r.method === 'DELETE') return send(t.url, r.method, urlOf(r.path), { query: signedText, ...(key ? { key } : {}) });
  return send(t.url, r.method, urlOf(r.path), { body: signedText, ...(key ? { key } : {}) });
}

describe('fuzzed parameters on every venue route', () => {
  it('lists the routes it fuzzes', () => {
    expect(routes.length).toBeGreaterThan(40);
  });

  it('answers 200 or a {code,msg} refusal, never 5xx, and a refusal leaves the engine unchanged', async () => {
    let seed = 1300;
    for (const r of routes) {
      for (const unsigned of r.security === 'NONE' ? [false] : [false, true]) {
        await fc.assert(
          fc.asyncProperty(params, async (p) => {
            const before = t.venue.backend.venue.snapshot();
            const a = await call(r, p, unsigned);
            const where = `${r.method} ${r.path} ${JSON.stringify(p)} → ${a.status} ${a.text.slice(0, 200)}`;
            expect([200, 400, 404], where).toContain(a.status);
            expect(a.text, where).not.toMatch(/\n\s+at |Error:/);
            if (a.status !== 200) {
              expect(Number.isInteger(a.json?.code) && a.json.code < 0, where).toBe(true);
              expect(typeof a.json.msg, where).toBe('string');
              expect(t.venue.backend.venue.snapshot(), where).toBe(before);
            }
          }),
          { numRuns: unsigned ? 3 : 12, seed: seed++, endOnFailure: true },
        );
      }
    }
  }, 180_000);
});

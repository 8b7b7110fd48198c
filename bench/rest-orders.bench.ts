/** Signed spot order placements per second over loopback: our REST client against the simulated venue, beside bare undici against a minimal Node HTTP server. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { parse as parseYaml } from 'yaml';
import { LiveClock } from '../src/core/clock.ts';
import { parseVenueConfig } from '../src/sim/server/config.ts';
import { startVenue } from '../src/sim/server/start.ts';
import { VenueRestClient } from '../src/venue/rest-client.ts';

const WARMUP = 300;
const N = 3000;
const LIMITS = [
  { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', limit: 10_000_000 },
  { rateLimitType: 'ORDERS', interval: 'SECOND', limit: 1_000_000 },
  { rateLimitType: 'ORDERS', interval: 'DAY', limit: 100_000_000 },
] as const;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** Runs `n` calls one after another; returns calls per second and the latencies in µs. */
async function measure(n: number, call: (i: number) => Promise<unknown>): Promise<{ rate: number; lat: number[] }> {
  const lat: number[] = new Array<number>(n);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const s = process.hrtime.bigint();
    await call(i);
    lat[i] = Number(process.hrtime.bigint() - s) / 1000;
  }
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  return { rate: n / secs, lat: lat.sort((a, b) => a - b) };
}

/** Prints placements/s of our client against the venue and bare undici requests/s, and their ratio. */
export async function run(): Promise<void> {
  const raw = parseYaml(readFileSync('config/venue.yaml', 'utf8')) as Record<string, unknown>;
  const config = parseVenueConfig({ ...raw, agents: [], rateLimits: LIMITS });
  const clock = new LiveClock();
  const venue = await startVenue({ config, clock, host: '127.0.0.1', port: 0 });
  const key = config.accounts[0]!.keys[0]!;
  const client = new VenueRestClient({ baseUrl: venue.server.restUrl, apiKey: key.apiKey, secret: key.secret, clock, connections: 1, budgets: { limits: LIMITS } });

  const bare = createServer({ keepAlive: true }, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json;charset=UTF-8', 'Content-Length': 2 });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', () => r()));
  const pool = new Pool(`http://127.0.0.1:${(bare.address() as AddressInfo).port}`, { connections: 1, pipelining: 1 });
  const body = 'symbol=ETHBTC&side=BUY&type=LIMIT&quantity=1&price=0.001&timestamp=1&signature=' + 'a'.repeat(64);
  const bareCall = async (): Promise<void> => {
    const r = await pool.request({ path: '/openapi/v1/order', method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await r.body.text();
  };
  // Resting buys far below the market: each is validated, funds locked, book updated, events emitted.
  let seq = 0;
  const ours = (): Promise<unknown> => client.newSpotOrder({ symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.001', newClientOrderId: `b-${seq++}` });

  try {
    await measure(WARMUP, ours);
    await measure(WARMUP, bareCall);
    const a = await measure(N, ours);
    const b = await measure(N, bareCall);
    const ratio = a.rate / b.rate;
    console.log(`rest-orders: ours p50 ${pct(a.lat, 0.5).toFixed(0)} µs p99 ${pct(a.lat, 0.99).toFixed(0)} µs; bare undici p50 ${pct(b.lat, 0.5).toFixed(0)} µs p99 ${pct(b.lat, 0.99).toFixed(0)} µs (${N} sequential requests each, one keep-alive connection)`);
    console.log(`bench rest-orders: ${a.rate.toFixed(0)} orders/s vs bare undici ${b.rate.toFixed(0)} req/s, ratio ${ratio.toFixed(2)}`);
  } finally {
    await client.close();
    await pool.destroy();
    await new Promise<void>((r) => bare.close(() => r()));
    await venue.stop();
  }
}

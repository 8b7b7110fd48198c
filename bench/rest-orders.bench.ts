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

/** V8 needs thousands of requests on each side before the hot paths are optimised (~900/s at first, settling past 5000). */
const WARMUP = Number(process.env['REST_BENCH_WARMUP'] ?? 5000);
const ROUNDS = Number(process.env['REST_BENCH_ROUNDS'] ?? 7);
const PER_ROUND = Number(process.env['REST_BENCH_PER_ROUND'] ?? 1500);
const LIMITS = [
  { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', limit: 10_000_000 },
  { rateLimitType: 'ORDERS', interval: 'SECOND', limit: 1_000_000 },
  { rateLimitType: 'ORDERS', interval: 'DAY', limit: 100_000_000 },
] as const;

function pct(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** Runs `n` calls one after another; returns calls per second, pushes each latency (µs) to `lat` and the process CPU µs per call to `cpu`. */
async function measure(n: number, call: () => Promise<unknown>, lat?: number[], cpu?: number[]): Promise<number> {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const s = process.hrtime.bigint();
    await call();
    lat?.push(Number(process.hrtime.bigint() - s) / 1000);
  }
  const rate = n / (Number(process.hrtime.bigint() - t0) / 1e9);
  const c = process.cpuUsage(c0);
  cpu?.push((c.user + c.system) / n);
  return rate;
}

/** Prints placements/s of our client against the venue and bare undici requests/s (median of interleaved rounds), latencies, and their ratio. */
export async function run(): Promise<void> {
  const raw = parseYaml(readFileSync('config/venue.yaml', 'utf8')) as Record<string, unknown>;
  const total = WARMUP + ROUNDS * PER_ROUND;
  const account = (raw['accounts'] as Record<string, unknown>[])[0]!;
  // Each resting buy locks 0.001 BTC: fund every one of them.
  const accounts = [{ ...account, balances: { spot: { BTC: String(total) } } }];
  const config = parseVenueConfig({ ...raw, agents: [], rateLimits: LIMITS, accounts });
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
    const oursRates: number[] = [];
    const bareRates: number[] = [];
    const oursLat: number[] = [];
    const bareLat: number[] = [];
    const oursCpu: number[] = [];
    const bareCpu: number[] = [];
    // Interleaved rounds share the machine's noise (other processes on 2 cores) fairly between the two sides.
    for (let r = 0; r < ROUNDS; r++) {
      oursRates.push(await measure(PER_ROUND, ours, oursLat, oursCpu));
      bareRates.push(await measure(PER_ROUND, bareCall, bareLat, bareCpu));
    }
    oursLat.sort((a, b) => a - b);
    bareLat.sort((a, b) => a - b);
    const a = median(oursRates);
    const b = median(bareRates);
    const ratios = oursRates.map((x, i) => x / bareRates[i]!);
    console.log(`rest-orders: ours p50 ${pct(oursLat, 0.5).toFixed(0)} µs p99 ${pct(oursLat, 0.99).toFixed(0)} µs; bare undici p50 ${pct(bareLat, 0.5).toFixed(0)} µs p99 ${pct(bareLat, 0.99).toFixed(0)} µs`);
    // CPU time per request is what the code costs; wall time also holds the waits other processes impose on a shared machine.
    console.log(`rest-orders: process CPU per request (both ends in this process): ours ${median(oursCpu).toFixed(0)} µs, bare ${median(bareCpu).toFixed(0)} µs, ratio ${(median(bareCpu) / median(oursCpu)).toFixed(2)}`);
    console.log(`rest-orders: ${WARMUP} warm-up requests each, then ${ROUNDS} interleaved rounds of ${PER_ROUND} sequential requests on one keep-alive connection; round ratios ${ratios.map((x) => x.toFixed(2)).join(' ')}`);
    console.log(`bench rest-orders: ${a.toFixed(0)} orders/s vs bare undici ${b.toFixed(0)} req/s, ratio ${(a / b).toFixed(2)}`);
  } finally {
    await client.close();
    await pool.destroy();
    await new Promise<void>((r) => bare.close(() => r()));
    await venue.stop();
  }
}

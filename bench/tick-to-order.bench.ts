/**
 * Tick to order: from a market trade frame leaving a loopback WebSocket server to the signed order
 * request arriving at a loopback HTTP server, through our whole path (MarketWsClient → bus → strategy
 * host → order API → executor with the risk gate → RestGateway → signed undici request), beside the
 * floor in the same run: a bare `ws` client that parses the frame, signs the order with createHmac and
 * writes it with a bare undici Pool. Frames go one at a time; each is timed on one process clock.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import WebSocket, { WebSocketServer } from 'ws';
import { z } from 'zod';
import { LiveClock } from '../src/core/clock.ts';
import { ClientOrderIds } from '../src/core/ids.ts';
import { silentLogger } from '../src/core/logger.ts';
import { EventBus } from '../src/bus/index.ts';
import { instrumentsOf, parseBrokerInfo, type BusEvent } from '../src/model/index.ts';
import { RiskGate } from '../src/risk/index.ts';
import { ExecutorBudget, OrderExecutor, Portfolio } from '../src/execution/index.ts';
import { VenueRestClient } from '../src/venue/rest-client.ts';
import { RestGateway } from '../src/venue/gateway.ts';
import { MarketWsClient, MARKET_WS_PATH } from '../src/venue/market-ws.ts';
import { defineStrategy, StrategyHost } from '../src/strategy/index.ts';
import { makeSubmit } from '../src/app/submit.ts';
import { strategyView } from '../src/app/views.ts';
import { loadSample } from '../test/fixtures/samples.ts';

const SAMPLES = Number(process.env["TTO_SAMPLES"] ?? 3_000);
const WARMUP = Number(process.env["TTO_WARMUP"] ?? 500);
const KEY = 'tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW';
const SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
const HIGH = [
  { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', limit: 10_000_000 },
  { rateLimitType: 'ORDERS', interval: 'SECOND', limit: 1_000_000 },
  { rateLimitType: 'ORDERS', interval: 'DAY', limit: 100_000_000 },
] as const;

/** One loopback venue: a market socket that pushes a trade on demand, and an HTTP server that times each order's arrival. */
async function venue() {
  const ack = loadSample('spot-new-order.official').body;
  let arrived: ((t: bigint) => void) | undefined;
  const http = createServer({ keepAlive: true, noDelay: true }, (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/openapi/v1/order')) arrived?.(process.hrtime.bigint());
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(ack);
    });
  });
  const wss = new WebSocketServer({ server: http, path: MARKET_WS_PATH });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  const port = (http.address() as AddressInfo).port;
  let seq = 426635153180475392n;
  /** Sends one trade frame to every socket; resolves with the ns from just before the send to the order's arrival. */
  const tick = (): Promise<number> => new Promise((resolve, reject) => {
    seq += 1n;
    const timer = setTimeout(() => reject(new Error('tick-to-order: no order arrived within 2 s of a trade frame')), 2_000);
    const frame = `{"symbol":"BTCUSDT","topic":"trade","params":{"binary":"false"},"data":[{"v":"${seq}","t":1565594873508,"p":"11369","q":"0.01","m":false}],"f":false}`;
    const t0 = process.hrtime.bigint();
    arrived = (t1) => {
      clearTimeout(timer);
      arrived = undefined;
      resolve(Number(t1 - t0));
    };
    for (const c of wss.clients) c.send(frame);
  });
  const close = async (): Promise<void> => {
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((r) => http.close(() => r()));
    http.closeAllConnections();
  };
  return { rest: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}`, tick, close, connected: () => wss.clients.size };
}

/** Our whole path, wired as `bhtrade run` wires it; returns a stop function. */
async function ours(v: Awaited<ReturnType<typeof venue>>): Promise<() => Promise<void>> {
  const clock = new LiveClock();
  const log = silentLogger();
  const bus = new EventBus({ logger: log, clock, freeze: false });
  const instruments = instrumentsOf(parseBrokerInfo(loadSample('broker-info.capture-2020').payload));
  const rest = new VenueRestClient({ baseUrl: v.rest, apiKey: KEY, secret: SECRET, clock, logger: log, budgets: { limits: HIGH } });
  const portfolio = new Portfolio(instruments);
  portfolio.adopt({ balances: { spot: [{ asset: 'USDT', free: '100000000', locked: '0' }, { asset: 'BTC', free: '1000', locked: '0' }], contract: {} }, watermark: {} });
  portfolio.setPrice('BTCUSDT', { last: '11369' });
  const gate = new RiskGate({ instruments, config: {} });
  const exec = new OrderExecutor({
    gateway: new RestGateway(rest, () => clock.now()), bus, clock, gate, portfolio, instruments, ids: new ClientOrderIds('bh', 'bench'),
    budget: new ExecutorBudget([...HIGH]), logger: log, maxInFlight: 64,
  });
  const host = new StrategyHost({
    bus, clock, log, instruments, runTag: 'bench', submit: makeSubmit(exec),
    portfolio: (id) => strategyView({ portfolio, feed: exec.feed, books: exec.books, instruments }, id, ['BTCUSDT']),
  });
  const taker = defineStrategy({
    manifest: { name: 'taker', apiVersion: '1.0', params: z.strictObject({}) },
    create: (ctx) => ({ onTrade: (ev) => { ctx.orders.place({ symbol: ev.symbol, side: 'BUY', type: 'LIMIT', price: ev.price, quantity: '0.01' }); } }),
  });
  host.add({ id: 'bench', definition: taker, symbols: ['BTCUSDT'], params: {} });
  await host.start();
  const market = new MarketWsClient({ wsUrl: v.ws, clock, sink: (ev: BusEvent) => bus.publish(ev), log, ticks: { BTCUSDT: '0.01' } });
  market.start();
  market.subscribe('BTCUSDT', 'trade');
  return async () => {
    await host.stop();
    exec.stop();
    await market.stop();
    bus.close();
  };
}

/** The floor: parse the frame, sign the same order with createHmac, write it with a bare undici Pool. */
function floor(v: Awaited<ReturnType<typeof venue>>): () => Promise<void> {
  const pool = new Pool(v.rest, { connections: 1, pipelining: 1 });
  const ws = new WebSocket(`${v.ws}${MARKET_WS_PATH}`);
  let n = 0;
  ws.on('message', (data: Buffer) => {
    const m = JSON.parse(data.toString()) as { symbol: string; data: { p: string }[] };
    const t = m.data[0]!;
    const body = `symbol=${m.symbol}&side=BUY&type=LIMIT&quantity=0.01&price=${t.p}&newClientOrderId=floor-${++n}&timestamp=${Date.now()}`;
    const signature = createHmac('sha256', SECRET).update(body).digest('hex');
    void pool.request({
      method: 'POST', path: '/openapi/v1/order', body: `${body}&signature=${signature}`,
      headers: { 'x-bh-apikey': KEY, 'content-type': 'application/x-www-form-urlencoded' },
    }).then((r) => r.body.dump());
  });
  return async () => {
    ws.terminate();
    await pool.close();
  };
}

/** Returns the p50 and p99 of `ns` in µs. */
function percentiles(ns: number[]): { p50: number; p99: number } {
  const s = [...ns].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))]! / 1000;
  return { p50: at(0.5), p99: at(0.99) };
}

async function measure(v: Awaited<ReturnType<typeof venue>>, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await v.tick());
  return out;
}

async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!ok()) throw new Error('tick-to-order: client did not connect within 5 s');
}

/** Runs the benchmark: our path and the floor on separate loopback venues, alternating rounds, then the summary line. */
export async function run(): Promise<void> {
  const ourVenue = await venue();
  const floorVenue = await venue();
  const stopOurs = await ours(ourVenue);
  const stopFloor = floor(floorVenue);
  await until(() => ourVenue.connected() === 1 && floorVenue.connected() === 1);
  // The market client subscribes after connecting; give its first frame a moment by measuring a warm-up.
  await measure(ourVenue, WARMUP);
  await measure(floorVenue, WARMUP);
  const o: number[] = [];
  const f: number[] = [];
  for (let round = 0; round < 6; round++) {
    o.push(...await measure(ourVenue, SAMPLES / 6));
    f.push(...await measure(floorVenue, SAMPLES / 6));
  }
  await stopOurs();
  await stopFloor();
  await ourVenue.close();
  await floorVenue.close();
  const a = percentiles(o);
  const b = percentiles(f);
  console.log(`ours : p50 ${a.p50.toFixed(1)} µs  p99 ${a.p99.toFixed(1)} µs  (${o.length} ticks: ws frame → bus → strategy → risk gate → executor → signed undici request)`);
  console.log(`floor: p50 ${b.p50.toFixed(1)} µs  p99 ${b.p99.toFixed(1)} µs  (${f.length} ticks: bare ws → JSON.parse → createHmac → undici Pool)`);
  console.log(`bench tick-to-order: ${a.p99.toFixed(1)} µs vs floor ${b.p99.toFixed(1)} µs, ratio ${(a.p99 / b.p99).toFixed(2)}`);
}

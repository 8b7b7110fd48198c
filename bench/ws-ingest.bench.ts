// Trade messages per second from a local WebSocket server through MarketWsClient and the bus to a strategy-side subscriber, beside bare ws + JSON.parse of the same frames in the same run.
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { EventBus } from '../src/bus/index.ts';
import { LiveClock } from '../src/core/clock.ts';
import { silentLogger } from '../src/core/logger.ts';
import { MarketWsClient, MARKET_WS_PATH } from '../src/venue/market-ws.ts';

const N = 200_000;
const ROUNDS = 3;
const BATCH = 2_000;

/** The published Trade Streams sample, one trade a frame, ids counting up from the sample's. */
function frames(): string[] {
  const out: string[] = new Array<string>(N);
  for (let i = 0; i < N; i++) {
    const v = (426635153180475392n + BigInt(i)).toString();
    out[i] = `{"symbol":"BTCUSDT","topic":"trade","params":{"binary":false},"data":[{"v":"${v}","t":${1565594873508 + i},"p":"11369","q":"${i % 3 === 0 ? '0.01' : '0.0012'}","m":${i % 2 === 0}}],"f":false}`;
  }
  return out;
}

/** A live clock that notes the high-resolution time of each now(): the link reads it once as each frame arrives. */
class MarkingClock extends LiveClock {
  lastHr = 0n;
  override now(): number {
    this.lastHr = process.hrtime.bigint();
    return super.now();
  }
}

/** Sends every frame to each client that subscribes (ours) or connects with ?bare (the baseline), in batches so memory stays bounded. */
function serve(all: readonly string[]): Promise<WebSocketServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: MARKET_WS_PATH, perMessageDeflate: false });
  const blast = (ws: WebSocket): void => {
    let i = 0;
    const next = (): void => {
      const end = Math.min(N, i + BATCH);
      for (; i < end; i++) ws.send(all[i]!);
      if (i < N) setImmediate(next);
    };
    next();
  };
  wss.on('connection', (ws, req) => {
    if ((req.url ?? '').includes('bare')) {
      blast(ws);
      return;
    }
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as { event?: string; ping?: number };
      if (m.ping !== undefined) ws.send(JSON.stringify({ pong: m.ping }));
      if (m.event === 'sub') {
        ws.send('{"symbol":"BTCUSDT","topic":"trade","params":{"binary":false},"data":[],"f":true}');
        blast(ws);
      }
    });
  });
  return new Promise((resolve) => wss.on('listening', () => resolve(wss)));
}

interface Result {
  rate: number;
  lat: Float64Array;
}

/** Our path: socket → MarketWsClient (parse, normalise) → EventBus → a plain subscriber. */
async function ours(url: string): Promise<Result> {
  const clock = new MarkingClock();
  const bus = new EventBus({ logger: silentLogger(), freeze: false, clock });
  const lat = new Float64Array(N);
  let n = 0;
  let t0 = 0n;
  let done: () => void = () => undefined;
  const finished = new Promise<void>((r) => (done = r));
  bus.subscribe('trade', () => {
    const now = process.hrtime.bigint();
    if (n === 0) t0 = clock.lastHr;
    lat[n++] = Number(now - clock.lastHr);
    if (n === N) done();
  }, { symbol: 'BTCUSDT' });
  const client = new MarketWsClient({ wsUrl: url, clock, sink: (ev) => bus.publish(ev), log: silentLogger(), pingEveryMs: 600_000 });
  client.subscribe('BTCUSDT', 'trade');
  client.start();
  await finished;
  const rate = (N * 1e9) / Number(process.hrtime.bigint() - t0);
  await client.stop();
  bus.close();
  return { rate, lat };
}

/** The baseline: the same frames through a bare ws client and JSON.parse. */
async function bare(url: string): Promise<Result> {
  const lat = new Float64Array(N);
  let n = 0;
  let t0 = 0n;
  let sink = 0;
  const ws = new WebSocket(`${url}${MARKET_WS_PATH}?bare`, { perMessageDeflate: false });
  await new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      const at = process.hrtime.bigint();
      if (n === 0) t0 = at;
      const m = JSON.parse(data.toString()) as { data: unknown[] };
      sink += m.data.length;
      lat[n++] = Number(process.hrtime.bigint() - at);
      if (n === N) resolve();
    });
  });
  const rate = (N * 1e9) / Number(process.hrtime.bigint() - t0);
  ws.terminate();
  if (sink !== N) throw new Error(`bare: ${sink} trades parsed, expected ${N}`);
  return { rate, lat };
}

function pct(xs: Float64Array, p: number): number {
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]! / 1000;
}

/** Prints rates and arrival-to-subscriber latencies, then the summary line. */
export async function run(): Promise<void> {
  const all = frames();
  const wss = await serve(all);
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  let best: [Result | undefined, Result | undefined] = [undefined, undefined];
  for (let r = 0; r < ROUNDS; r++) {
    const a = await ours(url);
    const b = await bare(url);
    if (!best[0] || a.rate > best[0].rate) best = [a, best[1]];
    if (!best[1] || b.rate > best[1].rate) best = [best[0], b];
    console.log(`round ${r + 1}: ours ${Math.round(a.rate)} msgs/s, bare ws+JSON.parse ${Math.round(b.rate)} msgs/s`);
  }
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  const [o, b] = best as [Result, Result];
  console.log(`frame arrival → subscriber: ours p50 ${pct(o.lat, 0.5).toFixed(2)} µs, p99 ${pct(o.lat, 0.99).toFixed(2)} µs; bare (arrival → parsed) p50 ${pct(b.lat, 0.5).toFixed(2)} µs, p99 ${pct(b.lat, 0.99).toFixed(2)} µs (${N} frames, best of ${ROUNDS})`);
  console.log(`bench ws-ingest: ${Math.round(o.rate)} msgs/s vs bare ws+JSON.parse ${Math.round(b.rate)} msgs/s, ratio ${(o.rate / b.rate).toFixed(2)}`);
}

// Latency from a user-stream frame's arrival to the strategy's onFill (UserStreamClient → bus → executor → order feed → book → host), beside bare ws + JSON.parse of the same frames in the same run.
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import { EventBus } from '../src/bus/index.ts';
import { LiveClock } from '../src/core/clock.ts';
import { ClientOrderIds } from '../src/core/ids.ts';
import { silentLogger } from '../src/core/logger.ts';
import { ExecutorBudget, OrderExecutor, Portfolio } from '../src/execution/index.ts';
import { feedSource, makeSubmit } from '../src/app/submit.ts';
import { strategyView } from '../src/app/views.ts';
import { instrumentsOf, parseBrokerInfo, type BrokerInfo } from '../src/model/index.ts';
import { RiskGate } from '../src/risk/index.ts';
import { defineStrategy, StrategyHost } from '../src/strategy/index.ts';
import { UserStreamClient } from '../src/venue/user-stream.ts';
import { AnsweringGateway } from '../test/fixtures/answering-gateway.ts';
import { loadSample } from '../test/fixtures/samples.ts';
import { fillReportFrame } from './report-frame.ts';

const N = 20_000;
const ROUNDS = 3;
/** Frames sent per event-loop turn of the server: one, so the latency is the path's own, not a backlog's. */
const PER_TICK = 1;
const KEY = 'benchlistenkey';

/** High-resolution arrival time of each user-stream frame, in arrival order: noted where the socket emits it, for ours and the baseline alike. */
const arrivals: bigint[] = [];
const emit = WebSocket.prototype.emit;
WebSocket.prototype.emit = function patched(this: WebSocket, event: string | symbol, ...args: unknown[]): boolean {
  if (event === 'message') arrivals.push(process.hrtime.bigint());
  return emit.call(this, event, ...args);
};

/** One FILLED executionReport (the published field set) per order of round `r`. */
function frames(r: number): string[] {
  const out: string[] = [];
  for (let i = 1; i <= N; i++) {
    const id = r * N + i;
    out.push(fillReportFrame(`bench-r${r}-${id}`, id, 1_700_000_000_000 + i));
  }
  return out;
}

/** Serves the round's frames, PER_TICK at a time, to whoever connects on the user-stream path. */
async function serve(): Promise<{ wss: WebSocketServer; setFrames: (f: string[]) => void }> {
  let current: string[] = [];
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  wss.on('connection', (ws, req) => {
    if ((req.url ?? '').includes('idle')) return;
    const all = current;
    let i = 0;
    const next = (): void => {
      const end = Math.min(all.length, i + PER_TICK);
      for (; i < end; i++) ws.send(all[i]!);
      if (i < all.length) setImmediate(next);
    };
    next();
  });
  await new Promise<void>((resolve) => wss.on('listening', () => resolve()));
  return { wss, setFrames: (f) => { current = f; } };
}

function pct(xs: Float64Array, p: number): number {
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]! / 1000;
}

/** Our path for one round: N resting orders, then their fills through the user stream to the strategy's onFill. */
async function ours(url: string, r: number, setFrames: (f: string[]) => void, info: BrokerInfo): Promise<Float64Array> {
  const clock = new LiveClock();
  const instruments = instrumentsOf(info);
  const bus = new EventBus({ logger: silentLogger(), freeze: false, clock });
  const portfolio = new Portfolio(instruments);
  const exec = new OrderExecutor({
    gateway: new AnsweringGateway({ status: 'NEW', info }), bus, clock, portfolio, instruments, gate: new RiskGate({ instruments, config: {} }),
    ids: new ClientOrderIds('bench', `r${r}`), reconcile: { everyMs: 0 }, budget: new ExecutorBudget([]),
  });
  await exec.start();
  const lat = new Float64Array(N);
  let n = 0;
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const host = new StrategyHost({
    bus, clock, log: silentLogger(), instruments, runTag: `r${r}`, submit: makeSubmit(exec), orders: feedSource(exec),
    portfolio: (id) => strategyView({ portfolio, feed: exec.feed, books: exec.books, instruments }, id, ['BTCUSDT']),
  });
  host.add({
    id: 'bench', symbols: ['BTCUSDT'], params: {},
    definition: defineStrategy({
      manifest: { name: 'fills', apiVersion: '1.0', params: z.strictObject({}) },
      create: () => ({
        onFill: () => {
          const now = process.hrtime.bigint();
          lat[n] = Number(now - arrivals[n]!);
          n += 1;
          if (n === N) done();
        },
      }),
    }),
  });
  await host.start();
  for (let i = 1; i <= N; i++) {
    exec.submit({ kind: 'placeSpot', strategyId: 'bench', symbol: 'BTCUSDT', clientOrderId: `bench-r${r}-${r * N + i}`, side: 'BUY', type: 'LIMIT', price: '11369', quantity: '0.01' });
    await exec.idle();
  }
  await exec.idle();
  arrivals.length = 0;
  setFrames(frames(r));
  const user = new UserStreamClient({
    rest: { createListenKey: () => Promise.resolve({ listenKey: KEY }), keepaliveListenKey: () => Promise.resolve({}), closeListenKey: () => Promise.resolve({}) },
    wsUrl: url, clock, sink: (ev) => bus.publish(ev), log: silentLogger(), watchdogMs: 600_000,
  });
  await user.start();
  await finished;
  await host.stop();
  await user.stop();
  exec.stop();
  bus.close();
  return lat;
}

/** The baseline: the same frames through a bare ws client and JSON.parse. */
async function bare(url: string, r: number, setFrames: (f: string[]) => void): Promise<Float64Array> {
  setFrames(frames(r));
  arrivals.length = 0;
  const lat = new Float64Array(N);
  let n = 0;
  let sink = 0;
  const ws = new WebSocket(`${url}/openapi/ws/${KEY}`, { perMessageDeflate: false });
  await new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as { l: string };
      sink += m.l === '0.01' ? 1 : 0;
      lat[n] = Number(process.hrtime.bigint() - arrivals[n]!);
      n += 1;
      if (n === N) resolve();
    });
  });
  ws.terminate();
  if (sink !== N) throw new Error(`bare: ${sink} fills parsed, expected ${N}`);
  return lat;
}

/** Runs one warm-up round (not counted: the JIT settles), then prints each round's p50 and p99 of both paths, their ranges, and the summary line (the best round of each: p99 in µs). */
export async function run(): Promise<void> {
  const info = parseBrokerInfo(loadSample('broker-info.capture-2020').payload);
  const { wss, setFrames } = await serve();
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  await ours(url, 0, setFrames, info);
  await bare(url, 0, setFrames);
  const rounds: { ours50: number; ours99: number; bare50: number; bare99: number }[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const a = await ours(url, r, setFrames, info);
    const b = await bare(url, r, setFrames);
    const x = { ours50: pct(a, 0.5), ours99: pct(a, 0.99), bare50: pct(b, 0.5), bare99: pct(b, 0.99) };
    rounds.push(x);
    console.log(`round ${r}: frame arrival → onFill p50 ${x.ours50.toFixed(2)} µs, p99 ${x.ours99.toFixed(2)} µs; bare ws+JSON.parse p50 ${x.bare50.toFixed(2)} µs, p99 ${x.bare99.toFixed(2)} µs (${N} fills)`);
  }
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  const range = (k: keyof (typeof rounds)[number]): string => {
    const v = rounds.map((x) => x[k]);
    return `${Math.min(...v).toFixed(2)}–${Math.max(...v).toFixed(2)} µs`;
  };
  console.log(`over ${ROUNDS} rounds: onFill p50 ${range('ours50')}, p99 ${range('ours99')}; bare p50 ${range('bare50')}, p99 ${range('bare99')}`);
  const bestOurs = Math.min(...rounds.map((x) => x.ours99));
  const bestBare = Math.min(...rounds.map((x) => x.bare99));
  console.log(`bench report-to-strategy: ${bestOurs.toFixed(2)} µs p99 vs bare ws+JSON.parse ${bestBare.toFixed(2)} µs p99, ratio ${(bestOurs / bestBare).toFixed(2)}`);
}

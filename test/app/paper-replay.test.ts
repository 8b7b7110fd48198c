// Paper trading on a real recording: the committed Binance sample replayed by the simulated venue (market: replay) reaches a bot over REST and the market WebSocket as the same book, level by level, as a direct replay of the catalog.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { recordBook, recordTrade } from '../../src/backtest/run/replayed.ts';
import { ReplayMarket } from '../../src/app/replay-market.ts';
import { BacktestExchange } from '../../src/backtest/exchange/exchange.ts';
import { constantLatency } from '../../src/backtest/exchange/latency.ts';
import { queueModel } from '../../src/backtest/exchange/queue.ts';
import type { ExecutionReport } from '../../src/backtest/exchange/types.ts';
import { Decimal } from '../../src/core/fixed.ts';
import { decimalUnits } from '../../src/sim/engine/units.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { createLogger } from '../../src/core/logger.ts';
import { replay } from '../../src/data/replay.ts';
import type { BusEvent, Level } from '../../src/model/index.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { loadVenueConfig, parseVenueConfig, type VenueConfig } from '../../src/sim/server/config.ts';
import { startVenue, type RunningVenue } from '../../src/sim/server/start.ts';
import { MarketWsClient } from '../../src/venue/market-ws.ts';
import { VenueRestClient } from '../../src/venue/rest-client.ts';
import { UserStreamClient } from '../../src/venue/user-stream.ts';
import type { OrderUpdateEvent } from '../../src/model/events.ts';

const CATALOG = resolve('backtest/data/binance-samples');
/** The first recorded BTCUSDT book change of the sample (catalog.json), where the venue's replay starts by default. */
const FIRST_BOOK_NS = 1723161253937085768n;
const T0 = 1_800_000_000_000;
const KEY = 'tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW';
const SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
const LEVELS = 100;

/** Lets socket I/O run without moving virtual time; fails after `maxWallMs` (a hang, never a slow machine: nothing here waits on time). */
async function waitFor(what: string, probe: () => boolean, maxWallMs = 60_000): Promise<void> {
  const start = performance.now();
  while (!probe()) {
    if (performance.now() - start > maxWallMs) throw new Error(`${what}: not seen`);
    await new Promise<void>((r) => setImmediate(r));
  }
}

/** Returns when a recorded event is due on the venue's clock at speed 1: its offset from the first event, in whole ms (rounded up), after T0. */
function dueOf(us: number, firstUs: number): number {
  return T0 + Math.ceil((us - firstUs) / 1000);
}

/** Moves the venue's clock to `t`, a second at most at a time, each step only as far as the recording has been read. */
async function advanceReplay(clock: VirtualClock, market: ReplayMarket, t: number): Promise<void> {
  while (clock.now() < t) await clock.advanceTo(await market.readThrough(Math.min(t, clock.now() + 1000)));
}

/** The recording read straight from the catalog: each BTCUSDT event with its receive time (µs). */
async function directReplay(): Promise<{ ev: BusEvent; us: number }[]> {
  const out: { ev: BusEvent; us: number }[] = [];
  await replay({ catalog: CATALOG, symbols: ['BTCUSDT'], tables: ['book_deltas', 'trades'], from: FIRST_BOOK_NS, sink: (ev, us) => out.push({ ev, us }) });
  return out;
}

/** A book built from depth events by hand: a snapshot replaces it, a diff sets or removes levels. */
class DirectBook {
  private readonly sides = [new Map<string, string>(), new Map<string, string>()] as const;

  apply(ev: BusEvent): void {
    if (ev.kind !== 'depthSnapshot' && ev.kind !== 'depthUpdate') return;
    if (ev.kind === 'depthSnapshot') for (const s of this.sides) s.clear();
    for (const [i, levels] of [ev.bids, ev.asks].entries()) {
      for (const [p, q] of levels) {
        if (/^0(\.0*)?$/.test(q)) this.sides[i]!.delete(p);
        else this.sides[i]!.set(p, q);
      }
    }
  }

  /** Returns the best `n` levels of a side with the venue's number texts (the test compares texts, so it parses only to sort and to drop trailing zeros). */
  top(side: 0 | 1, n: number): Level[] {
    const norm = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
    return [...this.sides[side].entries()]
      .sort(([a], [b]) => (side === 0 ? Number(b) - Number(a) : Number(a) - Number(b)))
      .slice(0, n)
      .map(([p, q]) => [norm(p), norm(q)]);
  }
}

let venue: RunningVenue | undefined;
let ws: MarketWsClient | undefined;
let rest: VenueRestClient | undefined;
let user: UserStreamClient | undefined;
afterEach(async () => {
  await user?.stop();
  user = undefined;
  await ws?.stop();
  await rest?.close();
  await venue?.stop();
  ws = undefined;
  rest = undefined;
  venue = undefined;
});

/** Starts the committed paper venue (config/paper-venue.yaml) on a virtual clock with its replayed market. */
async function startPaperVenue(over: Partial<NonNullable<VenueConfig['market']>> = {}, window?: number, edit: (c: VenueConfig) => VenueConfig = (c) => c): Promise<{ clock: VirtualClock; market: ReplayMarket; logs: string[] }> {
  const config = edit(loadVenueConfig('config/paper-venue.yaml'));
  const clock = new VirtualClock(T0);
  const logs: string[] = [];
  const log = createLogger({ destination: { write: (line: string) => void logs.push((JSON.parse(line) as { msg: string }).msg) } });
  const market = new ReplayMarket({ ...config.market!, ...over }, clock, log, window);
  venue = await startVenue({ config, clock, host: '127.0.0.1', port: 0, feed: (v) => market.attach(v) });
  rest = new VenueRestClient({ baseUrl: venue.server.restUrl, apiKey: KEY, secret: SECRET, clock });
  return { clock, market, logs };
}

describe('paper trading on the committed recording', () => {
  it('serves a bot over REST and the market WebSocket the same book, level by level, as a direct replay of the catalog at the same instants', async () => {
    const recording = await directReplay();
    const firstUs = recording[0]!.us;
    const { clock, market } = await startPaperVenue();
    ws = new MarketWsClient({ wsUrl: venue!.server.wsUrl, clock, sink: () => undefined, backoff: { initialMs: 200, maxMs: 2000, seed: 7 } });
    const book = ws.watchBook('BTCUSDT');
    ws.start();
    await waitFor('market socket ready', () => ws!.state === 'ready');

    const direct = new DirectBook();
    let next = 0;
    let compared = 0;
    // Instants on the venue's 300 ms diff cadence (its pushes start when the socket connects at T0): every 3 s through the recording.
    const endUs = recording[recording.length - 1]!.us;
    for (let t = T0 + 3000; T0 + (endUs - firstUs) / 1000 + 3000 > t; t += 3000) {
      await advanceReplay(clock, market, t);
      // The recorded events the venue's clock has reached: due at T0 + (receive time − first receive time) in whole ms, speed 1.
      while (next < recording.length && dueOf(recording[next]!.us, firstUs) <= t) direct.apply(recording[next++]!.ev);
      const want = { bids: direct.top(0, LEVELS), asks: direct.top(1, LEVELS) };
      const got = await rest!.depth({ symbol: 'BTCUSDT', limit: LEVELS });
      expect({ at: t, bids: got.bids, asks: got.asks }).toEqual({ at: t, ...want });
      // The push at this instant reaches the bot's own book (built from the snapshot and every diff since).
      await waitFor(`the bot's book at ${t}`, () => JSON.stringify(book.bids(LEVELS)) === JSON.stringify(want.bids) && JSON.stringify(book.asks(LEVELS)) === JSON.stringify(want.asks), 30_000)
        .catch(() => expect({ at: t, bids: book.bids(LEVELS), asks: book.asks(LEVELS) }).toEqual({ at: t, ...want }));
      compared++;
    }
    expect(next).toBe(recording.length);
    expect(compared).toBeGreaterThanOrEqual(39);
    expect(book.stats().gaps).toBe(0);
  });
});

/** Returns a balance of the paper account as exact decimals. */
async function balance(asset: string): Promise<{ free: Decimal; locked: Decimal }> {
  const b = (await rest!.spotAccount()).balances.find((x) => x.asset === asset)!;
  return { free: new Decimal(b.free), locked: new Decimal(b.locked) };
}

describe('orders on the replayed market', () => {
  it('fills a marketable order from the recorded levels at the taker fee, reports it on the user stream, takes that liquidity until the level changes, and leaves the public book the recording', async () => {
    const { clock, market } = await startPaperVenue();
    await advanceReplay(clock, market, T0 + 20_000);
    const before = await rest!.depth({ symbol: 'BTCUSDT', limit: 20 });
    // The deepest ask level the account can pay for with all the levels before it: the order walks them all.
    let k = -1;
    let cost = new Decimal(0);
    for (const [p, q] of before.asks) {
      const next = cost.plus(new Decimal(p).times(q));
      if (next.greaterThan('900000')) break;
      cost = next;
      k++;
    }
    expect(k).toBeGreaterThanOrEqual(0);
    const walked = before.asks.slice(0, k + 1);
    const [askPrice] = walked[k]!;
    const bought = walked.reduce((a, [, q]) => a.plus(q), new Decimal(0));
    const usdt = await balance('USDT');
    const btc = await balance('BTC');
    const reports: OrderUpdateEvent[] = [];
    user = new UserStreamClient({ rest: rest!, wsUrl: venue!.server.wsUrl, clock, sink: (ev) => void (ev.kind === 'order' && reports.push(ev)), backoff: { initialMs: 200, maxMs: 2000, seed: 5 } });
    await user.start();
    await waitFor('user stream ready', () => user!.state === 'ready');

    const ack = await rest!.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: bought.plus('0.001').toString(), price: askPrice, newClientOrderId: 'walk-1' });
    // The order reaches the matcher on the venue's clock (no latency): time does not move past this instant.
    await clock.advance(0);
    const order = await rest!.getSpotOrder({ orderId: ack.orderId });
    expect(order.status).toBe('CANCELED');
    expect(new Decimal(order.executedQty).equals(bought)).toBe(true);
    const fills = await rest!.spotMyTrades({ symbol: 'BTCUSDT', limit: 1000 });
    // One fill per recorded level, at its price and its whole recorded size, as a taker.
    expect(fills.map((f) => [f.price, f.qty]).sort()).toEqual(walked.map(([p, q]) => [p, q]).sort());
    for (const f of fills) {
      expect(f).toMatchObject({ orderId: ack.orderId, isBuyer: true, isMaker: false, commissionAsset: 'BTC' });
      // The demo account's taker fee (0.001), paid in the base bought.
      expect(new Decimal(f.commission).equals(new Decimal(f.qty).times('0.001'))).toBe(true);
    }
    const fees = fills.reduce((a, f) => a.plus(f.commission), new Decimal(0));
    // The quote paid is exactly the sum of price × quantity; nothing stays locked after the IOC ends.
    expect((await balance('USDT')).free.equals(usdt.free.minus(cost))).toBe(true);
    expect((await balance('BTC')).free.equals(btc.free.plus(bought).minus(fees))).toBe(true);
    expect((await balance('USDT')).locked.isZero()).toBe(true);
    // The user data stream reports each fill and the end, as the venue does for any order.
    await waitFor('the order ends on the user stream', () => reports.some((r) => r.clientOrderId === 'walk-1' && r.status === 'CANCELED'));
    const streamed = reports.filter((r) => r.clientOrderId === 'walk-1' && new Decimal(r.lastQty).greaterThan(0));
    expect(streamed.map((r) => [r.lastPrice, r.lastQty]).sort()).toEqual(walked.map(([p, q]) => [p, q]).sort());

    // At the same instant the level's recorded size is taken: a second order finds nothing there.
    const again = await rest!.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.001', price: askPrice });
    await clock.advance(0);
    expect(await rest!.getSpotOrder({ orderId: again.orderId })).toMatchObject({ status: 'CANCELED', executedQty: '0' });
    // The public book is the recording's: the bot's fills do not change it.
    expect((await rest!.depth({ symbol: 'BTCUSDT', limit: 20 })).asks).toEqual(before.asks);
  });

  it.each([{ model: 'log' as const }, { model: 'risk-averse' as const }, { model: 'power' as const, n: 3 }])('fills resting orders exactly as the backtester would on the same recording (queue position, trades through the price): queue model %o', async (spec) => {
    const recording = await directReplay();
    const firstUs = recording[0]!.us;
    const { clock, market } = await startPaperVenue({ queue: spec });
    // Early in the recording: the orders rest, trades at their prices eat the queue ahead, some fill in parts.
    const placedAt = T0 + 3000;
    await advanceReplay(clock, market, placedAt);
    const book = await rest!.depth({ symbol: 'BTCUSDT', limit: 5 });
    const orders = [
      { side: 'BUY' as const, price: book.bids[0]![0], quantity: '0.8' },
      { side: 'SELL' as const, price: book.asks[0]![0], quantity: '1.5' },
      { side: 'BUY' as const, price: book.bids[2]![0], quantity: '0.3' },
      { side: 'SELL' as const, price: book.asks[4]![0], quantity: '2' },
    ];
    const ids: string[] = [];
    for (const o of orders) ids.push((await rest!.newSpotOrder({ symbol: 'BTCUSDT', type: 'LIMIT', timeInForce: 'GTC', ...o })).orderId);
    const endAt = T0 + Math.ceil((recording[recording.length - 1]!.us - firstUs) / 1000) + 1000;
    await advanceReplay(clock, market, endAt);
    // Per order, in the order they happened (trade ids increase).
    const venueFills = [...(await rest!.spotMyTrades({ symbol: 'BTCUSDT', limit: 1000 }))]
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
      .map((f) => ({ order: ids.indexOf(f.orderId), price: f.price, qty: f.qty, isMaker: f.isMaker }))
      .sort((a, b) => a.order - b.order);

    // The backtester's exchange fed the same recording, the same orders arriving at the same instant.
    const inst = venue!.backend.venue.instrument('BTCUSDT')!;
    const vclock = new VirtualClock(T0);
    const reports: ExecutionReport[] = [];
    const ex = new BacktestExchange({ clock: vclock, inst, queue: queueModel(spec), latency: constantLatency(0, 0), onReport: (r) => reports.push(r) });
    let placed = false;
    for (const { ev, us } of recording) {
      const due = dueOf(us, firstUs);
      if (!placed && due > placedAt) {
        vclock.advanceToSync(placedAt);
        orders.forEach((o, i) => ex.submit({ clientOrderId: String(i), side: o.side, type: 'LIMIT', timeInForce: 'GTC', priceTicks: decimalUnits(o.price, inst.tick), lots: decimalUnits(o.quantity, inst.step) }));
        placed = true;
      }
      vclock.advanceToSync(due);
      if (ev.kind === 'trade') recordTrade(ev, inst, ex);
      else if (ev.kind === 'depthSnapshot' || ev.kind === 'depthUpdate') recordBook(ev, inst, (side) => ex.book.levels(side), ex);
    }
    vclock.advanceToSync(endAt);
    const backtestFills = reports.filter((r) => r.execType === 'TRADE')
      .map((r) => ({ order: Number(r.clientOrderId), price: inst.priceText(r.lastPriceTicks), qty: inst.qtyText(r.lastLots), isMaker: r.isMaker }))
      .sort((a, b) => a.order - b.order);

    // Not a trivial run: some order filled in parts as the recorded trades reached it in the queue.
    expect(orders.some((_, i) => backtestFills.filter((f) => f.order === i).length > 1)).toBe(true);
    expect(venueFills).toEqual(backtestFills);
    const statuses = await Promise.all(ids.map((orderId) => rest!.getSpotOrder({ orderId })));
    for (const [i, s] of statuses.entries()) {
      const filled = backtestFills.filter((f) => f.order === i).reduce((a, f) => a.plus(f.qty), new Decimal(0));
      expect(new Decimal(s.executedQty).equals(filled)).toBe(true);
      expect(s.status).toBe(filled.equals(orders[i]!.quantity) ? 'FILLED' : filled.isZero() ? 'NEW' : 'PARTIALLY_FILLED');
    }
  });
});

describe('trades and klines of the replayed market', () => {
  it('serves the recorded trades, and 1m klines built from them on the venue clock', async () => {
    const recording = await directReplay();
    const firstUs = recording[0]!.us;
    const trades = recording.flatMap(({ ev, us }) => (ev.kind === 'trade' ? [{ ev, at: dueOf(us, firstUs) }] : []));
    const { clock, market } = await startPaperVenue();
    await advanceReplay(clock, market, dueOf(recording[recording.length - 1]!.us, firstUs) + 1000);
    // The venue keeps its latest public trades: the recording's last ones, in order, taker side as the buyer-maker flag.
    const served = await rest!.trades({ symbol: 'BTCUSDT', limit: 1000 });
    const last = trades.slice(-served.length);
    expect(served.length).toBe(Math.min(1000, trades.length));
    expect(served.map((t) => [t.price, t.qty, t.time, t.isBuyerMaker])).toEqual(last.map(({ ev, at }) => [ev.price, ev.qty, at, ev.takerSide === 'SELL']));
    // Each minute of the venue's clock: open, high, low, close and volume of the recorded trades in it.
    const bars = new Map<number, { o: string; h: Decimal; l: Decimal; c: string; v: Decimal }>();
    for (const { ev, at } of trades) {
      const m = at - (at % 60_000);
      const b = bars.get(m);
      const p = new Decimal(ev.price);
      if (!b) bars.set(m, { o: ev.price, h: p, l: p, c: ev.price, v: new Decimal(ev.qty) });
      else bars.set(m, { o: b.o, h: Decimal.max(b.h, p), l: Decimal.min(b.l, p), c: ev.price, v: b.v.plus(ev.qty) });
    }
    const klines = await rest!.klines({ symbol: 'BTCUSDT', interval: '1m', limit: 1000 });
    expect(klines.map((k) => [k.openTime, k.open, k.high, k.low, k.close, new Decimal(k.volume).toString()]))
      .toEqual([...bars.entries()].map(([m, b]) => [m, b.o, b.h.toString(), b.l.toString(), b.c, b.v.toString()]));
    expect(klines.length).toBeGreaterThanOrEqual(2);
  });
});

describe('cancels and market orders on the replayed market', () => {
  it('a cancelled resting order gets its funds back at once and no later recorded trade fills it; a MARKET BUY spends its amount on the recorded asks', async () => {
    const { clock, market } = await startPaperVenue();
    await advanceReplay(clock, market, T0 + 3000);
    const usdt = await balance('USDT');
    const book = await rest!.depth({ symbol: 'BTCUSDT', limit: 5 });
    // The same resting bid that fills in parts in the test above, cancelled before time moves.
    const bid = await rest!.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.8', price: book.bids[0]![0] });
    expect((await balance('USDT')).locked.equals(new Decimal(book.bids[0]![0]).times('0.8'))).toBe(true);
    await rest!.cancelSpotOrder({ orderId: bid.orderId });
    expect((await balance('USDT')).free.equals(usdt.free)).toBe(true);
    await advanceReplay(clock, market, T0 + 60_000);
    expect(await rest!.getSpotOrder({ orderId: bid.orderId })).toMatchObject({ status: 'CANCELED', executedQty: '0' });
    expect(await rest!.spotMyTrades({ symbol: 'BTCUSDT' })).toEqual([]);

    const asks = (await rest!.depth({ symbol: 'BTCUSDT', limit: 5 })).asks;
    const before = await balance('USDT');
    const buy = await rest!.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1000' });
    await clock.advance(0);
    const o = await rest!.getSpotOrder({ orderId: buy.orderId });
    expect(o.status).toBe('FILLED');
    const fills = await rest!.spotMyTrades({ symbol: 'BTCUSDT' });
    expect(fills.length).toBeGreaterThan(0);
    // At the best recorded ask (or the next ones), paying at most the amount; what it did not spend is free again.
    for (const f of fills) expect(asks.map(([p]) => p)).toContain(f.price);
    const paid = fills.reduce((a, f) => a.plus(new Decimal(f.price).times(f.qty)), new Decimal(0));
    expect(paid.lessThanOrEqualTo(1000)).toBe(true);
    expect((await balance('USDT')).free.equals(before.free.minus(paid))).toBe(true);
    expect((await balance('USDT')).locked.isZero()).toBe(true);
  });
});

describe('contracts on a replayed index', () => {
  it('set the index of a replayed spot symbol to its recorded mid, so their marks follow the recording', async () => {
    const swap = loadVenueConfig('config/venue.yaml').instruments.contracts.find((k) => k.symbol === 'BTC-SWAP-USDT')!;
    const { clock, market } = await startPaperVenue({}, undefined, (c) => ({ ...c, instruments: { ...c.instruments, contracts: [{ ...swap, initialPrice: undefined }] } }));
    for (const t of [T0 + 5000, T0 + 30_000, T0 + 90_000]) {
      await advanceReplay(clock, market, t);
      const book = await rest!.depth({ symbol: 'BTCUSDT', limit: 1 });
      const mid = new Decimal(book.bids[0]![0]).plus(book.asks[0]![0]).div(2);
      const index = await rest!.contractIndex({ symbols: 'BTCUSDT' });
      expect(new Decimal(index.index['BTCUSDT']!).equals(mid)).toBe(true);
    }
  });
});

describe('reading ahead', () => {
  it('holds at most a window of recorded events ahead of the clock, and serves the same book with a small window as with the default', async () => {
    const recording = await directReplay();
    const direct = new DirectBook();
    for (const { ev } of recording) direct.apply(ev);
    const { clock, market } = await startPaperVenue({ speed: 20 }, 64);
    let most = 0;
    const end = dueOf(recording[recording.length - 1]!.us, recording[0]!.us);
    while (clock.now() < T0 + (end - T0) / 20 + 1000) {
      const through = await market.readThrough(clock.now() + 1000);
      most = Math.max(most, market.buffered);
      await clock.advanceTo(through);
    }
    expect(most).toBeLessThanOrEqual(64 + 200);
    const got = await rest!.depth({ symbol: 'BTCUSDT', limit: LEVELS });
    expect({ bids: got.bids, asks: got.asks }).toEqual({ bids: direct.top(0, LEVELS), asks: direct.top(1, LEVELS) });
  });
});

describe('the end of the recording', () => {
  it('atEnd: stop — the venue says the recording ended, `ended` resolves, and the market stands still with its last book', async () => {
    const { clock, market, logs } = await startPaperVenue({ speed: 10 });
    let ended = false;
    void market.ended.then(() => {
      ended = true;
    });
    // About 119 s of recording at 10× is about 12 s of the venue's clock.
    await advanceReplay(clock, market, T0 + 10_000);
    expect(ended).toBe(false);
    await advanceReplay(clock, market, T0 + 13_000);
    await market.ended;
    expect(logs).toContain('the replayed recording has ended');
    const book = await rest!.depth({ symbol: 'BTCUSDT', limit: 20 });
    const trades = await rest!.trades({ symbol: 'BTCUSDT', limit: 1000 });
    expect(book.bids.length).toBe(20);
    await clock.advance(60_000);
    expect(await rest!.depth({ symbol: 'BTCUSDT', limit: 20 })).toMatchObject({ bids: book.bids, asks: book.asks });
    expect(await rest!.trades({ symbol: 'BTCUSDT', limit: 1000 })).toEqual(trades);
    expect(market.pass).toBe(1);
  });

  it('atEnd: loop — the venue says the recording ended and plays it again from the start: the same book at the same offset', async () => {
    const { clock, market, logs } = await startPaperVenue({ speed: 10, atEnd: 'loop' });
    await advanceReplay(clock, market, T0 + 2000);
    const first = await rest!.depth({ symbol: 'BTCUSDT', limit: 50 });
    while (market.pass < 2) await advanceReplay(clock, market, clock.now() + 1000);
    expect(logs).toContain('the replayed recording has ended');
    // The second pass started when the first pass's last event was applied: about 119 s of recording at 10×.
    const restart = market.passStartedAt;
    expect(restart - T0).toBeGreaterThan(11_000);
    expect(restart - T0).toBeLessThan(13_000);
    await advanceReplay(clock, market, restart + 2000);
    const again = await rest!.depth({ symbol: 'BTCUSDT', limit: 50 });
    expect({ bids: again.bids, asks: again.asks }).toEqual({ bids: first.bids, asks: first.asks });
  });
});

describe('the market: keys', () => {
  const raw = (): Record<string, unknown> => parseYaml(readFileSync('config/paper-venue.yaml', 'utf8')) as Record<string, unknown>;
  const pathOf = (f: () => unknown): string | undefined => {
    try {
      f();
      return undefined;
    } catch (e) {
      return e instanceof ConfigError ? e.path : `not a ConfigError: ${String(e)}`;
    }
  };

  it('refuses at start-up, naming the key: a state file beside a replay, a symbol that is not spot, a from that is no time', () => {
    const r = raw();
    const market = r['market'] as Record<string, unknown>;
    expect(pathOf(() => parseVenueConfig({ ...r, server: { stateFile: 'x.json' } }))).toBe('market');
    expect(pathOf(() => parseVenueConfig({ ...r, market: { ...market, symbols: ['ETHUSDT'] } }))).toBe('market.symbols[0]');
    expect(pathOf(() => parseVenueConfig({ ...r, market: { ...market, from: 'yesterday' } }))).toBe('market.from');
    expect(pathOf(() => parseVenueConfig({ ...r, market: { ...market, speed: 0 } }))).toBe('market.speed');
    expect(pathOf(() => parseVenueConfig({ ...r, market: { ...market, atEnd: 'rewind' } }))).toBe('market.atEnd');
    // A relative catalog is taken from the config file's folder.
    expect(loadVenueConfig('config/paper-venue.yaml').market!.replay).toBe(CATALOG);
  });

  it('refuses a venue whose tick or step cannot hold the recorded prices and sizes (config/venue.yaml steps BTCUSDT by 0.000001, the recording by 0.00000001)', async () => {
    const config = parseVenueConfig({ ...(parseYaml(readFileSync('config/venue.yaml', 'utf8')) as Record<string, unknown>), market: { replay: CATALOG } });
    const clock = new VirtualClock(T0);
    const market = new ReplayMarket(config.market!, clock, createLogger({ level: 'silent' }));
    const err = await startVenue({ config, clock, host: '127.0.0.1', port: 0, feed: (v) => market.attach(v) }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toMatch(/market\.replay: BTCUSDT: the catalog's tick 0\.01 and lot 0\.00000001 must be multiples of the venue's tickSize 0\.01 and stepSize 0\.000001/);
  });

  it('refuses a from after the end of the recording, naming market.from and the span recorded, instead of a run that ends at once', async () => {
    const config = loadVenueConfig('config/paper-venue.yaml');
    const clock = new VirtualClock(T0);
    const market = new ReplayMarket({ ...config.market!, from: '2024-08-08T23:59:00Z' }, clock, createLogger({ level: 'silent' }));
    const err = await startVenue({ config, clock, host: '127.0.0.1', port: 0, feed: (v) => market.attach(v) }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toBe('market.from: 2024-08-08T23:59:00Z is after the end of the recording: its last BTCUSDT book change or trade is at 2024-08-08T23:56:12.991Z');
  });

  it('refuses a catalog folder that is not one, naming market.replay', async () => {
    const config = loadVenueConfig('config/paper-venue.yaml');
    const clock = new VirtualClock(T0);
    const market = new ReplayMarket({ ...config.market!, replay: resolve('config') }, clock, createLogger({ level: 'silent' }));
    const err = await startVenue({ config, clock, host: '127.0.0.1', port: 0, feed: (v) => market.attach(v) }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).path).toBe('market.replay');
    expect((err as ConfigError).message).toMatch(/catalog\.json.*is missing: not a catalog folder/);
  });
});

describe('bhtrade run on a replayed recording', () => {
  it('runs the market maker on the committed sample, says when the recording ends, stops by itself and prints the summary (exit 0)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bhtrade-paper-'));
    try {
      const venueCfg = parseYaml(readFileSync('config/paper-venue.yaml', 'utf8')) as Record<string, unknown>;
      // 50× faster than real time: the two recorded minutes take about 2.4 s of the wall clock.
      writeFileSync(join(dir, 'paper-venue.yaml'), toYaml({ ...venueCfg, market: { replay: CATALOG, speed: 50, atEnd: 'stop' } }));
      const runCfg = parseYaml(readFileSync('config/paper.yaml', 'utf8')) as { strategies: { use: string }[] };
      const strategies = runCfg.strategies.map((s) => ({ ...s, use: resolve('config', s.use) }));
      writeFileSync(join(dir, 'paper.yaml'), toYaml({ ...runCfg, strategies }));
      const r = spawnSync(process.execPath, [resolve('bin/bhtrade.js'), 'run', join(dir, 'paper.yaml')], { encoding: 'utf8', timeout: 100_000 });
      const msgs = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => (JSON.parse(l) as { msg: string }).msg);
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
      const ended = msgs.indexOf('the replayed recording has ended');
      expect(ended).toBeGreaterThan(-1);
      expect(msgs.slice(ended)).toContain('stopping');
      expect(msgs.some((m) => m.startsWith('summary mm[stopped]: orders='))).toBe(true);
      expect(msgs[msgs.length - 1]).toBe('stopped');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the venue config file of a bad market key, not only the run config that points to it (exit 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bhtrade-paper-'));
    try {
      const venueCfg = parseYaml(readFileSync('config/paper-venue.yaml', 'utf8')) as Record<string, unknown>;
      const runCfg = parseYaml(readFileSync('config/paper.yaml', 'utf8')) as { strategies: { use: string }[] };
      writeFileSync(join(dir, 'paper.yaml'), toYaml({ ...runCfg, strategies: runCfg.strategies.map((s) => ({ ...s, use: resolve('config', s.use) })) }));
      const run = (market: Record<string, unknown>) => {
        writeFileSync(join(dir, 'paper-venue.yaml'), toYaml({ ...venueCfg, market: { replay: CATALOG, ...market } }));
        return spawnSync(process.execPath, [resolve('bin/bhtrade.js'), 'run', join(dir, 'paper.yaml')], { encoding: 'utf8', timeout: 100_000 });
      };
      // One refused as the file is read, one as the replay starts.
      const speed = run({ speed: 0 });
      expect(speed.stderr).toBe(`bhtrade run: ${join(dir, 'paper.yaml')}: embedded.config paper-venue.yaml: market.speed: Too small: expected number to be >0\n`);
      expect(speed.status).toBe(2);
      const late = run({ from: '2024-08-08T23:59:00Z' });
      expect(late.stderr).toBe(`bhtrade run: ${join(dir, 'paper.yaml')}: embedded.config paper-venue.yaml: market.from: 2024-08-08T23:59:00Z is after the end of the recording: its last BTCUSDT book change or trade is at 2024-08-08T23:56:12.991Z\n`);
      expect(late.status).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

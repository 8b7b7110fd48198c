// Every market event a strategy declares reaches it on an embedded run: klines, tickers, funding, the index of its contract and book diffs, each within the first minute, and nothing it did not ask for.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveClock } from '../../src/core/clock.ts';
import { createLogger } from '../../src/core/logger.ts';
import { parseRunConfig } from '../../src/app/config.ts';
import { startApp, type RunningApp } from '../../src/app/run.ts';
import { loadVenueConfig, type VenueConfig } from '../../src/sim/server/config.ts';
import { VenueRestClient } from '../../src/venue/rest-client.ts';
import { ROOT } from './scenario.ts';

const TAKER = { apiKey: 'E'.repeat(64), secret: 'taker-secret-00000004' };

/** config/venue.yaml with no market agents (nothing moves unless the test moves it) and a second account to trade against. */
function quietVenue(): VenueConfig {
  const c = loadVenueConfig(join(ROOT, 'config/venue.yaml'));
  const demo = c.accounts[0]!;
  const taker = { ...demo, name: 'taker', keys: [{ ...demo.keys[0]!, ...TAKER }], subAccounts: [] };
  return { ...c, agents: [], accounts: [...c.accounts, taker] };
}

interface Seen { strategy: string; msg: string; kind?: string; symbol?: string; interval?: string; ev?: Record<string, unknown>; klines?: number; trades?: number }

/** A log that resolves waiters as the strategies' lines arrive. */
function watchedLog() {
  const lines: Seen[] = [];
  const waiters: { test: (l: Seen) => boolean; resolve: (l: Seen) => void }[] = [];
  const log = createLogger({
    level: 'info',
    destination: {
      write: (s: string) => {
        const l = JSON.parse(s) as Seen;
        lines.push(l);
        for (const w of [...waiters]) if (w.test(l)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(l); }
      },
    },
  });
  /** Resolves with the first line (already logged or to come) that passes `test`; rejects after `ms` (a hang, not a speed limit). */
  const first = (what: string, test: (l: Seen) => boolean, ms = 60_000): Promise<Seen> => {
    const done = lines.find(test);
    if (done) return Promise.resolve(done);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
      waiters.push({ test, resolve: (l) => { clearTimeout(timer); resolve(l); } });
    });
  };
  return { log, lines, first };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('declared market streams on an embedded run', () => {
  it('a strategy asking for klines, tickers, funding, index and diffs receives each, and only what it asked for', async () => {
    const { log, lines, first } = watchedLog();
    const probe = join(ROOT, 'test/app/fixtures/stream-probe.ts');
    const config = parseRunConfig({
      venue: 'embedded',
      strategies: [
        { id: 'spot', use: probe, symbols: ['BTCUSDT'], streams: { depth: 'diff', trades: true, klines: ['1m'], ticker: true } },
        { id: 'perp', use: probe, symbols: ['BTC-PERP-REV'], streams: { depth: 'none', trades: false, index: true, funding: true } },
      ],
      reconcile: { every: '1h' },
      status: { every: '1h' },
    });
    const app: RunningApp = await startApp({ config, baseDir: ROOT }, { log, venueConfig: quietVenue() });
    cleanups.push(() => app.stop('test over'));
    const got = (strategy: string, kind: string, extra: (l: Seen) => boolean = () => true) =>
      first(`${kind} for ${strategy}`, (l) => l.strategy === strategy && l.msg === 'probe event' && l.kind === kind && extra(l));

    // The contract's index is BTCUSDT's: the venue has one once it is set (its agents, here off, would move it).
    app.embedded!.venue.backend.venue.setIndexPrice('BTCUSDT', '30000');
    // One trade between two accounts on the quiet book: a resting sell (a book diff), then a buy that takes it (a trade, a candle, a ticker).
    const taker = new VenueRestClient({ baseUrl: app.embedded!.endpoint.rest, apiKey: TAKER.apiKey, secret: TAKER.secret, clock: new LiveClock() });
    cleanups.push(() => taker.close());
    const snapshot = await got('spot', 'depthSnapshot');
    await taker.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '30000', newClientOrderId: 'probe-sell' });
    const diff = await got('spot', 'depthUpdate', (l) => JSON.stringify(l.ev?.['asks']).includes('30000'));
    await app.rest.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '30000', newClientOrderId: 'probe-buy' });

    const [kline, ticker, index, funding, trade, history] = await Promise.all([
      got('spot', 'kline', (l) => l.ev?.['close'] === '30000'),
      got('spot', 'ticker'),
      got('perp', 'index', (l) => l.ev?.['index'] === '30000'),
      got('perp', 'funding'),
      got('spot', 'trade'),
      first('history', (l) => l.strategy === 'spot' && l.msg === 'probe history'),
    ]);
    expect(snapshot.symbol).toBe('BTCUSDT');
    expect(diff.symbol).toBe('BTCUSDT');
    expect(kline).toMatchObject({ symbol: 'BTCUSDT', interval: '1m' });
    expect(ticker.symbol).toBe('BTCUSDT');
    // The index event carries the index's symbol and reaches the contract's strategy.
    expect(index.symbol).toBe('BTCUSDT');
    expect(funding.symbol).toBe('BTC-PERP-REV');
    expect(funding.ev).toMatchObject({ rate: '0.0001' });
    expect(trade.ev).toMatchObject({ price: '30000', qty: '0.001' });
    // Warm-up history read through REST sees the trade and its candle.
    expect(history).toMatchObject({ klines: 1, trades: 1 });

    // Nothing undeclared: the spot strategy gets no index or funding (BTCUSDT's index is the contract's), the contract strategy no book, trades or candles.
    const kinds = (s: string) => new Set(lines.filter((l) => l.strategy === s && l.msg === 'probe event').map((l) => l.kind));
    expect([...kinds('spot')].filter((k) => k === 'index' || k === 'funding')).toEqual([]);
    expect([...kinds('perp')].filter((k) => k !== 'index' && k !== 'funding')).toEqual([]);
  }, 90_000);

  it('a strategy that reads only klines on a venue with no trade yet has its orders priced: the bot follows trades for the risk gate without delivering them', async () => {
    const { log, lines, first } = watchedLog();
    const config = parseRunConfig({
      venue: 'embedded',
      strategies: [{ id: 'bars', use: join(ROOT, 'test/app/fixtures/kline-orders.ts'), symbols: ['BTCUSDT'] }],
      reconcile: { every: '1h' },
      status: { every: '1h' },
    });
    const app: RunningApp = await startApp({ config, baseDir: ROOT }, { log, venueConfig: quietVenue() });
    cleanups.push(() => app.stop('test over'));
    const taker = new VenueRestClient({ baseUrl: app.embedded!.endpoint.rest, apiKey: TAKER.apiKey, secret: TAKER.secret, clock: new LiveClock() });
    cleanups.push(() => taker.close());
    const trades: { price: string; at: number }[] = [];
    const waiting: (() => void)[] = [];
    const sub = app.bus.on('trade').subscribe((t) => {
      trades.push({ price: t.price, at: lines.length });
      waiting.splice(0).forEach((w) => w());
    });
    cleanups.push(() => sub.unsubscribe());
    /** Resolves with the bot's n-th trade event; rejects after 60 s (a trade the bot never follows, not a speed limit). */
    const nthTrade = (n: number): Promise<{ price: string; at: number }> => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the bot's bus carried ${trades.length} trades, not ${n}, within 60 s`)), 60_000);
      const check = (): void => {
        if (trades.length < n) return void waiting.push(check);
        clearTimeout(timer);
        resolve(trades[n - 1]!);
      };
      check();
    });
    /** One trade between the taker and another account: a resting sell the demo account's buy takes. */
    const trade = async (n: number, price: string): Promise<void> => {
      await taker.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.001', price, newClientOrderId: `feed-sell-${n}` });
      await app.rest.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price, newClientOrderId: `feed-buy-${n}` });
    };
    await trade(1, '30000');
    const first1 = await nthTrade(1);
    expect(first1.price).toBe('30000');
    await trade(2, '30010');
    const second = await nthTrade(2);
    // Every order the strategy placed after the bot had seen a trade is priced: the gate lets it through to the venue.
    const placedAfter = await first('an order placed after the second trade', (l) => l.strategy === 'bars' && l.msg === 'placed' && lines.indexOf(l) >= second.at);
    const id = (placedAfter as Seen & { clientOrderId: string }).clientOrderId;
    const outcome = await first(`the outcome of ${id}`, (l) => (l.msg === 'accepted' || l.msg === 'refused') && (l as Seen & { clientOrderId?: string }).clientOrderId === id);
    expect(outcome).toMatchObject({ msg: 'accepted' });
    expect(app.portfolio.price('BTCUSDT')?.last).toBe('30010');
    // The strategy declared no trades: it gets none, though the bot follows them.
    expect(lines.filter((l) => l.msg === 'trade delivered')).toEqual([]);
  }, 90_000);

  it('a bad streams entry in the config stops at start-up naming its key', () => {
    const entry = { id: 'x', use: 'x.ts', symbols: ['BTCUSDT'] };
    expect(() => parseRunConfig({ venue: 'embedded', strategies: [{ ...entry, streams: { klines: ['2m'] } }] })).toThrow(/^strategies\[0\]\.streams\.klines\[0\]: /);
    expect(() => parseRunConfig({ venue: 'embedded', strategies: [{ ...entry, streams: { book: 'diff' } }] })).toThrow('strategies[0].streams.book: unknown key');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.ts';
import { RestPoller, type PollPlan } from '../../../src/venue/rest-poller.ts';
import { limit, Recorder, startVenueOnClock, T0, until, type Venue } from './helpers.ts';

let v: Venue | undefined;
let poller: RestPoller | undefined;
afterEach(async () => {
  poller?.stop();
  await v?.close();
  poller = undefined;
  v = undefined;
});

describe('REST polling source against the simulated venue', () => {
  it('publishes depth, each trade once, klines open then closed, and tickers, at each kind\'s period', async () => {
    v = await startVenueOnClock();
    const venue = v;
    const rec = new Recorder();
    const plan: PollPlan = { symbol: 'ETHBTC', depth: { everyMs: 1_000 }, trades: { everyMs: 1_000 }, klines: { everyMs: 5_000, interval: '1m' }, ticker: { everyMs: 10_000 } };
    poller = new RestPoller({ rest: venue.maker, clock: venue.clock, sink: rec.sink, plans: [plan] });
    await limit(venue.maker, 'ETHBTC', 'SELL', '5', '0.05');
    await limit(venue.taker, 'ETHBTC', 'BUY', '1', '0.05');
    await limit(venue.taker, 'ETHBTC', 'BUY', '1', '0.05');
    poller.start();
    await until(venue.clock, 'first polls', () => rec.of('depthSnapshot').length > 0 && rec.of('trade').length === 2 && rec.of('kline').length > 0 && rec.of('ticker').length > 0);
    expect(rec.of('depthSnapshot')[0]).toMatchObject({ symbol: 'ETHBTC', asks: [['0.05', '3']], bids: [] });
    // Two trades of the same time, price and quantity are two trades, each published once across polls.
    expect(rec.of('trade').map((t) => [t.price, t.qty, t.takerSide])).toEqual([['0.05', '1', 'BUY'], ['0.05', '1', 'BUY']]);
    expect(new Set(rec.of('trade').map((t) => t.tradeId)).size).toBe(2);
    expect(rec.of('kline')[0]).toMatchObject({ interval: '1m', openTime: T0, open: '0.05', close: '0.05', volume: '2', closed: false });
    expect(rec.of('ticker')[0]).toMatchObject({ symbol: 'ETHBTC', last: '0.05' });

    await until(venue.clock, 'a few more polls', () => venue.clock.now() >= T0 + 5_000);
    expect(rec.of('trade')).toHaveLength(2);
    await limit(venue.taker, 'ETHBTC', 'BUY', '1', '0.05');
    await until(venue.clock, 'the third trade', () => rec.of('trade').length === 3);
    await until(venue.clock, 'the open kline updated', () => rec.of('kline').some((k) => k.volume === '3' && !k.closed));

    // A trade in the next minute starts a new candle: the old one is published once more, closed.
    await until(venue.clock, 'next minute', () => venue.clock.now() >= T0 + 60_000, { stepMs: 500 });
    await limit(venue.taker, 'ETHBTC', 'BUY', '1', '0.05');
    const closed = await until(venue.clock, 'closed kline', () => rec.of('kline').find((k) => k.closed));
    expect(closed).toMatchObject({ openTime: T0, volume: '3', closed: true });
    await until(venue.clock, 'new open kline', () => rec.of('kline').some((k) => k.openTime === T0 + 60_000 && !k.closed));
    expect(rec.of('kline').filter((k) => k.closed)).toHaveLength(1);
    expect(poller.failed).toBe(0);
  });

  it('publishes a contract\'s funding rate at the first poll, then only when the rate or its interval changes', async () => {
    v = await startVenueOnClock();
    const venue = v;
    const rec = new Recorder();
    poller = new RestPoller({ rest: venue.maker, clock: venue.clock, sink: rec.sink, plans: [{ symbol: 'BTC-PERP-REV', market: 'contract', funding: { everyMs: 60_000 } }] });
    poller.start();
    const first = await until(venue.clock, 'first funding', () => rec.of('funding')[0]);
    // config/venue.yaml pays BTC-PERP-REV a fixed 0.0001 per 8-hour interval.
    expect(first).toMatchObject({ symbol: 'BTC-PERP-REV', rate: '0.0001', intervalEnd: first.intervalStart + 8 * 3_600_000 });
    await until(venue.clock, 'five more polls', () => venue.clock.now() >= T0 + 5 * 60_000, { stepMs: 10_000, maxMs: 10 * 60_000 });
    expect(rec.of('funding')).toHaveLength(1);
    // The next interval: the same rate, a new interval, one more event.
    const next = await until(venue.clock, 'the next interval', () => rec.of('funding')[1], { stepMs: 60_000, maxMs: 9 * 3_600_000 });
    expect(next).toMatchObject({ symbol: 'BTC-PERP-REV', rate: '0.0001', intervalStart: first.intervalEnd });
    expect(poller.failed).toBe(0);
  });

  it('refuses plans that would use more than its share of the weight budget, naming the numbers', () => {
    const rec = new Recorder();
    const plans: PollPlan[] = ['BTCUSDT', 'ETHUSDT', 'ETHBTC'].map((symbol) => ({ symbol, depth: { everyMs: 200 }, trades: { everyMs: 200 } }));
    let err: unknown;
    try {
      new RestPoller({ rest: {} as never, clock: { now: () => 0 } as never, sink: rec.sink, plans });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe('poller.plans: would use 1800 request weight a minute, more than the 750 allowed; poll less often');
  });
});

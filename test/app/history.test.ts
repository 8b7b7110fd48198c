// `ctx.history` reads recent candles (paging back past one request's limit) and trades through the REST client of the simulated venue's server, oldest first, and names a bad argument.
import { afterEach, describe, expect, it } from 'vitest';
import { restHistory } from '../../src/app/history.ts';
import { instrumentsOf } from '../../src/model/index.ts';
import { RestGateway } from '../../src/venue/gateway.ts';
import { limit, startVenueOnClock, T0, type Venue } from '../venue/streams/helpers.ts';

let v: Venue | undefined;
afterEach(async () => {
  await v?.close();
  v = undefined;
});

describe('history through REST', () => {
  it('returns the last n candles across pages and the last n trades, oldest first', async () => {
    v = await startVenueOnClock();
    const { maker, taker, clock } = v;
    await limit(maker, 'ETHBTC', 'SELL', '10', '0.05');
    // One trade in each of three minutes, at rising sizes: candles T0, T0+1m, T0+2m with volumes 1, 2, 3.
    for (const [i, qty] of ['1', '2', '3'].entries()) {
      await clock.advance(i === 0 ? 0 : 60_000);
      await limit(taker, 'ETHBTC', 'BUY', qty, '0.05');
    }
    const instruments = instrumentsOf(await new RestGateway(maker, () => clock.now()).exchangeInfo());
    // Two candles a request: three candles take two pages.
    const h = restHistory(maker, instruments, { page: 2 });
    const three = await h.klines('ETHBTC', '1m', 3);
    expect(three.map((k) => [k.openTime - T0, k.volume])).toEqual([[0, '1'], [60_000, '2'], [120_000, '3']]);
    expect((await h.klines('ETHBTC', '1m', 2)).map((k) => k.volume)).toEqual(['2', '3']);
    // Asking for more than the venue has returns what it has.
    expect(await h.klines('ETHBTC', '1m', 50)).toHaveLength(3);
    expect((await h.trades('ETHBTC', 2)).map((t) => t.qty)).toEqual(['2', '3']);
  });

  it('names a bad symbol, interval or count', async () => {
    v = await startVenueOnClock();
    const instruments = instrumentsOf(await new RestGateway(v.maker, () => v!.clock.now()).exchangeInfo());
    const h = restHistory(v.maker, instruments);
    await expect(h.klines('NOPE', '1m', 5)).rejects.toThrow('history.symbol: unknown symbol NOPE');
    await expect(h.klines('ETHBTC', '3m' as never, 5)).rejects.toThrow('history.interval: must be one of');
    await expect(h.klines('ETHBTC', '1m', 0)).rejects.toThrow('history.n: must be an integer from 1 to 5000, got 0');
    await expect(h.trades('ETHBTC', 1001)).rejects.toThrow('history.n: must be an integer from 1 to 1000, got 1001');
  });
});

// The contract market as a client sees it over the wire: the opening index, funding settled every 8 hours on the clock, and balance events of wallet moves.
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { Decimal } from '../../../src/core/fixed.ts';
import { VenueRestClient } from '../../../src/venue/rest-client.ts';
import { KEY, openWs, SECRET, startTest, T0, type TestVenue } from './helpers.ts';

const TAKER = { apiKey: 'D'.repeat(64), secret: 'taker-secret-00000003' };
const ADDRESS = '0x815bF1c3cc0f49b8FC66B21A7e48fCb476051209';
const ACCOUNTS = {
  accounts: [
    { name: 'demo', keys: [{ apiKey: KEY, secret: SECRET }], withdrawAddresses: [ADDRESS], balances: { spot: { USDT: '1000' }, contract: { BTC: '1' } } },
    { name: 'taker', keys: [TAKER], balances: { contract: { BTC: '1' } } },
  ],
};
const HOUR = 3_600_000;

let v: TestVenue | undefined;
const clients: VenueRestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await v?.close();
  v = undefined;
});

function client(t: TestVenue, key = { apiKey: KEY, secret: SECRET }): VenueRestClient {
  const c = new VenueRestClient({ baseUrl: t.url, apiKey: key.apiKey, secret: key.secret, clock: t.clock });
  clients.push(c);
  return c;
}

describe('the contract market over the wire', () => {
  it('opens each index at its spot symbol initial price and marks positions from it', async () => {
    v = await startTest(ACCOUNTS, new VirtualClock(T0));
    const c = client(v);
    expect(await c.contractIndex()).toEqual({ index: { BTCUSDT: '30000' }, edp: { BTCUSDT: '30000' } });
    expect((await c.contracts()).map((k) => k.indexPrice)).toEqual(['30000', '30000']);
  });

  it('answers the EDP, a mean of index samples, with at most 8 decimals as the published samples do', async () => {
    v = await startTest(ACCOUNTS, new VirtualClock(T0));
    const engine = v.venue.backend.venue;
    engine.setIndexPrice('BTCUSDT', '30000.01');
    engine.setIndexPrice('BTCUSDT', '30000.02');
    // Samples 30000 (the opening index), 30000.01 and 30000.02: the mean is exact.
    const c = client(v);
    expect((await c.contractIndex()).edp).toEqual({ BTCUSDT: '30000.01' });
    engine.setIndexPrice('BTCUSDT', '30000.01');
    engine.setIndexPrice('BTCUSDT', '30000.01');
    expect((await c.contractIndex()).edp).toEqual({ BTCUSDT: '30000.01' });
    engine.setIndexPrice('BTCUSDT', '30000.02');
    // 180000.07 / 6 = 30000.0116666…: cut to 8 decimals (it printed 18).
    expect((await c.contractIndex()).edp).toEqual({ BTCUSDT: '30000.01166666' });
  });

  it('settles funding at the 8-hour boundary: the long pays the short, and the past rates list it', async () => {
    v = await startTest(ACCOUNTS, new VirtualClock(T0));
    const demo = client(v);
    const taker = client(v, TAKER);
    const open = { symbol: 'BTC-PERP-REV', orderType: 'LIMIT', quantity: '3000', price: '30000', leverage: '10' } as const;
    await demo.newContractOrder({ ...open, side: 'BUY_OPEN', clientOrderId: 'long' });
    await taker.newContractOrder({ ...open, side: 'SELL_OPEN', clientOrderId: 'short' });
    const before = [(await demo.contractAccount())['BTC']!.total, (await taker.contractAccount())['BTC']!.total];
    expect(await demo.fundingRate({ symbol: 'BTC-PERP-REV', state: 'past' })).toEqual([]);
    const [current] = await demo.fundingRate({ symbol: 'BTC-PERP-REV' });
    expect(current).toMatchObject({ rate: '0.0001', intervalEnd: T0 + 4 * HOUR });

    await v.clock.advance(4 * HOUR);
    const [past, ...more] = await demo.fundingRate({ symbol: 'BTC-PERP-REV', state: 'past' });
    expect(more).toEqual([]);
    expect(past).toMatchObject({ symbol: 'BTC-PERP-REV', rate: '0.0001', intervalEnd: T0 + 4 * HOUR });
    expect((await demo.fundingRate({ symbol: 'BTC-PERP-REV' }))[0]).toMatchObject({ intervalStart: T0 + 4 * HOUR, intervalEnd: T0 + 12 * HOUR });
    expect((await demo.contracts())[0]).toMatchObject({ fundingRate: '0.0001', nextFundingRateTs: (T0 + 12 * HOUR) / 1000 });

    // 3000 contracts of 1 USD at 30000: 0.1 BTC of value, 0.00001 BTC of funding at 0.0001.
    const after = [(await demo.contractAccount())['BTC']!.total, (await taker.contractAccount())['BTC']!.total];
    expect(new Decimal(before[0]!).minus(after[0]!).toString()).toBe('0.00001');
    expect(new Decimal(after[1]!).minus(before[1]!).toString()).toBe('0.00001');
  });

  it('sends the balance events of transfers and withdrawals on the user stream', async () => {
    v = await startTest(ACCOUNTS, new VirtualClock(T0));
    const c = client(v);
    const s = await openWs(`${v.ws}/openapi/ws/${(await c.createListenKey()).listenKey}`);
    await c.transferInternal({ fromAccountType: 1, fromAccountIndex: 0, toAccountType: 3, toAccountIndex: 0, tokenId: 'USDT', amount: '100' });
    const spot = await s.next((f) => f.e === 'outboundAccountInfo');
    expect(spot.B).toContainEqual({ a: 'USDT', f: '900', l: '0' });
    await c.withdraw({ tokenId: 'USDT', clientOrderId: 'w1', address: ADDRESS, withdrawQuantity: '50' });
    const locked = await s.next((f) => f.e === 'outboundAccountInfo');
    expect(locked.B).toContainEqual({ a: 'USDT', f: '850', l: '50' });
    s.ws.close();
  });
});

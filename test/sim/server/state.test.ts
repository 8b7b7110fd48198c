// Nothing lost: a venue with a state file keeps balances, positions, open orders, history and ids across a stop and a restart, and saves on a period while it runs.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { VenueRestClient } from '../../../src/venue/rest-client.ts';
import { KEY, SECRET, startTest, T0, testConfig, type TestVenue } from './helpers.ts';

const TAKER = { apiKey: 'E'.repeat(64), secret: 'taker-secret-00000004' };
const DEMO = { apiKey: KEY, secret: SECRET };
const LATE = { apiKey: 'F'.repeat(64), secret: 'late-secret-000000005' };
const ACCOUNTS = [
  { name: 'demo', keys: [DEMO], balances: { spot: { USDT: '1000', ETH: '10', BTC: '1' }, contract: { BTC: '1' } }, subAccounts: [{ name: 'demo-sub', index: 1 }] },
  { name: 'taker', keys: [TAKER], balances: { spot: { BTC: '1' }, contract: { BTC: '1' } } },
];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function stateDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'venue-restart-'));
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

async function venueWith(stateFile: string, at: number, accounts: unknown[] = ACCOUNTS, stateEveryMs = 10_000): Promise<TestVenue> {
  const server = { ...testConfig().server, stateFile, stateEveryMs };
  const v = await startTest({ server, accounts }, new VirtualClock(at));
  let closed = false;
  cleanups.push(async () => {
    if (!closed) await v.close();
  });
  return { ...v, close: async () => { closed = true; await v.close(); } };
}

function clientOf(v: TestVenue, key = DEMO): VenueRestClient {
  const c = new VenueRestClient({ baseUrl: v.url, apiKey: key.apiKey, secret: key.secret, clock: v.clock });
  cleanups.push(() => c.close());
  return c;
}

/** Everything a user can read about their accounts. */
async function everything(c: VenueRestClient): Promise<unknown> {
  return {
    spot: await c.spotAccount(),
    contract: await c.contractAccount(),
    positions: await c.contractPositions(),
    openSpot: await c.openSpotOrders(),
    openContract: await c.openContractOrders(),
    spotHistory: await c.spotHistoryOrders(),
    spotTrades: await c.spotMyTrades(),
    contractTrades: await c.contractMyTrades(),
    subAccounts: await c.subAccounts(),
    flows: await c.balanceFlow({ tokenId: 'USDT' }),
    deposits: await c.depositOrders(),
  };
}

describe('a venue with a state file', () => {
  it('comes back after stop and restart with the same balances, positions, open orders and history, and its ids go on', async () => {
    const file = join(stateDir(), 'state.json');
    const a = await venueWith(file, T0);
    const demo = clientOf(a);
    const taker = clientOf(a, TAKER);
    const sell = await demo.newSpotOrder({ symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '2', price: '0.05', newClientOrderId: 'keep-sell' });
    await taker.newSpotOrder({ symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '0.05' });
    const open = { symbol: 'BTC-PERP-REV', orderType: 'LIMIT', quantity: '100', price: '30000', leverage: '10' } as const;
    await demo.newContractOrder({ ...open, side: 'BUY_OPEN', clientOrderId: 'keep-long' });
    await taker.newContractOrder({ ...open, side: 'SELL_OPEN', clientOrderId: 'keep-short' });
    const resting = await demo.newContractOrder({ ...open, side: 'BUY_OPEN', price: '20000', clientOrderId: 'keep-rest' });
    await demo.transferInternal({ fromAccountType: 1, fromAccountIndex: 0, toAccountType: 1, toAccountIndex: 1, tokenId: 'USDT', amount: '25' });
    const before = { demo: await everything(demo), taker: await everything(taker) };
    const ids = [sell.orderId, resting.orderId].map(BigInt);
    await a.close();
    expect(existsSync(file)).toBe(true);

    const b = await venueWith(file, a.clock.now());
    const demo2 = clientOf(b);
    expect({ demo: await everything(demo2), taker: await everything(clientOf(b, TAKER)) }).toEqual(before);
    // The restored book still matches: the rest of the resting sell fills against a new buy.
    const fill = await clientOf(b, TAKER).newSpotOrder({ symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1.5', price: '0.05' });
    expect(fill).toMatchObject({ status: 'FILLED', executedQty: '1.5' });
    expect(await demo2.getSpotOrder({ orderId: sell.orderId })).toMatchObject({ status: 'FILLED', executedQty: '2' });
    expect(BigInt(fill.orderId)).toBeGreaterThan(ids.reduce((m, x) => (x > m ? x : m)));
    // A clientOrderId used before the restart is still taken.
    await expect(demo2.newContractOrder({ ...open, side: 'BUY_OPEN', price: '20000', clientOrderId: 'keep-rest' })).rejects.toMatchObject({ venueCode: -1141 });
  });

  it('writes the state on its period while running, so a venue started from the file sees what was done before', async () => {
    const file = join(stateDir(), 'state.json');
    const a = await venueWith(file, T0, ACCOUNTS, 5_000);
    const order = await clientOf(a).newSpotOrder({ symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '1', price: '0.07' });
    // Written at start too: the base the journal's entries apply to.
    await a.clock.advance(5_000);
    expect(existsSync(file)).toBe(true);
    const b = await venueWith(file, a.clock.now());
    expect((await clientOf(b).openSpotOrders()).map((o) => o.orderId)).toEqual([order.orderId]);
  });

  it('creates and funds an account added to the config after the state was saved, keeping the saved ones', async () => {
    const file = join(stateDir(), 'state.json');
    const a = await venueWith(file, T0);
    await clientOf(a).newSpotOrder({ symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '1', price: '0.07' });
    const before = await clientOf(a).spotAccount();
    await a.close();
    const b = await venueWith(file, a.clock.now(), [...ACCOUNTS, { name: 'late', keys: [LATE], balances: { spot: { USDT: '500' } } }]);
    expect(await clientOf(b).spotAccount()).toEqual(before);
    expect((await clientOf(b, LATE).spotAccount()).balances).toEqual([{ asset: 'USDT', free: '500', locked: '0' }]);
  });
});

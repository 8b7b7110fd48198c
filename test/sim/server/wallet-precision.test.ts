// Wallet movements (both transfer variants, withdrawals) with more decimals than the asset allows are refused with -1111 and move nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signed, startTest, T0, type TestVenue } from './helpers.ts';

let t: TestVenue;
let ts = T0;
beforeAll(async () => {
  t = await startTest();
});
afterAll(async () => t.close());

const PRECISION = { code: -1111, msg: 'Precision is over the maximum defined for this asset.' };
const ADDRESS = '0x815bF1c3cc0f49b8FC66B21A7e48fCb476051209';

/** Every balance the demo user holds (main, sub-account, contracts) and its withdrawals, as the API answers them. */
async function holdings(): Promise<unknown> {
  const main = await signed(t.url, 'GET', '/openapi/v1/account', {}, { timestamp: ++ts });
  const contract = await signed(t.url, 'GET', '/openapi/contract/v1/account', {}, { timestamp: ++ts });
  const sub = await signed(t.url, 'GET', '/openapi/v1/balance_flow', { accountType: '1', accountIndex: '1' }, { timestamp: ++ts });
  const withdrawals = await signed(t.url, 'GET', '/openapi/v1/withdrawalOrders', {}, { timestamp: ++ts });
  return { main: main.json.balances, contract: contract.json, sub: sub.json, withdrawals: withdrawals.json };
}

const internal = (tokenId: string, amount: string) => ({ fromAccountType: '1', fromAccountIndex: '0', toAccountType: '1', toAccountIndex: '1', tokenId, amount });
const pending = (currency: string, amount: string) => ({ from: 'wallet', to: 'contract', currency, amount });
const withdraw = (tokenId: string, withdrawQuantity: string, n: number) => ({ tokenId, clientOrderId: `prec-${n}`, address: ADDRESS, withdrawQuantity });

describe('wallet amounts past the asset precision', () => {
  it('refuses each with -1111 and leaves every balance, flow and withdrawal as it was', async () => {
    const before = await holdings();
    // BTC: 8 decimals (BTC-PERP-REV marginPrecision); USDT: 4 (BTC-SWAP-USDT marginPrecision); ETH: 4; an asset no instrument names: the ledger's 18.
    const refused: [string, Record<string, string>][] = [
      ['/openapi/v1/transfer', internal('BTC', '0.000000001')],
      ['/openapi/v1/transfer', internal('BTC', '0.000000000000000001')],
      ['/openapi/v1/transfer', internal('USDT', '1.00001')],
      ['/openapi/v1/transfer', internal('ETH', '0.123456789012345678')],
      ['/openapi/v1/transfer', internal('XYZ', '1.0000000000000000001')],
      ['/openapi/v1/transfer', pending('USDT', '0.123456789012345678')],
      ['/openapi/v1/transfer', pending('BTC', '1.000000001')],
      ['/openapi/v1/withdraw', withdraw('USDT', '10.00001', 1)],
      ['/openapi/v1/withdraw', withdraw('BTC', '0.000000001', 2)],
    ];
    for (const [path, params] of refused) {
      const r = await signed(t.url, 'POST', path, params, { timestamp: ++ts });
      expect({ path, params, status: r.status, json: r.json }).toEqual({ path, params, status: 400, json: PRECISION });
    }
    expect(await holdings()).toEqual(before);
  });

  it('takes amounts at the precision, trailing zeros not counted', async () => {
    expect((await signed(t.url, 'POST', '/openapi/v1/transfer', internal('BTC', '0.00000001'), { timestamp: ++ts })).json).toEqual({ success: 'true' });
    expect((await signed(t.url, 'POST', '/openapi/v1/transfer', internal('USDT', '1.00010000000000000000'), { timestamp: ++ts })).json).toEqual({ success: 'true' });
    expect((await signed(t.url, 'POST', '/openapi/v1/transfer', pending('USDT', '0.0001'), { timestamp: ++ts })).json.message).toBe('success');
    expect((await signed(t.url, 'POST', '/openapi/v1/withdraw', withdraw('BTC', '0.00000001', 3), { timestamp: ++ts })).json.success).toBe(true);
    const sub = await signed(t.url, 'GET', '/openapi/v1/balance_flow', { accountType: '1', accountIndex: '1' }, { timestamp: ++ts });
    expect(sub.json.map((f: { tokenId: string; change: string }) => [f.tokenId, f.change])).toEqual([['USDT', '1.0001'], ['BTC', '0.00000001'], ['USDT', '1000']]);
  });
});

describe('margin amounts past the margin token precision', () => {
  it('refuses modifyMargin with -1111 (19 decimals answered 500 -1001 before), and leaves the contract account as it was', async () => {
    const margin = (amount: string) => signed(t.url, 'POST', '/openapi/contract/v1/modifyMargin', { symbol: 'BTC-PERP-REV', side: 'LONG', amount }, { timestamp: ++ts });
    const before = await holdings();
    for (const amount of ['0.0000000000000000001', '0.000000001', '-0.000000001']) {
      const r = await margin(amount);
      expect({ amount, status: r.status, json: r.json }).toEqual({ amount, status: 400, json: PRECISION });
    }
    // At the precision the amount is read, and refused for the missing position.
    expect((await margin('0.00000001')).json.code).toBe(-1160);
    expect(await holdings()).toEqual(before);
  });
});

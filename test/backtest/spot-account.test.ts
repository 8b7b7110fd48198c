// The backtest exchange's spot account on the simulated venue's ledger: locks, fills with maker/taker fees, refusals that change nothing.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { SpotAccount } from '../../src/backtest/exchange/spot-account.ts';
import { fmtAmount } from '../../src/sim/ledger/amount.ts';
import { harness, spotInstrument } from './fixtures.ts';

// ETHUSDT (2024 capture): tick 0.01, step 0.0001 → 1 ETH is 10 000 lots; 3000.00 is 300 000 ticks.
const ETH = 10_000;

function world(balances: Record<string, string>) {
  const inst = spotInstrument();
  const clock = new VirtualClock(0);
  const acc = new SpotAccount({ clock, inst, balances, makerFee: '0.0002', takerFee: '0.001' });
  return { acc, h: harness({ clock, account: acc, inst }) };
}

const bal = (acc: SpotAccount, asset: string): [string, string] => {
  const b = acc.balance(asset);
  return [fmtAmount(b.free), fmtAmount(b.locked)];
};

describe('spot account', () => {
  it('a taker buy then a maker sell settle with the venue fees in the asset received', () => {
    const { acc, h } = world({ USDT: '10000' });
    h.at({ kind: 'depth', time: 0, side: 1, priceTicks: 300_000, lots: 2 * ETH });
    h.ex.submit({ clientOrderId: 'buy', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', priceTicks: 300_100, lots: ETH });
    h.clock.advanceToSync(1);
    // Paid 3000 at the ask (the lock at 3001 is given back); taker fee 0.1 % of 1 ETH = 0.001 ETH.
    expect(bal(acc, 'USDT')).toEqual(['7000', '0']);
    expect(bal(acc, 'ETH')).toEqual(['0.999', '0']);
    h.ex.submit({ clientOrderId: 'sell', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', priceTicks: 310_000, lots: 9_990 });
    h.clock.advanceToSync(2);
    expect(bal(acc, 'ETH')).toEqual(['0', '0.999']);
    // A buy trade through 3100 fills the resting sell as maker: 3100 × 0.999 = 3096.9, fee 0.02 % = 0.61938.
    h.at({ kind: 'trade', time: 3, priceTicks: 310_100, lots: 1, takerSide: 0 });
    expect(bal(acc, 'ETH')).toEqual(['0', '0']);
    expect(bal(acc, 'USDT')).toEqual(['10096.28062', '0']);
    expect(h.fills().map((r) => [r.clientOrderId, r.isMaker, r.fee, r.feeAsset])).toEqual([['buy', false, '0.001', 'ETH'], ['sell', true, '0.61938', 'USDT']]);
    // One round trip: −3000 + 3096.9 − 0.61938.
    expect(acc.trips.stats()).toEqual({ count: 1, wins: 1, losses: 0, grossWin: '96.28062', grossLoss: '0' });
  });

  it('refuses an order beyond free funds with -1131 and a cancel frees the lock', () => {
    const { acc, h } = world({ USDT: '100' });
    h.ex.submit({ clientOrderId: 'big', side: 'BUY', type: 'LIMIT', priceTicks: 300_000, lots: ETH });
    h.ex.submit({ clientOrderId: 'small', side: 'BUY', type: 'LIMIT', priceTicks: 290_000, lots: 100 });
    h.clock.advanceToSync(1);
    expect(h.reports.map((r) => [r.clientOrderId, r.execType, r.code])).toEqual([['big', 'REJECTED', -1131], ['small', 'NEW', 0]]);
    expect(bal(acc, 'USDT')).toEqual(['71', '29']);
    h.ex.cancel('small');
    h.clock.advanceToSync(2);
    expect(bal(acc, 'USDT')).toEqual(['100', '0']);
  });

  it('a MARKET BUY by quote amount walks the asks until what is left cannot buy one more lot', () => {
    const { acc, h } = world({ USDT: '10000' });
    h.at({ kind: 'depth', time: 0, side: 1, priceTicks: 300_000, lots: 5_000 });
    h.at({ kind: 'depth', time: 0, side: 1, priceTicks: 300_100, lots: ETH });
    // 2000 USDT in qunits of 0.01 × 0.0001 = 0.000001.
    h.ex.submit({ clientOrderId: 'mb', side: 'BUY', type: 'MARKET', priceTicks: 0, lots: 0, quoteBudget: 2_000_000_000 });
    h.clock.advanceToSync(1);
    // 0.5 ETH at 3000 (1500 USDT), then 500 / 3001 → 1666 lots (499.9666 USDT); 0.0334 USDT left < one lot at 3001.
    expect(h.reports.map((r) => [r.execType, r.status, r.lastPriceTicks, r.lastLots])).toEqual([
      ['NEW', 'NEW', 0, 0], ['TRADE', 'PARTIALLY_FILLED', 300_000, 5_000], ['TRADE', 'FILLED', 300_100, 1_666],
    ]);
    expect(bal(acc, 'USDT')).toEqual(['8000.0334', '0']);
    // Taker fee 0.1 % of 0.6666 ETH in ETH.
    expect(bal(acc, 'ETH')).toEqual(['0.6659334', '0']);
  });
});

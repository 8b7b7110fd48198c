// A strategy's own book as strategies read it on every quote: the same view until a fill or the price moves, then a new one with the new position or unrealized PnL (hand-computed), never a stale one; views are frozen since every reader shares them.
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/fixed.ts';
import { StrategyBooks } from '../../src/execution/strategy-book.ts';
import type { OrderFill } from '../../src/model/index.ts';
import { instruments } from '../strategy/helpers.ts';

const prices = new Map<string, { last?: string; mark?: string }>();
const books = (): StrategyBooks => new StrategyBooks(instruments(), { price: (s) => prices.get(s) });
let trade = 0;
const fill = (side: 'BUY' | 'SELL', price: string, qty: string, fee = '0'): OrderFill => ({
  tradeId: String(++trade), orderId: `o${trade}`, clientOrderId: `c${trade}`, strategyId: 'mm', account: 'spot', symbol: 'BTCUSDT', side, price, qty, fee,
  feeAsset: 'USDT', maker: true, time: trade, source: 'stream',
});

describe('strategy book views', () => {
  it('gives the same frozen view while nothing moved, and a new one after a price move or a fill', () => {
    prices.set('BTCUSDT', { last: '10000' });
    const b = books();
    const flat = b.symbol('mm', 'BTCUSDT');
    expect(flat).toMatchObject({ net: '0', sides: [], realized: '0', unrealized: '0' });
    b.apply(fill('BUY', '10000', '0.5', '1'));
    const held = b.symbol('mm', 'BTCUSDT');
    expect(held).toMatchObject({ net: '0.5', sides: [{ side: 'LONG', qty: '0.5', avgPrice: '10000' }], fees: '1', realized: '-1', unrealized: '0' });
    expect(b.symbol('mm', 'BTCUSDT')).toBe(held);
    expect(Object.isFrozen(held)).toBe(true);
    expect(Object.isFrozen(held.sides)).toBe(true);
    expect(Object.isFrozen(held.sides[0])).toBe(true);
    // 0.5 × (10 100 − 10 000) = 50.
    prices.set('BTCUSDT', { last: '10100' });
    const up = b.symbol('mm', 'BTCUSDT');
    expect(up).not.toBe(held);
    expect(up.unrealized).toBe('50');
    expect(held.unrealized).toBe('0');
    // Selling 0.2 at 10 200 realizes 0.2 × 200 = 40 (less the fee of 1 paid before); 0.3 left at 10 000, worth 0.3 × 100 = 30 at 10 100.
    b.apply(fill('SELL', '10200', '0.2'));
    const after = b.symbol('mm', 'BTCUSDT');
    expect(after).toMatchObject({ net: '0.3', realizedGross: '40', realized: '39', unrealized: '30' });
    expect(b.pnl('mm', ['BTCUSDT'])).toMatchObject({ realized: '39', unrealized: '30', net: '69' });
  });

  it('gives back the view of the price before when the price returns to it, at that price', () => {
    prices.set('BTCUSDT', { last: '10000' });
    const b = books();
    b.apply(fill('BUY', '10000', '0.5'));
    const at10000 = b.symbol('mm', 'BTCUSDT');
    prices.set('BTCUSDT', { last: '10001' });
    const at10001 = b.symbol('mm', 'BTCUSDT');
    prices.set('BTCUSDT', { last: '10000' });
    expect(b.symbol('mm', 'BTCUSDT')).toBe(at10000);
    prices.set('BTCUSDT', { last: '10001' });
    expect(b.symbol('mm', 'BTCUSDT')).toBe(at10001);
    // 0.5 × 1 = 0.5; a third price is a view of its own, and a fill makes both views before it stale.
    expect(at10001.unrealized).toBe('0.5');
    expect(at10000.unrealized).toBe('0');
    prices.set('BTCUSDT', { last: '10002' });
    expect(b.symbol('mm', 'BTCUSDT').unrealized).toBe('1');
    b.apply(fill('BUY', '10000', '0.5'));
    prices.set('BTCUSDT', { last: '10001' });
    const after = b.symbol('mm', 'BTCUSDT');
    expect(after).not.toBe(at10001);
    expect(after).toMatchObject({ net: '1', unrealized: '1' });
  });

  it('realizes exactly the quote a round trip moved when buys pay their fee in the base asset', () => {
    prices.set('BTCUSDT', { last: '60000' });
    const b = books();
    // Buys receive BTC and pay 0.1 % of it; sells receive USDT and pay 0.1 % of that. Back to flat: 0.00999 + 0.00999 − 0.005 − 0.01498 = 0.
    const fills = [
      { ...fill('BUY', '60000', '0.01', '0.00001'), feeAsset: 'BTC' },
      { ...fill('SELL', '60100', '0.005', '0.3005'), feeAsset: 'USDT' },
      { ...fill('BUY', '60050', '0.01', '0.00001'), feeAsset: 'BTC' },
      { ...fill('SELL', '59900', '0.01498', '0.89730200'), feeAsset: 'USDT' },
    ];
    const quote = fills.reduce((sum, f) => {
      const value = new Decimal(f.qty).times(f.price);
      return f.side === 'BUY' ? sum.minus(value) : sum.plus(value).minus(f.fee);
    }, new Decimal(0));
    for (const f of fills) b.apply(f);
    const flat = b.symbol('mm', 'BTCUSDT');
    expect(flat).toMatchObject({ net: '0', sides: [], unrealized: '0' });
    // The account's USDT moved −2.27730200 and its BTC is back where it was: that is the round trip's PnL.
    expect(quote.toFixed()).toBe('-3.895802');
    expect(flat.realized).toBe(quote.toFixed());
    expect(b.pnl('mm', ['BTCUSDT'])).toMatchObject({ realized: '-3.895802', unrealized: '0', net: '-3.895802' });
  });

  it('has no unrealized PnL without a price while it holds something', () => {
    prices.delete('BTCUSDT');
    const b = books();
    expect(b.symbol('mm', 'BTCUSDT').unrealized).toBe('0');
    b.apply(fill('BUY', '10000', '0.1'));
    expect(b.symbol('mm', 'BTCUSDT').unrealized).toBeUndefined();
    prices.set('BTCUSDT', { last: '9900' });
    expect(b.symbol('mm', 'BTCUSDT').unrealized).toBe('-10');
  });

  it('gives a new view once a position the venue closed leaves the book (a liquidation)', () => {
    prices.set('BTC-PERP-BUSDT', { mark: '30000' });
    const b = books();
    b.apply({ ...fill('BUY', '30000', '10'), account: 'contract', symbol: 'BTC-PERP-BUSDT', side: 'BUY_OPEN', feeAsset: 'BUSDT' });
    expect(b.symbol('mm', 'BTC-PERP-BUSDT')).toMatchObject({ net: '10', realized: '0' });
    b.closeOutside('mm', 'BTC-PERP-BUSDT', 'LONG', '10', '3', 99);
    expect(b.symbol('mm', 'BTC-PERP-BUSDT')).toMatchObject({ net: '0', sides: [], realized: '-3' });
  });
  it('gives realized PnL that is the realized gross less the fees as shown, each at the margin precision', () => {
    prices.set('BTC-PERP-REV', { mark: '29962.8' });
    const b = books();
    const contract = { account: 'contract', symbol: 'BTC-PERP-REV', feeAsset: 'TBTC' } as const;
    b.apply({ ...fill('BUY', '29936.4', '68', '0.000000454295683024'), ...contract, side: 'BUY_OPEN' });
    b.apply({ ...fill('SELL', '29962.8', '68', '0.00000136169039846'), ...contract, side: 'SELL_CLOSE' });
    // 68 × (1/29936.4 − 1/29962.8) = 0.0000020013…, fees 0.0000018159…: exact net 0.00000018539…, which alone would round to 0.00000019.
    expect(b.symbol('mm', 'BTC-PERP-REV')).toMatchObject({ realizedGross: '0.000002', fees: '0.00000182', realized: '0.00000018' });
    expect(b.pnl('mm', ['BTC-PERP-REV'])).toMatchObject({ realizedGross: '0.000002', fees: '0.00000182', realized: '0.00000018', net: '0.00000018' });
  });
  it('shows a side\'s average entry rounded down to the tick, as the venue shows the position', () => {
    prices.set('BTC-PERP-BUSDT', { mark: '30000' });
    const b = books();
    const open = (price: string, qty: string): OrderFill => ({ ...fill('BUY', price, qty), account: 'contract', symbol: 'BTC-PERP-BUSDT', side: 'BUY_OPEN', feeAsset: 'BUSDT' });
    b.apply(open('30000', '10'));
    b.apply(open('30000.1', '20'));
    // (10 × 30000 + 20 × 30000.1) / 30 = 30000.0666…: the venue's positions answer 30000.
    expect(b.symbol('mm', 'BTC-PERP-BUSDT').sides).toEqual([{ side: 'LONG', qty: '30', avgPrice: '30000' }]);
  });
});

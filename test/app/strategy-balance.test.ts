// ctx.portfolio.balance of a margin token reads as the venue's contract account shows it: at the token's margin precision, rounded down, not with the 18 decimals of inverse PnL.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { strategyView } from '../../src/app/views.ts';
import { OrderFeed, Portfolio, StrategyBooks } from '../../src/execution/index.ts';
import type { FillReport } from '../../src/model/index.ts';
import { instruments } from '../strategy/helpers.ts';

describe('a strategy\'s view of the account balance', () => {
  it('gives a contract balance moved by inverse PnL and fees at the margin precision, free + locked = the total shown', () => {
    const inst = instruments();
    const portfolio = new Portfolio(inst, () => 'inv');
    const books = new StrategyBooks(inst, portfolio);
    const src = { portfolio, feed: new OrderFeed(new VirtualClock(1_700_000_000_000), inst), books, instruments: inst };
    portfolio.adopt({ balances: { spot: [], contract: { TBTC: { token: 'TBTC', total: '1', availableMargin: '0.9', positionMargin: '0', orderMargin: '0.1' } } }, positions: [], watermark: { contract: '10' } });
    const fill = (tradeId: string, side: FillReport['side'], price: string, fee: string): FillReport => ({
      account: 'contract', symbol: 'BTC-PERP-REV', tradeId, orderId: 'o1', side, price, qty: '1000', fee, feeAsset: 'TBTC', maker: true, time: 1000,
    });
    // 1000 × (1/30000 − 1/30007.3) = 0.0000081091589... less fees of 18 decimals, as the venue charges them.
    portfolio.applyFills([fill('11', 'BUY_OPEN', '30000', '0.000006666666666667'), fill('12', 'SELL_CLOSE', '30007.3', '0.000006665044708258')]);
    expect(portfolio.view().contract['TBTC']!.total).toMatch(/^0\.99999\d{13,}$/);
    const balance = strategyView(src, 'inv', ['BTC-PERP-REV']).balance('TBTC', 'contract');
    // total 0.99999477... and free 0.89999477... shown to 8 decimals, rounded down as the venue's account answer is.
    expect(balance).toEqual({ free: '0.89999477', locked: '0.1' });
  });
});

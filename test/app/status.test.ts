// The status line: a strategy's own working orders (an order of unknown outcome is not counted as open), its own net position, and PnL gross, fees and net.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { formatStatus } from '../../src/app/status.ts';
import { statusLines } from '../../src/app/views.ts';
import { applyReport, markUnknown, newOrder, OrderFeed, Portfolio, StrategyBooks } from '../../src/execution/index.ts';
import { instruments } from '../strategy/helpers.ts';

/** A portfolio, an order feed and the strategy books over the test instruments, on a virtual clock. */
function parts() {
  const clock = new VirtualClock(1_700_000_000_000);
  const inst = instruments();
  const portfolio = new Portfolio(inst);
  return { clock, inst, portfolio, feed: new OrderFeed(clock, inst), books: new StrategyBooks(inst, portfolio) };
}

describe('status line', () => {
  it('counts acknowledged working orders only, and shows the strategy\'s own position and PnL gross, fees and net', () => {
    const { inst, portfolio, feed, books } = parts();
    feed.on({ fill: (f) => books.apply(f) });
    const order = (id: string) => newOrder({ clientOrderId: id, strategyId: 'mm', account: 'spot', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '11369', origQty: '0.01' });
    // One order the venue acknowledged, one whose placement answer was lost (504): unknown, maybe never placed.
    const acked = applyReport(order('mm-r1-1'), {
      account: 'spot', symbol: 'BTCUSDT', orderId: '7', clientOrderId: 'mm-r1-1', status: 'NEW', side: 'BUY', type: 'LIMIT', price: '11369', origQty: '0.01', executedQty: '0', avgPrice: '0', time: 1,
    });
    feed.onOrder(acked);
    feed.onOrder(markUnknown(order('mm-r1-2'), 'HTTP 504'));
    const partly = applyReport(acked, { ...{ account: 'spot', symbol: 'BTCUSDT', orderId: '7', clientOrderId: 'mm-r1-1', side: 'BUY', type: 'LIMIT', price: '11369', origQty: '0.01', avgPrice: '11369', time: 2 }, status: 'PARTIALLY_FILLED', executedQty: '0.004' } as const);
    feed.onOrder(partly);
    feed.tradeFill({ account: 'spot', symbol: 'BTCUSDT', tradeId: '100', orderId: '7', side: 'BUY', price: '11369', qty: '0.004', fee: '0.000004', feeAsset: 'BTC', maker: true, time: 3 });
    portfolio.setPrice('BTCUSDT', { last: '11400' });
    const line = formatStatus(statusLines({ portfolio, feed, books, instruments: inst }, [{ id: 'mm', name: 'market-maker', state: 'running' }], () => ['BTCUSDT']));
    // Holding 0.004 − 0.000004 fee = 0.003996 BTC at 11369: unrealized (11400 − 11369) × 0.003996 = 0.123876, fee 0.000004 × 11369 = 0.045476.
    expect(line).toBe('status mm[running] orders=1 pos=+0.003996 BTC gross=+0.123876 fees=0.045476 net=+0.0784 USDT');
  });

  it('shows the PnL of symbols counted in an asset with no price to the accounting asset in that asset, beside the first', () => {
    const { inst, portfolio, feed, books } = parts();
    const fill = (symbol: string, fee: string, feeAsset: string) => books.apply({
      tradeId: symbol, orderId: symbol, clientOrderId: `tf-r1-${symbol}`, strategyId: 'tf', account: 'contract', symbol, side: 'BUY_OPEN', price: '30000', qty: '10',
      fee, feeAsset, maker: false, time: 1, source: 'stream',
    });
    // Long 10 of the inverse contract (PnL in TBTC) and 10 of the BUSDT-margined one; no BTCUSDT price converts one into the other.
    fill('BTC-PERP-REV', '0.0000002', 'TBTC');
    fill('BTC-PERP-BUSDT', '0.018', 'BUSDT');
    const lines = statusLines({ portfolio, feed, books, instruments: inst }, [{ id: 'tf', name: 'trend-follower', state: 'running' }], () => ['BTC-PERP-REV', 'BTC-PERP-BUSDT']);
    expect(formatStatus(lines)).toBe('status tf[running] orders=0 pos=BTC-PERP-REV:+10 contracts,BTC-PERP-BUSDT:+10 contracts gross=0 fees=0.0000002 net=-0.0000002 TBTC, gross=0 fees=0.018 net=-0.018 BUSDT');
  });
});

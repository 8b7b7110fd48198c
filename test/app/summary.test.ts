// The end-of-run summary: orders and fills tallied per strategy as they come, volume per symbol in its units with the quote notional where there is one, fees by asset, PnL and the positions left open.
import { describe, expect, it } from 'vitest';
import { formatSummary, RunTally } from '../../src/app/summary.ts';
import { instruments } from '../strategy/helpers.ts';

describe('run summary', () => {
  it('sums each strategy\'s fills per symbol exactly and names what it leaves open', () => {
    const t = new RunTally();
    for (let i = 0; i < 3; i++) t.order('mm');
    t.order('perp');
    t.fill({ strategyId: 'mm', symbol: 'BTCUSDT', price: '30000.01', qty: '0.001', fee: '0.03000001', feeAsset: 'USDT' });
    t.fill({ strategyId: 'mm', symbol: 'BTCUSDT', price: '29999.99', qty: '0.002', fee: '0.000002', feeAsset: 'BTC' });
    // Linear: notional is price × contracts × multiplier (0.0001) in BUSDT; inverse has none.
    t.fill({ strategyId: 'perp', symbol: 'BTC-PERP-BUSDT', price: '30000.1', qty: '7', fee: '0.01', feeAsset: 'BUSDT' });
    t.fill({ strategyId: 'perp', symbol: 'BTC-PERP-REV', price: '30000.1', qty: '5', fee: '0.0000001', feeAsset: 'BTC' });
    t.fill({ strategyId: undefined, symbol: 'BTCUSDT', price: '30000', qty: '0.5', fee: '0', feeAsset: 'USDT' });
    const list = t.summary([
      { id: 'mm', state: 'stopped', pnl: { USDT: '0.123456789' }, positions: [{ symbol: 'BTCUSDT', qty: '0.003', unit: 'BTC' }] },
      { id: 'perp', state: 'failed', pnl: {}, positions: [{ symbol: 'BTC-PERP-REV', qty: '0', unit: 'contracts' }, { symbol: 'BTC-PERP-BUSDT', qty: '-7', unit: 'contracts' }] },
      { id: 'idle', state: 'stopped', pnl: {}, positions: [] },
    ], instruments());
    expect(list.map((s) => [s.id, s.orders, s.fills])).toEqual([['mm', 3, 2], ['perp', 1, 2], ['idle', 0, 0], ['unattributed', 0, 1]]);
    // 30.00001 + 59.99998 USDT, shown at the tick's precision: 90.00.
    expect(list[0]!.symbols).toEqual([{ symbol: 'BTCUSDT', fills: 2, volume: '0.003', unit: 'BTC', notional: '90.00', quote: 'USDT' }]);
    expect(list[0]!.fees).toEqual({ USDT: '0.03000001', BTC: '0.000002' });
    expect(formatSummary(list)).toEqual([
      'summary mm[stopped]: orders=3 fills=2 volume=BTCUSDT 0.003 BTC (90.00 USDT) fees=0.03000001 USDT 0.000002 BTC pnl=+0.12345679 USDT open=BTCUSDT:+0.003 BTC',
      'summary perp[failed]: orders=1 fills=2 volume=BTC-PERP-BUSDT 7 contracts (21.0 BUSDT), BTC-PERP-REV 5 contracts fees=0.01 BUSDT 0.0000001 BTC pnl=0 open=BTC-PERP-BUSDT:-7 contracts',
      'summary idle[stopped]: orders=0 fills=0 volume=0 fees=0 pnl=0 open=none',
      'summary unattributed[-]: orders=0 fills=1 volume=BTCUSDT 0.5 BTC (15000.00 USDT) fees=0 pnl=0 open=none',
    ]);
  });
});

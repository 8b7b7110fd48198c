import { describe, expect, it } from 'vitest';
import { Decimal, formatDown } from '../../src/core/fixed.ts';
import { instrumentsOf, parseBrokerInfo, parsePositionList, type FillReport } from '../../src/model/index.ts';
import { averageEntry, longPnl, Portfolio, positionValue } from '../../src/execution/index.ts';
import { loadSample } from '../fixtures/samples.ts';

const d = (s: string) => new Decimal(s);

describe('venue-notes.md §6 formulas on the published position sample', () => {
  const [p] = parsePositionList(loadSample('contract-positions.official').payload);
  const mark = d('8571.42');
  it('inverse value = qty × m / mark and unrealized PnL = qty × m × (1/avg − 1/mark), as published', () => {
    expect(formatDown(positionValue('inverse', d(p!.position), mark, d('1')), 8)).toBe(p!.positionValue);
    expect(formatDown(longPnl('inverse', d(p!.position), d(p!.avgPrice), mark, d('1')), 8)).toBe(p!.unrealizedPnL);
  });

  it('linear PnL is qty × m × (price − avg), and the inverse average entry is harmonic', () => {
    expect(longPnl('linear', d('100'), d('30000'), d('30500'), d('0.0001')).toFixed()).toBe('5');
    // Harmonic: 100 at 8000 and 100 at 10000 → 200 / (100/8000 + 100/10000) = 8888.88…
    expect(averageEntry('inverse', d('100'), d('8000'), d('100'), d('10000')).toFixed(6)).toBe('8888.888889');
    expect(averageEntry('linear', d('100'), d('8000'), d('100'), d('10000')).toFixed()).toBe('9000');
  });
});

const instruments = instrumentsOf(parseBrokerInfo(loadSample('contract-broker-info.official').payload));
const inverse = [...instruments.values()].find((i) => i.kind === 'inverse')!;
const fill = (id: string, side: FillReport['side'], qty: string, price: string, fee = '0'): FillReport => ({
  account: 'contract', symbol: inverse.symbol, tradeId: id, orderId: 'o1', side, price, qty, fee, feeAsset: inverse.marginToken!, maker: false, time: 1000,
});

describe('portfolio fed by fills and snapshots', () => {
  it('opens, closes and realizes inverse PnL less fees; the margin token total moves by exactly that', () => {
    const pf = new Portfolio(instruments, () => 'mm');
    pf.adopt({ balances: { spot: [], contract: { [inverse.marginToken!]: { token: inverse.marginToken!, total: '1', availableMargin: '1', positionMargin: '0', orderMargin: '0' } } }, positions: [], watermark: { contract: '10' } });
    pf.applyFills([fill('11', 'BUY_OPEN', '100', '8000', '0.00001'), fill('12', 'SELL_CLOSE', '40', '10000', '0.00001')]);
    const v = pf.view();
    expect(v.positions.map((x) => [x.side, x.qty, x.avgPrice])).toEqual([['LONG', '60', '8000']]);
    // 40 × (1/8000 − 1/10000) = 0.001, less two fees.
    expect(v.realized[inverse.symbol]).toBe('0.00098');
    expect(v.contract[inverse.marginToken!]!.total).toBe('1.00098');
    expect(pf.realizedToday(1000)).toEqual({ mm: '0.00098' });
    pf.setPrice(inverse.symbol, { mark: '10000' });
    expect(pf.view().positions[0]!.unrealizedPnl).toBe('0.0015');
  });

  it('never applies a fill the snapshot already holds (at or below its watermark), nor one twice', () => {
    const pf = new Portfolio(instruments);
    pf.adopt({ positions: parsePositionList(loadSample('contract-positions.official').payload), watermark: { contract: '20' } });
    pf.applyFills([fill('20', 'BUY_OPEN', '100', '8000'), fill('21', 'BUY_OPEN', '10', '9000'), fill('21', 'BUY_OPEN', '10', '9000')]);
    expect(pf.view().positions.map((x) => x.qty)).toEqual(['1110']);
    pf.applyFills([fill('21', 'BUY_OPEN', '10', '9000')]);
    expect(pf.view().positions.map((x) => x.qty)).toEqual(['1110']);
  });

  it('gives the risk gate a snapshot with positions, prices, open-order counts and PnL today', () => {
    const pf = new Portfolio(instruments, () => 'grid');
    pf.applyFills([fill('1', 'SELL_OPEN', '5', '8200')]);
    pf.setPrice(inverse.symbol, { last: '8100', mark: '8150' });
    const s = pf.snapshot(1000, { [inverse.symbol]: { grid: 2 } });
    expect(s.positions).toEqual([{ symbol: inverse.symbol, side: 'SHORT', quantity: '5', avgPrice: '8200', margin: '0', }]);
    expect(s.prices[inverse.symbol]).toEqual({ last: '8100', mark: '8150' });
    expect(s.openOrders).toEqual({ [inverse.symbol]: { grid: 2 } });
    expect(s.pnlToday).toEqual({ grid: '0' });
  });
});

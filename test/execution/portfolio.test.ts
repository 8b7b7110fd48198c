import { describe, expect, it } from 'vitest';
import { Decimal, formatDown } from '../../src/core/fixed.ts';
import { balanceUpdateEvent, instrumentsOf, parseBrokerInfo, parsePositionList, positionUpdateEvent, type FillReport } from '../../src/model/index.ts';
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

  it('PnL today asked for between fills follows each fill, starts again at 0 UTC and keeps what a snapshot folded in', () => {
    const day = 86_400_000;
    const pf = new Portfolio(instruments, () => 'mm');
    const at = (f: FillReport, time: number): FillReport => ({ ...f, time });
    expect(pf.realizedToday(1000)).toEqual({});
    pf.applyFills([at(fill('1', 'BUY_OPEN', '100', '8000'), 1000)]);
    expect(pf.realizedToday(1000)).toEqual({ mm: '0' });
    // 40 × (1/8000 − 1/10000) = 0.001, less its fee.
    pf.applyFills([at(fill('2', 'SELL_CLOSE', '40', '10000', '0.00001'), 2000)]);
    expect(pf.realizedToday(2000)).toEqual({ mm: '0.00099' });
    pf.applyFills([at(fill('3', 'SELL_CLOSE', '40', '10000'), day + 5)]);
    expect(pf.realizedToday(day + 5)).toEqual({ mm: '0.001' });
    expect(pf.realizedToday(2000)).toEqual({ mm: '0.00099' });
    // A snapshot holding all three: the PnL it folds in stays counted on its day.
    pf.adopt({ positions: [], watermark: { contract: '3' } });
    expect(pf.pendingFills()).toBe(0);
    expect(pf.realizedToday(day + 6)).toEqual({ mm: '0.001' });
    expect(pf.realizedToday(3000)).toEqual({ mm: '0.00099' });
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

describe('stream balance events laid over a snapshot', () => {
  const both = new Map([...instruments, ...instrumentsOf(parseBrokerInfo(loadSample('spot-broker-info.official').payload))]);
  const buyEth: FillReport = {
    account: 'spot', symbol: 'ETHBTC', tradeId: '11', orderId: 'o1', side: 'BUY', price: '0.05', qty: '1', fee: '0.001', feeAsset: 'ETH', maker: false, time: 2000,
  };
  const bal = (asset: string, free: string, locked: string, ts: number) => balanceUpdateEvent({ account: 'spot', asset, free, locked, ts, recvTs: ts });
  const fresh = () => {
    const pf = new Portfolio(both);
    pf.adopt({ balances: { spot: [{ asset: 'ETH', free: '10', locked: '0' }, { asset: 'BTC', free: '1', locked: '0' }], contract: {} }, watermark: { spot: '10' }, time: 1000 });
    return pf;
  };

  it('end in the same balances whether the fill is read before or after the event that includes it', () => {
    const a = fresh();
    a.applyFills([buyEth]);
    a.applyBalance(bal('BTC', '0.95', '0', 2000));
    a.applyBalance(bal('ETH', '10.999', '0', 2000));
    const b = fresh();
    b.applyBalance(bal('BTC', '0.95', '0', 2000));
    b.applyBalance(bal('ETH', '10.999', '0', 2000));
    b.applyFills([buyEth]);
    expect(a.view().spot).toEqual({ ETH: { free: '10.999', locked: '0' }, BTC: { free: '0.95', locked: '0' } });
    expect(b.view().spot).toEqual(a.view().spot);
    expect(b.view().realized).toEqual(a.view().realized);
  });

  it('move an event older than a fill by that fill, keep the venue’s locked, and refuse events older than the snapshot or than what is held', () => {
    const pf = fresh();
    expect(pf.applyBalance(bal('BTC', '5', '5', 999))).toBe(false);
    // An order locks 0.1 BTC at 1500; the fill at 2000 is not in that event, so it moves it.
    expect(pf.applyBalance(bal('BTC', '0.9', '0.1', 1500))).toBe(true);
    pf.applyFills([buyEth]);
    expect(pf.view().spot['BTC']).toEqual({ free: '0.85', locked: '0.1' });
    expect(pf.applyBalance(bal('BTC', '0.9', '0.1', 1400))).toBe(false);
    // A later snapshot drops what it holds; an event after it stays over it.
    pf.applyBalance(bal('ETH', '10.999', '0.5', 3000));
    pf.adopt({ balances: { spot: [{ asset: 'ETH', free: '10.999', locked: '0' }, { asset: 'BTC', free: '0.95', locked: '0' }], contract: {} }, watermark: { spot: '11' }, time: 2500 });
    expect(pf.view().spot).toEqual({ ETH: { free: '10.999', locked: '0.5' }, BTC: { free: '0.95', locked: '0' } });
  });
});

describe('stream position events (no venue time: stamped when they arrive) laid over the fold', () => {
  const at = (id: string, side: FillReport['side'], time: number): FillReport => ({ ...fill(id, side, '10', '8000'), time });
  // The venue's event shows no time: the stream client stamps it with its arrival, later than the fills a delayed frame predates.
  const pos = (qty: string, margin: string, arrived: number) => positionUpdateEvent({
    symbol: inverse.symbol, accountId: '1', side: 'LONG', avgPrice: '8000', position: qty, available: qty, liquidationPrice: '0', margin, realizedPnl: '0', ts: arrived, recvTs: arrived,
  });
  const long = (pf: Portfolio) => pf.view().positions.filter((x) => x.side === 'LONG').map((x) => [x.qty, x.margin]);
  const started = () => {
    const pf = new Portfolio(instruments);
    pf.adopt({ positions: [], watermark: { contract: '10' }, time: 1000 });
    pf.applyFills([at('11', 'BUY_OPEN', 1100)]);
    return pf;
  };

  it('an event older than a fill counted before it arrived never undoes that fill (the bot holds what the venue holds)', () => {
    const pf = started();
    pf.applyFills([at('12', 'BUY_OPEN', 1200), at('13', 'SELL_CLOSE', 1300)]);
    // The LONG 20 of fill 12, delivered after fill 13 was read from myTrades.
    pf.applyPosition(pos('20', '0.0005', 1400));
    expect(long(pf)).toEqual([['10', '0']]);
  });

  it('an event ahead of the fills counted leaves the quantity to them, and one showing the fold’s quantity lends its margin', () => {
    const pf = started();
    pf.applyPosition(pos('20', '0.0005', 1250));
    expect(long(pf)).toEqual([['10', '0']]);
    pf.applyFills([at('12', 'BUY_OPEN', 1200)]);
    expect(long(pf)).toEqual([['20', '0.0005']]);
    // A closed position shown while the fold still holds it (the closing fill not read yet) stays until that fill.
    pf.applyPosition(pos('0', '0', 1300));
    expect(long(pf).map(([qty]) => qty)).toEqual(['20']);
    pf.applyFills([at('13', 'SELL_CLOSE', 1290), at('14', 'SELL_CLOSE', 1290)]);
    expect(long(pf)).toEqual([]);
  });
});


import { describe, expect, it } from 'vitest';
import { VenueError } from '../../../src/core/errors.ts';
import { checkLeverage, liquidationPrice, pnl, positionValue, riskTier } from '../../../src/sim/contracts/index.ts';
import { fmtAmount, toAmount } from '../../../src/sim/ledger/index.ts';
import { expectVenueError } from '../ledger/helpers.ts';
import { inverseSpec, linearSpec, world } from './fixtures.ts';

const A = toAmount;

describe('contract arithmetic', () => {
  it('values and prices linear contracts as qty × multiplier × price', () => {
    const spec = linearSpec();
    expect(positionValue(spec, A('100'), A('10000'))).toBe(A('100'));
    expect(pnl(spec, 'LONG', A('100'), A('10000'), A('10500'))).toBe(A('5'));
    expect(pnl(spec, 'SHORT', A('100'), A('10000'), A('10500'))).toBe(A('-5'));
    // long with margin 100 = the whole value: (100 − 100) / … = 0 → margin covers a fall to zero
    expect(liquidationPrice(spec, 'LONG', A('100'), A('10000'), A('100'), A('0.005'))).toBe(0n);
    // long with 2 USDT: (100 − 2) / 0.00995 = 9849.2462… → 9849 (tick 0.5, down)
    expect(liquidationPrice(spec, 'LONG', A('100'), A('10000'), A('2'), A('0.005'))).toBe(A('9849'));
    // short with 2 USDT: (100 + 2) / 0.01005 = 10149.2537… → 10149.5 (tick 0.5, up)
    expect(liquidationPrice(spec, 'SHORT', A('100'), A('10000'), A('2'), A('0.005'))).toBe(A('10149.5'));
  });

  it('rounds an inverse short flp up to the tick and finds none when margin covers any rise', () => {
    const spec = inverseSpec();
    // 1000 × 0.995 / (1000/10000 − 0.01) = 995 / 0.09 = 11055.555… → 11055.56
    expect(liquidationPrice(spec, 'SHORT', A('1000'), A('10000'), A('0.01'), A('0.005'))).toBe(A('11055.56'));
    expect(liquidationPrice(spec, 'SHORT', A('1000'), A('10000'), A('0.1'), A('0.005'))).toBeUndefined();
  });

  it('picks the risk tier by position quantity and bounds leverage by its initial margin', () => {
    const spec = inverseSpec();
    expect(riskTier(spec, A('1000000')).riskLimitId).toBe('200000001');
    expect(riskTier(spec, A('1000001')).riskLimitId).toBe('200000002');
    expect(riskTier(spec, A('9000000')).riskLimitId).toBe('200000004');
    expect(() => checkLeverage(spec, A('10'), A('100'))).not.toThrow();
    expectVenueError(() => checkLeverage(spec, A('1500000'), A('51')), -1130);
    expectVenueError(() => checkLeverage(spec, A('10'), 0n), -1130);
  });
});

describe('positions', () => {
  it('open with fee and margin from the order lock, return the rest, and close with PnL through the clearing pool', () => {
    const spec = inverseSpec('0.0002', '0.00075');
    const { positions, ledger, trader } = world([spec]);
    const acct = trader('TBTC', '1');
    const lock = positions.lockOrderMargin(acct, spec.symbol, A('1000'), A('10000'), A('10'));
    // value 0.1; margin 0.01; fees 0.000075 each way
    expect(lock).toBe(A('0.01015'));
    const open = positions.openFill({ accountId: acct, symbol: spec.symbol, side: 'LONG', qty: A('1000'), price: A('10000'), leverage: A('10'), isMaker: true, release: lock });
    expect(open).toEqual({ fee: A('0.00002'), margin: A('0.01'), refunded: A('0.00013') });
    expect(ledger.balance(acct, 'TBTC')).toEqual({ free: A('0.98998'), locked: A('0.01') });
    const close = positions.closeFill({ accountId: acct, symbol: spec.symbol, side: 'LONG', qty: A('400'), price: A('12500'), isMaker: false, reserved: false });
    // PnL 400 × (1/10000 − 1/12500) = 0.008; fee 400/12500 × 0.00075 = 0.000024; margin back 0.004
    expect(close).toEqual({ pnl: A('0.008'), fee: A('0.000024'), margin: A('0.004'), uncovered: 0n });
    const p = positions.get(acct, spec.symbol, 'LONG')!;
    expect(p).toMatchObject({ position: A('600'), available: A('600'), margin: A('0.006'), realizedPnl: A('0.008') - A('0.000024') - A('0.00002') });
    expect(ledger.pool('clearing', 'TBTC')).toBe(A('-0.008'));
    expect(ledger.flows(acct, 'TBTC').map((f) => [f.flowType, fmtAmount(f.change)])).toEqual([
      ['TRANSFER', '1'],
      ['FEE', '-0.00002'],
      ['PNL', '0.008'],
      ['FEE', '-0.000024'],
    ]);
    positions.closeFill({ accountId: acct, symbol: spec.symbol, side: 'LONG', qty: A('600'), price: A('10000'), isMaker: false, reserved: false });
    expect(positions.get(acct, spec.symbol, 'LONG')).toBeUndefined();
    expect(ledger.balance(acct, 'TBTC').locked).toBe(0n);
  });

  it('averages inverse entries harmonically, so PnL stays linear in 1/price', () => {
    const spec = inverseSpec();
    const { positions, trader } = world([spec]);
    const acct = trader('TBTC', '1');
    for (const price of ['10000', '12500']) {
      const lock = positions.lockOrderMargin(acct, spec.symbol, A('1000'), A(price), A('10'));
      positions.openFill({ accountId: acct, symbol: spec.symbol, side: 'SHORT', qty: A('1000'), price: A(price), leverage: A('10'), isMaker: false, release: lock });
    }
    // 2000 / (0.1 + 0.08) = 11111.11…
    const p = positions.get(acct, spec.symbol, 'SHORT')!;
    expect(fmtAmount(p.avgPrice, 2)).toBe('11111.11');
    // Short gains 2000 × (1/10000 − 1/11111.11…) = 0.2 − 0.18 = 0.02, off by at most a few 10^-18 from the averaged price.
    const gain = pnl(spec, 'SHORT', p.position, p.avgPrice, A('10000'));
    expect(A('0.02') - gain >= 0n && A('0.02') - gain < 10n).toBe(true);
  });

  it('hold close quantity for close orders and refuse closing more than is available', () => {
    const spec = inverseSpec();
    const { positions, trader } = world([spec]);
    const acct = trader('TBTC', '1');
    const lock = positions.lockOrderMargin(acct, spec.symbol, A('100'), A('10000'), A('5'));
    positions.openFill({ accountId: acct, symbol: spec.symbol, side: 'LONG', qty: A('100'), price: A('10000'), leverage: A('5'), isMaker: false, release: lock });
    positions.reserveClose(acct, spec.symbol, 'LONG', A('60'));
    expect(positions.get(acct, spec.symbol, 'LONG')!.available).toBe(A('40'));
    expectVenueError(() => positions.reserveClose(acct, spec.symbol, 'LONG', A('41')), -1156);
    expectVenueError(() => positions.closeFill({ accountId: acct, symbol: spec.symbol, side: 'LONG', qty: A('41'), price: A('10000'), isMaker: false, reserved: false }), -1156);
    positions.closeFill({ accountId: acct, symbol: spec.symbol, side: 'LONG', qty: A('60'), price: A('10000'), isMaker: false, reserved: true });
    expect(positions.get(acct, spec.symbol, 'LONG')).toMatchObject({ position: A('40'), available: A('40') });
    positions.reserveClose(acct, spec.symbol, 'LONG', A('10'));
    positions.releaseClose(acct, spec.symbol, 'LONG', A('10'));
    expect(positions.get(acct, spec.symbol, 'LONG')!.available).toBe(A('40'));
  });

  it('add and remove margin, refusing a removal below the initial margin with -1161 and changing nothing', () => {
    const spec = inverseSpec();
    const { positions, ledger, trader } = world([spec]);
    const acct = trader('TBTC', '0.05');
    const lock = positions.lockOrderMargin(acct, spec.symbol, A('1000'), A('10000'), A('10'));
    positions.openFill({ accountId: acct, symbol: spec.symbol, side: 'LONG', qty: A('1000'), price: A('10000'), leverage: A('10'), isMaker: false, release: lock });
    expect(positions.modifyMargin(acct, spec.symbol, 'LONG', A('0.02'), A('10000'))).toBe(A('0.03'));
    expect(ledger.balance(acct, 'TBTC')).toEqual({ free: A('0.02'), locked: A('0.03') });
    const before = JSON.stringify(positions.snapshotData()) + ledger.snapshot();
    // Tier initial margin at mark 10000: 0.1 × 0.01 = 0.001; leaving 0.0009 is forbidden.
    const e = expectVenueError(() => positions.modifyMargin(acct, spec.symbol, 'LONG', A('-0.0291'), A('10000')), -1161);
    expect(e.message).toBe('Reduce margin forbidden');
    expectVenueError(() => positions.modifyMargin(acct, spec.symbol, 'LONG', A('0.03'), A('10000')), -1131);
    expectVenueError(() => positions.modifyMargin(acct, spec.symbol, 'SHORT', A('0.01'), A('10000')), -1160);
    expectVenueError(() => positions.modifyMargin(acct, spec.symbol, 'LONG', 0n, A('10000')), -1130);
    expect(JSON.stringify(positions.snapshotData()) + ledger.snapshot()).toBe(before);
    expect(positions.modifyMargin(acct, spec.symbol, 'LONG', A('-0.029'), A('10000'))).toBe(A('0.001'));
  });

  it('refuse an order whose margin the free balance cannot cover with -1131', () => {
    const spec = inverseSpec();
    const { positions, trader } = world([spec]);
    const acct = trader('TBTC', '0.001');
    const e = expectVenueError(() => positions.lockOrderMargin(acct, spec.symbol, A('1000'), A('10000'), A('10')), -1131);
    expect(e).toBeInstanceOf(VenueError);
    expectVenueError(() => positions.lockOrderMargin(acct, 'NOPE', A('1'), A('1'), A('1')), -1130);
  });
});

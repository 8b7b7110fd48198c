import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/fixed.ts';
import { liquidationPrice, marginRate, MARGIN_RATE_DECIMALS, orderMargin, pnl, positionValue, positionView, positionWire } from '../../../src/sim/contracts/index.ts';
import { fmtAmount, toAmount } from '../../../src/sim/ledger/index.ts';
import { inverseSpec, world } from './fixtures.ts';

// The published position (venue-samples.md, positions): BTC-PERP-REV LONG 1100 @ 8183.11, leverage 6,
// margin 0.01251335; venue-notes.md §6: markPrice 8571.42, first-tier maintMargin 0.005.
const PUBLISHED = {
  avgPrice: '8183.11',
  position: '1100',
  positionValue: '0.12833346',
  flp: '7523.65',
  margin: '0.01251335',
  marginRate: '0.14',
  unrealizedPnL: '0.00608975',
};
const MARK = toAmount('8571.42');

describe('the published position sample (venue-notes.md §6)', () => {
  const spec = inverseSpec();
  const qty = toAmount(PUBLISHED.position);
  const avg = toAmount(PUBLISHED.avgPrice);
  const margin = toAmount(PUBLISHED.margin);

  it('reproduces positionValue, unrealizedPnL, flp and marginRate from the same inputs', () => {
    const value = positionValue(spec, qty, MARK);
    const upnl = pnl(spec, 'LONG', qty, avg, MARK);
    const flp = liquidationPrice(spec, 'LONG', qty, avg, margin, toAmount('0.005'));
    expect(fmtAmount(value, 8)).toBe(PUBLISHED.positionValue);
    expect(['0.00608975', '0.00608976']).toContain(fmtAmount(upnl, 8));
    expect(fmtAmount(flp!, 2)).toBe(PUBLISHED.flp);
    expect(fmtAmount(marginRate(margin, upnl, value), MARGIN_RATE_DECIMALS)).toBe(PUBLISHED.marginRate);
  });

  it('rounds the long flp down to the tick (exact 7523.65456…, which the notes show as 7523.6546)', () => {
    const exact = new Decimal('1100').mul('1.005').div(new Decimal('1100').div('8183.11').add('0.01251335'));
    expect(exact.toFixed(5, Decimal.ROUND_DOWN)).toBe('7523.65456');
    expect(exact.toFixed(4, Decimal.ROUND_HALF_UP)).toBe('7523.6546');
    expect(liquidationPrice(spec, 'LONG', qty, avg, margin, toAmount('0.005'))).toBe(toAmount('7523.65'));
  });

  it('reaches the same position through deposits, an open fill and a margin reduction, and shows it as published', () => {
    const { positions, trader, ledger } = world([spec]);
    const acct = trader('TBTC', '1');
    const leverage = toAmount('6');
    const lock = positions.lockOrderMargin(acct, spec.symbol, qty, avg, leverage);
    positions.openFill({ accountId: acct, symbol: spec.symbol, side: 'LONG', qty, price: avg, leverage, isMaker: false, release: lock });
    const p0 = positions.get(acct, spec.symbol, 'LONG')!;
    positions.modifyMargin(acct, spec.symbol, 'LONG', margin - p0.margin, MARK);
    const wire = positionWire(spec, positionView(spec, positions.get(acct, spec.symbol, 'LONG')!, MARK, toAmount('8572.53')));
    expect(wire).toMatchObject({ ...PUBLISHED, available: '1100', leverage: '6', lastPrice: '8572.53', side: 'LONG', symbol: 'BTC-PERP-REV' });
    const account = positions.contractAccount(acct)['TBTC']!;
    expect(account.positionMargin).toBe(margin);
    expect(account.total).toBe(toAmount('1'));
    expect(account.availableMargin).toBe(toAmount('1') - margin);
    expect(ledger.audit().find((a) => a.asset === 'TBTC')!.users).toBe(toAmount('1'));
  });

  it('locks the published marginLocked of a contract order (5 @ 8200, leverage 12.08, no fee: 0.00005047)', () => {
    const m = orderMargin(spec, toAmount('5'), toAmount('8200'), toAmount('12.08'), 0n);
    expect(fmtAmount(m.total, 8)).toBe('0.00005047');
    expect(m.openFee).toBe(0n);
  });
});

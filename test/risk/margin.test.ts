// Contract margin, fees and risk tiers: inverse and linear numbers checked by hand from venue-notes.md §6 and against the published order sample.
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/core/fixed.ts';
import { parseContractOrder } from '../../src/model/index.ts';
import { orderMarginNeed, renderDenial, RiskGate, tierOf, type GateResult } from '../../src/risk/index.ts';
import { loadSample } from '../fixtures/samples.ts';
import { contract, INSTRUMENTS, LIN, margin, REV, snapshot } from './fixtures.ts';

const d = (s: string): Decimal => new Decimal(s);

function line(r: GateResult): string {
  return r.ok ? 'ok' : renderDenial(r.denial);
}

describe('orderMarginNeed', () => {
  it('reproduces the published marginLocked of a BTC-PERP-REV order (5 at 8200, leverage 12.08, no fee)', () => {
    for (const name of ['contract-new-order.official', 'contract-new-order.capture-2020']) {
      const o = parseContractOrder(loadSample(name).payload);
      const need = orderMarginNeed(REV, d(o.origQty), d(o.price), d(o.leverage!), d('0'));
      // By hand: value = 5 × 1 / 8200 = 0.000609756…; margin = value / 12.08 = 5 / 99056 = 0.0000504765…
      expect(need.value.equals(d('5').div('8200'))).toBe(true);
      expect(need.total.equals(d('5').div('99056'))).toBe(true);
      // The venue shows it truncated at marginPrecision 8.
      expect(need.total.toDecimalPlaces(8, Decimal.ROUND_DOWN).toFixed(8)).toBe(o.marginLocked);
    }
  });

  it('inverse: 1000 contracts at 8000, leverage 10, fee 0.0006 → 0.125 value, 0.0125 margin, 0.000075 per fee', () => {
    const m = orderMarginNeed(REV, d('1000'), d('8000'), d('10'), d('0.0006'));
    expect([m.value, m.margin, m.openFee, m.closeFee, m.total].map((x) => x.toFixed())).toEqual(['0.125', '0.0125', '0.000075', '0.000075', '0.01265']);
  });

  it('linear: 1000 contracts × 0.0001 at 9000.5, leverage 10, fee 0.0006 → 900.05 value, 90.005 margin, 0.54003 per fee', () => {
    const m = orderMarginNeed(LIN, d('1000'), d('9000.5'), d('10'), d('0.0006'));
    expect([m.value, m.margin, m.openFee, m.closeFee, m.total].map((x) => x.toFixed())).toEqual(['900.05', '90.005', '0.54003', '0.54003', '91.08506']);
  });
});

describe('CONTRACT_MARGIN through the gate', () => {
  const gate = (fee: string): RiskGate => new RiskGate({ instruments: INSTRUMENTS, config: { fees: { spot: '0.001', contract: fee } } });
  const published = contract({ quantity: '5', price: '8200', leverage: '12.08' });

  it('denies the published order one satoshi short of its exact need, shown rounded up', () => {
    expect(line(gate('0').check(published, snapshot({ contract: { TBTC: margin('TBTC', '0.00005047') } })))).toBe(
      'CONTRACT_MARGIN: token=TBTC need=0.00005048 available=0.00005047 margin=0.00005048 openFee=0 closeFee=0 price=8200 leverage=12.08',
    );
    expect(line(gate('0').check(published, snapshot({ contract: { TBTC: margin('TBTC', '0.00005048') } })))).toBe('ok');
  });

  it('linear: denies below 91.08506 BUSDT and accepts at exactly that', () => {
    const order = contract({ symbol: LIN.symbol, quantity: '1000', price: '9000.5', leverage: '10' });
    expect(line(gate('0.0006').check(order, snapshot({ contract: { BUSDT: margin('BUSDT', '91.085') } })))).toBe(
      'CONTRACT_MARGIN: token=BUSDT need=91.0851 available=91.085 margin=90.005 openFee=0.5401 closeFee=0.5401 price=9000.5 leverage=10',
    );
    expect(line(gate('0.0006').check(order, snapshot({ contract: { BUSDT: margin('BUSDT', '91.08506') } })))).toBe('ok');
  });

  it('values a market buy of an inverse contract at the lower of last and last × 1.05, a linear one at the higher', () => {
    // Inverse: min(8000, 8400) = 8000 → 1000 / 8000 / 10 = 0.0125 with no fee.
    const inv = contract({ priceType: 'MARKET', price: undefined, quantity: '1000', leverage: '10' });
    expect(line(gate('0').check(inv, snapshot({ contract: { TBTC: margin('TBTC', '0.0124') } })))).toBe(
      'CONTRACT_MARGIN: token=TBTC need=0.0125 available=0.0124 margin=0.0125 openFee=0 closeFee=0 price=8000 leverage=10',
    );
    // Linear: max(9000, 9450) = 9450 → 1000 × 0.0001 × 9450 / 10 = 94.5.
    const lin = contract({ symbol: LIN.symbol, priceType: 'MARKET', price: undefined, quantity: '1000', leverage: '10' });
    expect(line(gate('0').check(lin, snapshot({ contract: { BUSDT: margin('BUSDT', '94.4999') } })))).toBe(
      'CONTRACT_MARGIN: token=BUSDT need=94.5 available=94.4999 margin=94.5 openFee=0 closeFee=0 price=9450 leverage=10',
    );
  });

  it('needs no margin to close', () => {
    const snap = snapshot({
      contract: { TBTC: margin('TBTC', '0') },
      positions: [{ symbol: REV.symbol, side: 'LONG', quantity: '1100', avgPrice: '8183.11', margin: '0.01251335' }],
    });
    expect(line(gate('0.0006').check(contract({ side: 'SELL_CLOSE', leverage: undefined, quantity: '1100' }), snap))).toBe('ok');
  });
});

describe('RISK_LIMIT_TIER', () => {
  const gate = new RiskGate({ instruments: INSTRUMENTS, config: {} });
  const at = (qty: string) => snapshot({ positions: [{ symbol: REV.symbol, side: 'LONG', quantity: qty, avgPrice: '8000', margin: '1' }] });

  it('finds the tier whose quantity is not below the position', () => {
    expect(tierOf(REV.riskLimits, '1000000')?.riskLimitId).toBe('200000001');
    expect(tierOf(REV.riskLimits, '1000001')?.riskLimitId).toBe('200000002');
    expect(tierOf(REV.riskLimits, '4000001')).toBeUndefined();
  });

  it('allows 1 / initialMargin as leverage: 100 in the first tier, 50 in the second', () => {
    expect(line(gate.check(contract({ quantity: '10', leverage: '100' }), at('0')))).toBe('ok');
    expect(line(gate.check(contract({ quantity: '10', leverage: '50' }), at('999995')))).toBe('ok');
    expect(line(gate.check(contract({ quantity: '10', leverage: '50.01' }), at('999995')))).toBe(
      'RISK_LIMIT_TIER: symbol=BTC-PERP-REV resulting=1000005 tier=200000002 initialMargin=0.02 leverage=50.01 maxLeverage=50',
    );
    expect(line(gate.check(contract({ quantity: '10', leverage: '34' }), at('2999995')))).toBe(
      'RISK_LIMIT_TIER: symbol=BTC-PERP-REV resulting=3000005 tier=200000004 initialMargin=0.04 leverage=34 maxLeverage=25',
    );
  });

  it('denies a position beyond the highest tier, but not a close of it', () => {
    expect(line(gate.check(contract({ quantity: '100', leverage: '2' }), at('3999990')))).toBe('RISK_LIMIT_TIER: symbol=BTC-PERP-REV resulting=4000090 maxQty=4000000');
    expect(line(gate.check(contract({ side: 'SELL_CLOSE', quantity: '100', leverage: undefined }), at('3999990')))).toBe('ok');
  });

  it('counts only the side being opened', () => {
    expect(line(gate.check(contract({ side: 'SELL_OPEN', quantity: '100', leverage: '2' }), at('3999990')))).toBe('ok');
  });
});

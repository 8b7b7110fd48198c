// Exchange filters through the gate: rounding to the tick toward the passive side and down to the step, or denying, per config.
import { describe, expect, it } from 'vitest';
import { RiskGate, renderDenial, type GateResult, type OrderIntent, type PlaceIntent } from '../../src/risk/index.ts';
import { contract, INSTRUMENTS, LIN, snapshot, spot } from './fixtures.ts';

function gate(rounding: 'round' | 'deny'): RiskGate {
  return new RiskGate({ instruments: INSTRUMENTS, config: { rounding } });
}

function accepted(r: GateResult): { intent: PlaceIntent; notes: string[] } {
  if (!r.ok) throw new Error(`denied: ${renderDenial(r.denial)}`);
  return { intent: r.intent as PlaceIntent, notes: r.adjusted.map(renderDenial) };
}

function denied(r: GateResult): string {
  if (r.ok) throw new Error(`accepted: ${JSON.stringify(r.intent)}`);
  return renderDenial(r.denial);
}

const check = (g: RiskGate, i: OrderIntent): GateResult => g.check(i, snapshot({ spot: { USDT: { free: '1000000', locked: '0' }, ETH: { free: '100', locked: '0' } } }));

describe('PRICE_FILTER', () => {
  it('rounds a buy down and a sell up to the tick, and says so', () => {
    const buy = accepted(check(gate('round'), spot({ price: '3000.005' })));
    expect(buy.intent).toMatchObject({ price: '3000' });
    expect(buy.notes).toEqual(['PRICE_FILTER: price=3000.005 rounded=3000 tickSize=0.01']);
    const sell = accepted(check(gate('round'), spot({ side: 'SELL', price: '3000.001' })));
    expect(sell.intent).toMatchObject({ price: '3000.01' });
  });

  it('leaves a price already on the tick exactly as written', () => {
    const r = accepted(check(gate('round'), spot({ price: '3000.10' })));
    expect(r.intent).toMatchObject({ price: '3000.10' });
    expect(r.notes).toEqual([]);
  });

  it('denies a price off the tick in deny mode', () => {
    expect(denied(check(gate('deny'), spot({ price: '2999.999' })))).toBe('PRICE_FILTER: price=2999.999 tickSize=0.01');
  });

  it('denies prices outside minPrice..maxPrice, even after rounding', () => {
    expect(denied(check(gate('deny'), spot({ price: '100000.01' })))).toBe('PRICE_FILTER: price=100000.01 maxPrice=100000');
    expect(denied(check(gate('round'), spot({ price: '0.004' })))).toBe('PRICE_FILTER: price=0.004 rounded=0 minPrice=0.01');
  });

  it('rounds a contract price on the contract tick (BTC-PERP-BUSDT: 0.1), and a trigger price too', () => {
    const r = accepted(check(gate('round'), contract({ symbol: LIN.symbol, side: 'SELL_OPEN', price: '9000.04', quantity: '10', orderType: 'STOP', triggerPrice: '8999.91' })));
    expect(r.intent).toMatchObject({ price: '9000.1', triggerPrice: '9000' });
    expect(denied(check(gate('deny'), contract({ symbol: LIN.symbol, orderType: 'STOP', price: '9000', triggerPrice: '8999.95' })))).toBe(
      'PRICE_FILTER: triggerPrice=8999.95 tickSize=0.1',
    );
  });

  it('does not price-check market orders', () => {
    const r = accepted(check(gate('deny'), spot({ side: 'SELL', type: 'MARKET', price: '1.234567', quantity: '1' })));
    expect(r.intent).toMatchObject({ type: 'MARKET', quantity: '1' });
  });
});

describe('LOT_SIZE', () => {
  it('rounds a quantity down to the step in round mode', () => {
    const r = accepted(check(gate('round'), spot({ quantity: '1.23456' })));
    expect(r.intent).toMatchObject({ quantity: '1.2345' });
    expect(r.notes).toEqual(['LOT_SIZE: qty=1.23456 rounded=1.2345 stepSize=0.0001']);
  });

  it('denies a quantity off the step in deny mode', () => {
    expect(denied(check(gate('deny'), spot({ quantity: '0.00105' })))).toBe('LOT_SIZE: qty=0.00105 stepSize=0.0001');
  });

  it('denies a quantity that rounds below minQty, showing both', () => {
    expect(denied(check(gate('round'), spot({ quantity: '0.00099' })))).toBe('LOT_SIZE: qty=0.00099 rounded=0.0009 minQty=0.001');
  });

  it('denies above maxQty', () => {
    expect(denied(check(gate('round'), spot({ side: 'SELL', quantity: '100000.0001' })))).toBe('LOT_SIZE: qty=100000.0001 maxQty=100000');
  });

  it('rounds contracts to whole contracts', () => {
    expect(accepted(check(gate('round'), contract({ quantity: '10.9' }))).intent).toMatchObject({ quantity: '10' });
    expect(denied(check(gate('round'), contract({ quantity: '0.9' })))).toBe('LOT_SIZE: qty=0.9 rounded=0 minQty=1');
  });

  it('holds a spot MARKET BUY quantity, a quote amount, to the tick (as the venue does, -1148), not to the step', () => {
    expect(accepted(check(gate('deny'), spot({ type: 'MARKET', price: undefined, quantity: '25.12' }))).intent).toMatchObject({ quantity: '25.12' });
    expect(denied(check(gate('deny'), spot({ type: 'MARKET', price: undefined, quantity: '25.123' })))).toBe('LOT_SIZE: amount=25.123 tickSize=0.01');
    const r = accepted(check(gate('round'), spot({ type: 'MARKET', price: undefined, quantity: '25.129' })));
    expect(r.intent).toMatchObject({ quantity: '25.12' });
    expect(r.notes).toEqual(['LOT_SIZE: amount=25.129 rounded=25.12 tickSize=0.01']);
    expect(denied(check(gate('round'), spot({ type: 'MARKET', price: undefined, quantity: '0.009' })))).toBe('LOT_SIZE: amount=0.009 rounded=0 tickSize=0.01');
  });
});

describe('MIN_NOTIONAL', () => {
  it('is judged after rounding: a quantity rounded down can fall below the minimum', () => {
    // 0.00339 → 0.0033 at 3030: 9.999 < 10.
    expect(denied(check(gate('round'), spot({ price: '3030', quantity: '0.00339' })))).toBe('MIN_NOTIONAL: qty=0.0033 price=3030 notional=9.999 minNotional=10');
    expect(accepted(check(gate('round'), spot({ price: '3030.31', quantity: '0.0033' }))).intent).toMatchObject({ quantity: '0.0033' });
  });

  it('takes a MARKET BUY amount as its notional and a MARKET SELL at the last price', () => {
    expect(denied(check(gate('round'), spot({ type: 'MARKET', price: undefined, quantity: '9.99' })))).toBe('MIN_NOTIONAL: notional=9.99 minNotional=10');
    expect(denied(check(gate('round'), spot({ side: 'SELL', type: 'MARKET', price: undefined, quantity: '0.003' })))).toBe(
      'MIN_NOTIONAL: qty=0.003 price=3000 notional=9 minNotional=10',
    );
  });
});

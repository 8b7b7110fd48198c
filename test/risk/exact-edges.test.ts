// The checks most orders pass are decided on scaled integers: the edges are exact — funds that cover an order to the last unit pass and one unit short is denied, quantities and prices exactly on the grid pass and off it are rounded or denied.
import { describe, expect, it } from 'vitest';
import { renderDenial, RiskGate, type GateResult } from '../../src/risk/index.ts';
import { INSTRUMENTS, snapshot, spot } from './fixtures.ts';

function line(r: GateResult): string {
  return r.ok ? 'ok' : renderDenial(r.denial);
}

describe('exact edges of the passing checks', () => {
  const gate = new RiskGate({ instruments: INSTRUMENTS, config: {} });
  it('a spot buy whose cost and fee equal the free quote exactly passes; 0.00000001 less free is denied', () => {
    // 3000 × 0.01 = 30, fee 0.1 % = 0.03: 30.03 needed.
    expect(line(gate.check(spot({ quantity: '0.01', price: '3000' }), snapshot({ spot: { USDT: { free: '30.03', locked: '0' } } })))).toBe('ok');
    expect(line(gate.check(spot({ quantity: '0.01', price: '3000' }), snapshot({ spot: { USDT: { free: '30.02999999', locked: '0' } } })))).toBe(
      'SPOT_BALANCE: asset=USDT need=30.03 free=30.02999999 cost=30 fee=0.03',
    );
  });

  it('a spot sell needs its quantity of the base, to the last unit', () => {
    expect(line(gate.check(spot({ side: 'SELL', quantity: '0.5' }), snapshot({ spot: { ETH: { free: '0.5', locked: '0' } } })))).toBe('ok');
    expect(line(gate.check(spot({ side: 'SELL', quantity: '0.5' }), snapshot({ spot: { ETH: { free: '0.49999', locked: '0' } } })))).toBe(
      'SPOT_BALANCE: asset=ETH need=0.5 free=0.49999',
    );
  });

  it('prices and quantities written with trailing zeros are on the grid as they are', () => {
    const r = gate.check(spot({ price: '3000.1000', quantity: '0.0100' }), snapshot());
    expect(r.ok && r.intent).toMatchObject({ price: '3000.1000', quantity: '0.0100' });
    expect(r.ok && r.adjusted).toEqual([]);
  });
});

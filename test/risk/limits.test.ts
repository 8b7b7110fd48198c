// Exposure limits per symbol: price band around last or mark, open orders, position and notional caps, and the prices they need.
import { describe, expect, it } from 'vitest';
import { renderDenial, RiskGate, runRiskConfigSchema, type GateResult } from '../../src/risk/index.ts';
import { contract, INSTRUMENTS, LIN, REV, snapshot, spot } from './fixtures.ts';

function line(r: GateResult): string {
  return r.ok ? 'ok' : renderDenial(r.denial);
}

describe('PRICE_BAND', () => {
  it('bands around the mark price when configured, inclusive at both edges', () => {
    const gate = new RiskGate({ instruments: INSTRUMENTS, config: { symbols: { [REV.symbol]: { priceBandPct: '2.5', priceBandRef: 'mark' } } } });
    // mark 8010: low 7809.75, high 8210.25.
    expect(line(gate.check(contract({ price: '7809.75' }), snapshot()))).toBe('ok');
    expect(line(gate.check(contract({ price: '8210.25' }), snapshot()))).toBe('ok');
    expect(line(gate.check(contract({ price: '7809.74' }), snapshot()))).toBe(
      'PRICE_BAND: price=7809.74 ref=mark refPrice=8010 bandPct=2.5 low=7809.75 high=8210.25',
    );
  });

  it('judges the rounded price, and says NO_PRICE when the reference is unknown', () => {
    const gate = new RiskGate({ instruments: INSTRUMENTS, config: { defaults: { priceBandPct: '5' } } });
    // 3150.004 is a buy: rounded down to 3150.00, inside the band.
    expect(line(gate.check(spot({ price: '3150.004' }), snapshot()))).toBe('ok');
    expect(line(gate.check(spot(), snapshot({ prices: {} })))).toBe('NO_PRICE: symbol=ETHUSDT need=last for=PRICE_BAND');
  });
});

describe('the default fat-finger band of a run config', () => {
  const withBtc = (): ReturnType<typeof snapshot> => snapshot({ spot: { USDT: { free: '1000000', locked: '0' }, BTC: { free: '1', locked: '0' } } });
  it('is on for every symbol of a config that names no band: a sell at a stray bid a third under the market is denied', () => {
    const gate = new RiskGate({ instruments: INSTRUMENTS, config: runRiskConfigSchema.parse({}) });
    expect(line(gate.check(spot({ symbol: 'BTCUSDT', side: 'SELL', price: '20000', quantity: '0.001' }), withBtc()))).toBe(
      'PRICE_BAND: price=20000 ref=last refPrice=30000 bandPct=10 low=27000 high=33000',
    );
    expect(line(gate.check(spot({ symbol: 'BTCUSDT', side: 'SELL', price: '29990', quantity: '0.001' }), withBtc()))).toBe('ok');
  });

  it('bands spot around the book\'s mid until the first trade, and says NO_PRICE with neither', () => {
    const gate = new RiskGate({ instruments: INSTRUMENTS, config: runRiskConfigSchema.parse({}) });
    const noTrade = (prices: Record<string, { mid?: string }>) => snapshot({ prices });
    expect(line(gate.check(spot({ price: '2000' }), noTrade({ ETHUSDT: { mid: '3000.005' } })))).toBe(
      'PRICE_BAND: price=2000 ref=mid refPrice=3000.005 bandPct=10 low=2700.0045 high=3300.0055',
    );
    expect(line(gate.check(spot({ price: '2999' }), noTrade({ ETHUSDT: { mid: '3000.005' } })))).toBe('ok');
    expect(line(gate.check(spot({ price: '2999' }), noTrade({})))).toBe('NO_PRICE: symbol=ETHUSDT need=last for=PRICE_BAND');
  });

  it('bands contracts around their mark, and stays on when defaults name other limits', () => {
    const gate = new RiskGate({ instruments: INSTRUMENTS, config: runRiskConfigSchema.parse({ defaults: { maxOpenOrders: 5 } }) });
    expect(line(gate.check(contract({ price: '7200' }), snapshot()))).toBe(
      'PRICE_BAND: price=7200 ref=mark refPrice=8010 bandPct=10 low=7209 high=8811',
    );
  });

  it('is turned off with priceBandPct: off, for every symbol or one', () => {
    const off = new RiskGate({ instruments: INSTRUMENTS, config: runRiskConfigSchema.parse({ defaults: { priceBandPct: 'off' } }) });
    expect(line(off.check(spot({ symbol: 'BTCUSDT', side: 'SELL', price: '20000', quantity: '0.001' }), withBtc()))).toBe('ok');
    const one = new RiskGate({ instruments: INSTRUMENTS, config: runRiskConfigSchema.parse({ symbols: { BTCUSDT: { priceBandPct: 'off' } } }) });
    expect(line(one.check(spot({ symbol: 'BTCUSDT', side: 'SELL', price: '20000', quantity: '0.001' }), withBtc()))).toBe('ok');
    expect(line(one.check(spot({ price: '2000' }), snapshot()))).toMatch(/^PRICE_BAND: /);
  });
});

describe('MAX_POSITION and MAX_NOTIONAL', () => {
  const gate = new RiskGate({
    instruments: INSTRUMENTS,
    config: { symbols: { [REV.symbol]: { maxPosition: '1000', maxNotional: '0.1' }, ETHUSDT: { maxPosition: '1' }, [LIN.symbol]: { maxNotional: '900' } } },
  });
  const pos = (side: 'LONG' | 'SHORT', quantity: string) => snapshot({ positions: [{ symbol: REV.symbol, side, quantity, avgPrice: '8000', margin: '0.01' }] });

  it('caps contracts on the side being opened, and never a close', () => {
    expect(line(gate.check(contract({ quantity: '100', price: '10000' }), pos('LONG', '900')))).toBe('ok');
    expect(line(gate.check(contract({ quantity: '101', price: '10000' }), pos('LONG', '900')))).toBe(
      'MAX_POSITION: symbol=BTC-PERP-REV position=900 order=101 resulting=1001 max=1000',
    );
    expect(line(gate.check(contract({ side: 'SELL_OPEN', quantity: '101', price: '10000' }), pos('LONG', '900')))).toBe('ok');
    expect(line(gate.check(contract({ side: 'SELL_CLOSE', quantity: '900', leverage: undefined, price: '10000' }), pos('LONG', '900')))).toBe('ok');
  });

  it('caps inverse value in the margin token: 900 contracts at 8000 = 0.1125 BTC', () => {
    expect(line(gate.check(contract({ quantity: '100', price: '8000' }), pos('LONG', '700')))).toBe('ok');
    expect(line(gate.check(contract({ quantity: '200', price: '8000' }), pos('LONG', '700')))).toBe(
      'MAX_NOTIONAL: symbol=BTC-PERP-REV resulting=900 price=8000 notional=0.1125 max=0.1',
    );
  });

  it('caps linear value: 1000 × 0.0001 × 9000 = 900 BUSDT passes, one tick higher does not', () => {
    const lin = (price: string) => contract({ symbol: LIN.symbol, quantity: '1000', price });
    expect(line(gate.check(lin('9000'), snapshot()))).toBe('ok');
    expect(line(gate.check(lin('9000.1'), snapshot()))).toBe('MAX_NOTIONAL: symbol=BTC-PERP-BUSDT resulting=1000 price=9000.1 notional=900.01 max=900');
  });

  it('estimates a spot market buy in base from its quote amount at the last price', () => {
    const held = snapshot({ spot: { USDT: { free: '100000', locked: '0' }, ETH: { free: '0.5', locked: '0' } } });
    // 1500 USDT / 3000 = 0.5 ETH → exactly 1.
    expect(line(gate.check(spot({ type: 'MARKET', price: undefined, quantity: '1500' }), held))).toBe('ok');
    expect(line(gate.check(spot({ type: 'MARKET', price: undefined, quantity: '1501' }), held))).toBe(
      'MAX_POSITION: symbol=ETHUSDT position=0.5 order=0.500333333334 resulting=1.000333333334 max=1',
    );
  });
});

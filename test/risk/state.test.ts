// Trading state (switched while running), daily loss, order rate on the snapshot clock, cancels, closes and intake denials.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { RateWindow, renderDenial, RiskDeniedError, RiskGate, type GateResult, type OrderIntent, type PortfolioSnapshot } from '../../src/risk/index.ts';
import { contract, INSTRUMENTS, REV, snapshot, spot } from './fixtures.ts';

function line(r: GateResult): string {
  return r.ok ? 'ok' : renderDenial(r.denial);
}

const cancel: OrderIntent = { kind: 'cancel', strategyId: 'mm', symbol: 'ETHUSDT', clientOrderId: 'c1' };
const cancelAll: OrderIntent = { kind: 'cancelAll', strategyId: 'mm' };
const longRev = snapshot({ positions: [{ symbol: REV.symbol, side: 'LONG', quantity: '300', avgPrice: '8100', margin: '0.01' }] });
const withEth = snapshot({ spot: { USDT: { free: '100000', locked: '0' }, ETH: { free: '0.5', locked: '0.2' } } });

describe('trading state', () => {
  it('reducing lets through closes, spot sells of base held and cancels, and nothing that adds', () => {
    const gate = new RiskGate({ instruments: INSTRUMENTS, config: {} });
    expect(line(gate.check(contract(), longRev))).toBe('ok');
    gate.setTradingState('reducing');
    expect(gate.tradingState).toBe('reducing');
    expect(line(gate.check(contract(), longRev))).toBe('TRADING_STATE: state=reducing kind=placeContract side=BUY_OPEN symbol=BTC-PERP-REV');
    expect(line(gate.check(contract({ side: 'SELL_CLOSE', quantity: '100', leverage: undefined }), longRev))).toBe('ok');
    expect(line(gate.check(spot({ side: 'SELL', quantity: '0.5' }), withEth))).toBe('ok');
    // 0.7 is held (0.2 of it locked), so it reduces, but only 0.5 is free to sell.
    expect(line(gate.check(spot({ side: 'SELL', quantity: '0.7' }), withEth))).toBe('SPOT_BALANCE: asset=ETH need=0.7 free=0.5');
    expect(line(gate.check(spot({ side: 'SELL', quantity: '0.7001' }), withEth))).toBe('TRADING_STATE: state=reducing kind=placeSpot side=SELL symbol=ETHUSDT');
    expect(line(gate.check({ kind: 'closePosition', strategyId: 'trend', symbol: REV.symbol, clientOrderId: 'z', side: 'LONG' }, longRev))).toBe('ok');
    expect(line(gate.check(cancel, longRev))).toBe('ok');
  });

  it('halted lets through only cancels, and switching back to active restores trading', () => {
    const gate = new RiskGate({ instruments: INSTRUMENTS, config: {} });
    gate.setTradingState('halted');
    expect(line(gate.check(contract({ side: 'SELL_CLOSE', quantity: '100', leverage: undefined }), longRev))).toBe(
      'TRADING_STATE: state=halted kind=placeContract side=SELL_CLOSE symbol=BTC-PERP-REV',
    );
    expect(line(gate.check({ kind: 'closePosition', strategyId: 'trend', symbol: REV.symbol, clientOrderId: 'z', side: 'LONG' }, longRev))).toBe(
      'TRADING_STATE: state=halted kind=closePosition side=LONG symbol=BTC-PERP-REV',
    );
    expect(line(gate.check(cancel, longRev))).toBe('ok');
    expect(line(gate.check(cancelAll, longRev))).toBe('ok');
    gate.setTradingState('active');
    expect(line(gate.check(contract(), longRev))).toBe('ok');
  });

  it('starts in the configured state', () => {
    expect(new RiskGate({ instruments: INSTRUMENTS, config: { tradingState: 'reducing' } }).tradingState).toBe('reducing');
  });
});

describe('cancels', () => {
  it('always pass, whatever the symbol, state, limits or snapshot', () => {
    const gate = new RiskGate({ instruments: new Map(), config: { tradingState: 'halted', strategy: { dailyLossLimit: '1', orderRate: { perSecond: 1 } } } });
    const broke: PortfolioSnapshot = { ...snapshot(), spot: {}, contract: {}, prices: {}, pnlToday: { mm: '-1000' } };
    for (let i = 0; i < 5; i++) {
      expect(gate.check(cancel, broke)).toEqual({ ok: true, intent: cancel, adjusted: [] });
      expect(gate.check(cancelAll, broke).ok).toBe(true);
    }
  });
});

describe('DAILY_LOSS', () => {
  const gate = new RiskGate({ instruments: INSTRUMENTS, config: { strategy: { dailyLossLimit: '100' }, strategies: { trend: { dailyLossLimit: '0.01' } } } });

  it('denies new risk below −limit, allows it at exactly −limit', () => {
    expect(line(gate.check(spot(), snapshot({ pnlToday: { mm: '-100' } })))).toBe('ok');
    expect(line(gate.check(spot(), snapshot({ pnlToday: { mm: '-100.0001' } })))).toBe('DAILY_LOSS: strategy=mm pnl=-100.0001 limit=100');
  });

  it('still allows reducing orders', () => {
    const snap = snapshot({ ...withEth, pnlToday: { mm: '-500' } });
    expect(line(gate.check(spot({ side: 'SELL', quantity: '0.5' }), snap))).toBe('ok');
  });

  it('takes a strategy’s own limit over the shared one', () => {
    const snap = snapshot({ ...longRev, pnlToday: { trend: '-0.02' } });
    expect(line(gate.check(contract(), snap))).toBe('DAILY_LOSS: strategy=trend pnl=-0.02 limit=0.01');
    expect(line(gate.check(contract({ side: 'SELL_CLOSE', quantity: '10', leverage: undefined }), snap))).toBe('ok');
  });
});

describe('ORDER_RATE', () => {
  it('slides a per-second and a per-minute window over the snapshot clock, per strategy', async () => {
    const clock = new VirtualClock(1_700_000_000_000);
    const gate = new RiskGate({ instruments: INSTRUMENTS, config: { strategy: { orderRate: { perSecond: 2, perMinute: 3 } } } });
    const at = (): PortfolioSnapshot => snapshot({ now: clock.now() });
    expect(line(gate.check(spot(), at()))).toBe('ok');
    await clock.advance(400);
    expect(line(gate.check(spot(), at()))).toBe('ok');
    await clock.advance(599);
    expect(line(gate.check(spot(), at()))).toBe('ORDER_RATE: strategy=mm count=2 limit=2 window=1s');
    // Another strategy has its own window.
    expect(line(gate.check(spot({ strategyId: 'grid' }), at()))).toBe('ok');
    await clock.advance(1);
    expect(line(gate.check(spot(), at()))).toBe('ok');
    await clock.advance(1_000);
    expect(line(gate.check(spot(), at()))).toBe('ORDER_RATE: strategy=mm count=3 limit=3 window=1m');
    await clock.advance(60_000 - 2_000);
    expect(line(gate.check(spot(), at()))).toBe('ok');
  });

  it('does not count denied intents or cancels', () => {
    const gate = new RiskGate({ instruments: INSTRUMENTS, config: { strategy: { orderRate: { perSecond: 1 } } } });
    const snap = snapshot();
    expect(gate.check(spot({ quantity: '0.00001' }), snap).ok).toBe(false);
    expect(gate.check(cancel, snap).ok).toBe(true);
    expect(line(gate.check(spot(), snap))).toBe('ok');
    expect(line(gate.check(spot(), snap))).toBe('ORDER_RATE: strategy=mm count=1 limit=1 window=1s');
  });

  it('keeps its state in the RateWindow passed in', () => {
    const window = new RateWindow();
    window.record('mm', 1_700_000_000_000 - 10);
    const gate = new RiskGate({ instruments: INSTRUMENTS, config: { strategy: { orderRate: { perSecond: 1 } } }, window });
    expect(line(gate.check(spot(), snapshot()))).toBe('ORDER_RATE: strategy=mm count=1 limit=1 window=1s');
    expect(window.count('mm', 1_700_000_000_000 + 989, 1_000)).toBe(1);
    expect(window.count('mm', 1_700_000_000_000 + 990, 1_000)).toBe(0);
  });
});

describe('closePosition', () => {
  const gate = new RiskGate({ instruments: INSTRUMENTS, config: {} });

  it('becomes a market (IOC) SELL_CLOSE of the whole long, or a limit BUY_CLOSE of part of a short', () => {
    const r = gate.check({ kind: 'closePosition', strategyId: 'trend', symbol: REV.symbol, clientOrderId: 'z', side: 'LONG' }, longRev);
    expect(r).toMatchObject({ ok: true, intent: { kind: 'placeContract', side: 'SELL_CLOSE', priceType: 'MARKET', orderType: 'LIMIT', timeInForce: 'IOC', quantity: '300', clientOrderId: 'z' } });
    const short = snapshot({ positions: [{ symbol: REV.symbol, side: 'SHORT', quantity: '50', avgPrice: '8100', margin: '0.01' }] });
    const p = gate.check({ kind: 'closePosition', strategyId: 'trend', symbol: REV.symbol, clientOrderId: 'y', side: 'SHORT', quantity: '20', price: '8000.005' }, short);
    expect(p).toMatchObject({ ok: true, intent: { side: 'BUY_CLOSE', priceType: 'INPUT', price: '8000', quantity: '20' } });
  });

  it('sells only what the strategy holds from its own fills, rounded down to the step, as a LIMIT IOC a bounded distance below the last price', () => {
    const snap = snapshot({ spot: { USDT: { free: '0', locked: '0' }, ETH: { free: '10', locked: '0.1' } }, held: { mm: { ETHUSDT: '0.123456' } } });
    const r = gate.check({ kind: 'closePosition', strategyId: 'mm', symbol: 'ETHUSDT', clientOrderId: 's', side: 'LONG' }, snap);
    expect(r).toMatchObject({ ok: true, intent: { kind: 'placeSpot', side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', price: '2970', quantity: '0.1234' } });
    const part = gate.check({ kind: 'closePosition', strategyId: 'mm', symbol: 'ETHUSDT', clientOrderId: 't', side: 'LONG', quantity: '5' }, snap);
    expect(part).toMatchObject({ ok: true, intent: { quantity: '0.1234' } });
    const near = new RiskGate({ instruments: INSTRUMENTS, config: { closeDistancePct: '0.25' } });
    expect(near.check({ kind: 'closePosition', strategyId: 'mm', symbol: 'ETHUSDT', clientOrderId: 'u', side: 'LONG' }, snap)).toMatchObject({ ok: true, intent: { price: '2992.5' } });
  });

  it('closes only the contracts of the side the strategy holds from its own fills, never another strategy\'s, nor more than the account holds', () => {
    const shared = (own: string): ReturnType<typeof snapshot> => ({ ...longRev, held: { trend: { [REV.symbol]: own } } });
    const close = (quantity?: string) => ({ kind: 'closePosition' as const, strategyId: 'trend', symbol: REV.symbol, clientOrderId: 'c', side: 'LONG' as const, ...(quantity === undefined ? {} : { quantity }) });
    // The account is long 300; this strategy's fills hold 100 of them.
    expect(gate.check(close(), shared('100'))).toMatchObject({ ok: true, intent: { side: 'SELL_CLOSE', quantity: '100' } });
    expect(gate.check(close('250'), shared('100'))).toMatchObject({ ok: true, intent: { quantity: '100' } });
    expect(gate.check(close('40'), shared('100'))).toMatchObject({ ok: true, intent: { quantity: '40' } });
    expect(gate.check(close(), shared('500'))).toMatchObject({ ok: true, intent: { quantity: '300' } });
    expect(line(gate.check(close(), shared('0')))).toBe('NO_POSITION: symbol=BTC-PERP-REV side=LONG held=0');
  });

  it('a strategy holding nothing sells nothing, whatever base the account holds', () => {
    const snap = snapshot({ spot: { USDT: { free: '0', locked: '0' }, ETH: { free: '10', locked: '0' } }, held: { other: { ETHUSDT: '3' } } });
    expect(line(gate.check({ kind: 'closePosition', strategyId: 'mm', symbol: 'ETHUSDT', clientOrderId: 's', side: 'LONG' }, snap))).toBe('NO_POSITION: symbol=ETHUSDT side=LONG held=0');
  });
});

describe('intake', () => {
  const gate = new RiskGate({ instruments: INSTRUMENTS, config: {} });

  it('names the field and the rule of a malformed intent', () => {
    expect(line(gate.check(spot({ price: undefined }), snapshot()))).toBe('INVALID_INTENT: field=price rule="required for a LIMIT order"');
    expect(line(gate.check(spot({ quantity: '1e3' }), snapshot()))).toBe('INVALID_INTENT: field=quantity rule="must be a positive decimal string" value=1e3');
    for (const q of ['+1', '.5', '3.', '0', ' 1']) expect(gate.check(spot({ quantity: q }), snapshot())).toMatchObject({ ok: false, denial: { code: 'INVALID_INTENT' } });
    expect(line(gate.check(contract({ leverage: undefined }), snapshot()))).toBe('INVALID_INTENT: field=leverage rule="required to open (BUY_OPEN)"');
    expect(line(gate.check(spot({ symbol: REV.symbol }), snapshot()))).toBe('INVALID_INTENT: field=kind rule="placeSpot on a inverse contract" value=placeSpot');
    expect(line(gate.check({ kind: 'replace', strategyId: 'mm', symbol: 'ETHUSDT', replaces: 'c0', order: spot({ symbol: 'BTCUSDT' }) }, snapshot()))).toBe(
      'INVALID_INTENT: field=order.symbol rule="must be the replaced order\'s symbol ETHUSDT" value=BTCUSDT',
    );
  });

  it('returns a replace with its new order rounded, without counting it as one more open order', () => {
    const g = new RiskGate({ instruments: INSTRUMENTS, config: { symbols: { ETHUSDT: { maxOpenOrders: 2 } } } });
    const snap = snapshot({ openOrders: { ETHUSDT: { mm: 2 } } });
    const r = g.check({ kind: 'replace', strategyId: 'mm', symbol: 'ETHUSDT', replaces: 'c0', order: spot({ price: '2999.999' }) }, snap);
    expect(r).toMatchObject({ ok: true, intent: { kind: 'replace', replaces: 'c0', order: { price: '2999.99' } } });
    expect(line(g.check(spot(), snap))).toBe('MAX_OPEN_ORDERS: symbol=ETHUSDT open=2 max=2');
  });

  it('turns a denial into a typed error with retry class denied', () => {
    const r = gate.check(spot({ quantity: '0.0001' }), snapshot());
    if (r.ok) throw new Error('accepted');
    const err = new RiskDeniedError(r.denial);
    expect([err.code, err.retry, err.message]).toEqual(['RISK_DENIED', 'denied', 'LOT_SIZE: qty=0.0001 minQty=0.001']);
    expect(err.context).toMatchObject({ riskCode: 'LOT_SIZE', qty: '0.0001' });
  });

  it('refuses a bad config naming the key and the rule', () => {
    const bad = (config: unknown): string => {
      try {
        new RiskGate({ instruments: INSTRUMENTS, config });
        return 'accepted';
      } catch (e) {
        return e instanceof ConfigError ? e.message : String(e);
      }
    };
    expect(bad({ symbols: { ETHUSDT: { maxPosition: 1 } } })).toMatch(/^risk\.symbols\.ETHUSDT\.maxPosition: /);
    expect(bad({ strategy: { orderRate: { perSecond: 0 } } })).toBe('risk.strategy.orderRate.perSecond: must be at least 1');
    expect(bad({ tradingState: 'paused' })).toMatch(/^risk\.tradingState: /);
    expect(bad({ symbols: { ETHUSDT: { maxPositon: '1' } } })).toMatch(/^risk\.symbols\.ETHUSDT\.maxPositon: /);
  });
});

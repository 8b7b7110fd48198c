// One scenario per denial code through the RiskGate, each checked by its rendered line with its numbers.
import { describe, expect, it } from 'vitest';
import { RISK_CODES, RiskGate, renderDenial, type OrderIntent, type PortfolioSnapshot, type RiskCode } from '../../src/risk/index.ts';
import { contract, ETHUSDT, INSTRUMENTS, margin, snapshot, spot } from './fixtures.ts';

interface Scenario {
  readonly code: RiskCode;
  readonly config?: unknown;
  readonly snap?: Partial<PortfolioSnapshot>;
  readonly halted?: boolean;
  readonly before?: readonly OrderIntent[];
  readonly intent: OrderIntent;
  readonly line: string;
}

const withEth = (free: string, locked = '0'): Partial<PortfolioSnapshot> => ({ spot: { USDT: { free: '1000000', locked: '0' }, ETH: { free, locked } } });

const SCENARIOS: readonly Scenario[] = [
  { code: 'UNKNOWN_SYMBOL', intent: spot({ symbol: 'DOGEUSDT' }), line: 'UNKNOWN_SYMBOL: symbol=DOGEUSDT' },
  { code: 'INVALID_INTENT', intent: spot({ quantity: '-1' }), line: 'INVALID_INTENT: field=quantity rule="must be a positive decimal string" value=-1' },
  { code: 'TRADING_STATE', config: { tradingState: 'halted' }, intent: spot(), line: 'TRADING_STATE: state=halted kind=placeSpot side=BUY symbol=ETHUSDT' },
  { code: 'SYMBOL_STATUS', halted: true, intent: spot(), line: 'SYMBOL_STATUS: symbol=ETHUSDT status=HALT' },
  {
    code: 'NO_POSITION',
    intent: { kind: 'closePosition', strategyId: 'trend', symbol: 'BTC-PERP-REV', clientOrderId: 'x', side: 'LONG' },
    line: 'NO_POSITION: symbol=BTC-PERP-REV side=LONG held=0',
  },
  {
    code: 'NO_PRICE',
    snap: { ...withEth('1'), prices: {} },
    intent: spot({ side: 'SELL', type: 'MARKET', price: undefined, quantity: '0.5' }),
    line: 'NO_PRICE: symbol=ETHUSDT need=last for=MIN_NOTIONAL',
  },
  { code: 'DAILY_LOSS', config: { strategy: { dailyLossLimit: '100' } }, snap: { pnlToday: { mm: '-100.01' } }, intent: spot(), line: 'DAILY_LOSS: strategy=mm pnl=-100.01 limit=100' },
  { code: 'PRICE_FILTER', config: { rounding: 'deny' }, intent: spot({ price: '3000.005' }), line: 'PRICE_FILTER: price=3000.005 tickSize=0.01' },
  { code: 'LOT_SIZE', intent: spot({ quantity: '0.0001' }), line: 'LOT_SIZE: qty=0.0001 minQty=0.001' },
  { code: 'MIN_NOTIONAL', intent: spot({ quantity: '0.003' }), line: 'MIN_NOTIONAL: qty=0.003 price=3000 notional=9 minNotional=10' },
  {
    code: 'PRICE_BAND',
    config: { symbols: { ETHUSDT: { priceBandPct: '5' } } },
    intent: spot({ price: '3150.01' }),
    line: 'PRICE_BAND: price=3150.01 ref=last refPrice=3000 bandPct=5 low=2850 high=3150',
  },
  {
    code: 'MAX_OPEN_ORDERS',
    config: { symbols: { ETHUSDT: { maxOpenOrders: 3 } } },
    snap: { openOrders: { ETHUSDT: { mm: 2, grid: 1 } } },
    intent: spot(),
    line: 'MAX_OPEN_ORDERS: symbol=ETHUSDT open=3 max=3',
  },
  {
    code: 'MAX_POSITION',
    config: { symbols: { ETHUSDT: { maxPosition: '1' } } },
    snap: withEth('0.5', '0.25'),
    intent: spot({ quantity: '0.3' }),
    line: 'MAX_POSITION: symbol=ETHUSDT position=0.75 order=0.3 resulting=1.05 max=1',
  },
  {
    code: 'MAX_NOTIONAL',
    config: { symbols: { ETHUSDT: { maxNotional: '3000' } } },
    snap: withEth('0.9'),
    intent: spot({ quantity: '0.2' }),
    line: 'MAX_NOTIONAL: symbol=ETHUSDT resulting=1.1 price=3000 notional=3300 max=3000',
  },
  {
    code: 'RISK_LIMIT_TIER',
    intent: contract({ quantity: '5', leverage: '101' }),
    line: 'RISK_LIMIT_TIER: symbol=BTC-PERP-REV resulting=5 tier=200000001 initialMargin=0.01 leverage=101 maxLeverage=100',
  },
  {
    code: 'SPOT_BALANCE',
    snap: { spot: { USDT: { free: '30', locked: '5' } } },
    intent: spot({ quantity: '0.01', price: '3000' }),
    line: 'SPOT_BALANCE: asset=USDT need=30.03 free=30 cost=30 fee=0.03',
  },
  {
    code: 'CONTRACT_MARGIN',
    snap: { contract: { TBTC: margin('TBTC', '0.01264') } },
    intent: contract({ quantity: '1000', price: '8000', leverage: '10' }),
    line: 'CONTRACT_MARGIN: token=TBTC need=0.01265 available=0.01264 margin=0.0125 openFee=0.000075 closeFee=0.000075 price=8000 leverage=10',
  },
  {
    code: 'ORDER_RATE',
    config: { strategy: { orderRate: { perSecond: 2 } } },
    before: [spot({ clientOrderId: 'a' }), spot({ clientOrderId: 'b' })],
    intent: spot({ clientOrderId: 'c' }),
    line: 'ORDER_RATE: strategy=mm count=2 limit=2 window=1s',
  },
];

describe('every denial code, rendered with its numbers', () => {
  it('has one scenario per code', () => {
    expect(SCENARIOS.map((s) => s.code).sort()).toEqual([...RISK_CODES].sort());
  });

  for (const s of SCENARIOS) {
    it(s.code, () => {
      const instruments = s.halted ? new Map([...INSTRUMENTS, [ETHUSDT.symbol, { ...ETHUSDT, status: 'HALT' as const }]]) : INSTRUMENTS;
      const gate = new RiskGate({ instruments, config: s.config ?? {} });
      const snap = snapshot(s.snap);
      for (const b of s.before ?? []) expect(gate.check(b, snap).ok).toBe(true);
      const r = gate.check(s.intent, snap);
      if (r.ok) throw new Error(`${s.code}: accepted ${JSON.stringify(r.intent)}`);
      expect(r.denial.code).toBe(s.code);
      expect(renderDenial(r.denial)).toBe(s.line);
    });
  }
});

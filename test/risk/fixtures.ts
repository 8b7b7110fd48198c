// Shared test material for the risk gate: instruments from the published brokerInfo samples, and snapshot and intent builders.
import { instrumentsOf, parseBrokerInfo, type ContractBalance, type Instrument } from '../../src/model/index.ts';
import type { PlaceContractIntent, PlaceSpotIntent, PortfolioSnapshot } from '../../src/risk/index.ts';
import { loadSample } from '../fixtures/samples.ts';

function brokerInfo(name: string): ReadonlyMap<string, Instrument> {
  return instrumentsOf(parseBrokerInfo(loadSample(name).payload));
}

const y2024 = brokerInfo('broker-info.capture-2024');
const y2020 = brokerInfo('broker-info.capture-2020');
const official = brokerInfo('contract-broker-info.official');

function pick(from: ReadonlyMap<string, Instrument>, symbol: string): Instrument {
  const inst = from.get(symbol);
  if (inst === undefined) throw new Error(`no ${symbol} in the sample`);
  return inst;
}

/** ETHUSDT (2024 capture): tick 0.01, step 0.0001, minQty 0.001, minNotional 10. */
export const ETHUSDT = pick(y2024, 'ETHUSDT');
/** BTCUSDT (2020 capture): tick 0.01, step 0.000001, minQty 0.0005, minNotional 5. */
export const BTCUSDT = pick(y2020, 'BTCUSDT');
/** BTC-PERP-REV (official contract brokerInfo): inverse, TBTC margin, tick 0.01, step 1, tiers 1e6..4e6. */
export const REV = pick(official, 'BTC-PERP-REV');
/** BTC-PERP-BUSDT (2020 capture): linear, multiplier 0.0001, BUSDT margin at 0.0001, tick 0.1. */
export const LIN = pick(y2020, 'BTC-PERP-BUSDT');

export const INSTRUMENTS: ReadonlyMap<string, Instrument> = new Map([ETHUSDT, BTCUSDT, REV, LIN].map((i) => [i.symbol, i]));

/** Returns a contract balance with `available` free margin. */
export function margin(token: string, available: string): ContractBalance {
  return { token, total: available, availableMargin: available, positionMargin: '0', orderMargin: '0' };
}

/** Returns a snapshot at time `now` (default 1_700_000_000_000) with ample funds unless overridden. */
export function snapshot(over: Partial<PortfolioSnapshot> = {}): PortfolioSnapshot {
  return {
    now: 1_700_000_000_000,
    spot: { USDT: { free: '1000000', locked: '0' }, ETH: { free: '0', locked: '0' }, BTC: { free: '0', locked: '0' } },
    contract: { TBTC: margin('TBTC', '1000'), BUSDT: margin('BUSDT', '10000000') },
    positions: [],
    openOrders: {},
    prices: {
      ETHUSDT: { last: '3000' },
      BTCUSDT: { last: '30000' },
      'BTC-PERP-REV': { last: '8000', mark: '8010' },
      'BTC-PERP-BUSDT': { last: '9000', mark: '9001' },
    },
    pnlToday: {},
    ...over,
  };
}

/** Returns a spot LIMIT order on ETHUSDT for strategy `mm`, fields overridable. */
export function spot(over: Partial<PlaceSpotIntent> = {}): PlaceSpotIntent {
  return { kind: 'placeSpot', strategyId: 'mm', symbol: 'ETHUSDT', clientOrderId: 'c1', side: 'BUY', type: 'LIMIT', price: '3000', quantity: '0.01', ...over };
}

/** Returns a contract BUY_OPEN LIMIT order on BTC-PERP-REV for strategy `trend`, fields overridable. */
export function contract(over: Partial<PlaceContractIntent> = {}): PlaceContractIntent {
  return {
    kind: 'placeContract', strategyId: 'trend', symbol: 'BTC-PERP-REV', clientOrderId: 'k1',
    side: 'BUY_OPEN', orderType: 'LIMIT', priceType: 'INPUT', price: '8000', quantity: '10', leverage: '10', ...over,
  };
}

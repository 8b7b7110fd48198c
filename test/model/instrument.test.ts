// brokerInfo parsing and the Instrument view, on the published brokerInfo samples.
import { describe, expect, it } from 'vitest';
import { instrumentsOf, parseBrokerInfo, parseFilter, parseRateLimit } from '../../src/model/index.ts';
import { loadSample } from '../fixtures/samples.ts';

describe('brokerInfo', () => {
  it('normalises both rateLimitType spellings to REQUEST_WEIGHT', () => {
    const official = parseBrokerInfo(loadSample('spot-broker-info.official').payload);
    const contract = parseBrokerInfo(loadSample('contract-broker-info.official').payload);
    expect(official.rateLimits[0]).toEqual({ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', limit: 1500 });
    expect(contract.rateLimits.map((r) => `${r.rateLimitType}/${r.interval}/${r.limit}`)).toEqual([
      'ORDERS/SECOND/20', 'ORDERS/DAY/350000', 'REQUEST_WEIGHT/MINUTE/1500',
    ]);
  });

  it('reads serverTime sent as a number or as a string', () => {
    expect(parseBrokerInfo(loadSample('spot-broker-info.official').payload).serverTime).toBe(1538323200000);
    expect(parseBrokerInfo(loadSample('broker-info.capture-2020').payload).serverTime).toBe(1588015885118);
  });

  it('keeps 2024 extras: intervalUnit and tokens with chain types', () => {
    const info = parseBrokerInfo(loadSample('broker-info.capture-2024').payload);
    expect(info.rateLimits[1]).toEqual({ rateLimitType: 'ORDERS', interval: 'SECOND', intervalUnit: 60, limit: 60 });
    expect(info.tokens?.map((t) => t.tokenId)).toEqual(['ETH', 'USDT']);
    expect(info.tokens?.[1]?.chainTypes.map((c) => c.chainType)).toEqual(['ERC20', 'TRC20', 'BEP20', 'OMNI']);
    expect(info.options).toEqual([]);
  });

  it('builds a spot instrument with normalised steps and precisions', () => {
    const inst = instrumentsOf(parseBrokerInfo(loadSample('spot-broker-info.official').payload)).get('ETHBTC');
    expect(inst).toMatchObject({
      kind: 'spot', tickSize: '0.000001', stepSize: '0.001', minQty: '0.001', maxQty: '100000',
      minPrice: '0.000001', maxPrice: '100000', minNotional: '0.001', pricePrecision: 6, qtyPrecision: 3, multiplier: '1',
    });
  });

  it('builds inverse and linear contracts with margin token, multiplier and risk tiers', () => {
    const all = instrumentsOf(parseBrokerInfo(loadSample('broker-info.capture-2020').payload));
    const rev = all.get('BTC-PERP-REV');
    const lin = all.get('BTC-PERP-BUSDT');
    expect(rev).toMatchObject({ kind: 'inverse', marginToken: 'TBTC', marginPrecision: 8, multiplier: '1', tickSize: '0.1', stepSize: '1', pricePrecision: 1, qtyPrecision: 0, index: 'BTCUSDT' });
    expect(rev?.riskLimits[0]).toEqual({ riskLimitId: '200000001', quantity: '1000000', initialMargin: '0.01', maintMargin: '0.005' });
    expect(lin).toMatchObject({ kind: 'linear', marginToken: 'BUSDT', multiplier: '0.0001', marginPrecision: 4 });
    expect(all.get('BTCUSDT')?.kind).toBe('spot');
    expect(all.has('BTC0501CS8500')).toBe(false);
  });

  it('keeps unmodelled filter types as generic records', () => {
    expect(parseFilter(loadSample('filter-max-num-orders.official').payload)).toEqual({ filterType: 'MAX_NUM_ORDERS', fields: { filterType: 'MAX_NUM_ORDERS', limit: 25 } });
    expect(parseFilter(loadSample('filter-lot-size.official').payload)).toEqual({ filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '100000', stepSize: '0.001' });
  });

  it('refuses an unknown rateLimitType, naming the path', () => {
    expect(() => parseRateLimit({ rateLimitType: 'RAW_REQUESTS', interval: 'MINUTE', limit: 1 }, 'brokerInfo.rateLimits[0]'))
      .toThrow(/brokerInfo\.rateLimits\[0\]\.rateLimitType: must be one of REQUEST_WEIGHT, REQUESTS_WEIGHT, ORDERS/);
  });
});

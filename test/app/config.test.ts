// The run config's rules as a user meets them: a bad value names its key and says what the key accepts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../src/app/config.ts';
import { renderConfigKeys } from '../../src/app/config-doc.ts';

const BASE = { venue: 'embedded', strategies: [{ id: 'mm', use: 'strategies/market-maker.ts', symbols: ['BTCUSDT'] }] };

/** Returns the message parseRunConfig throws for the config `extra` adds to a valid one. */
function errorOf(extra: Record<string, unknown>): string {
  try {
    parseRunConfig({ ...BASE, ...extra });
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the config was accepted');
}

const LATENCY_FORMS = 'must be a number of ms ≥ 0 without a unit (e.g. 20, not "20ms"), { min, max } (ms, drawn uniformly between) or { base, meanExtra } (ms: base plus an exponential extra of that mean)';

describe('backtest.latency', () => {
  it.each([
    ['a duration text', '20ms'],
    ['an object of neither form', { mean: 20 }],
    ['half of {min, max}', { min: 5 }],
    ['half of {base, meanExtra}', { meanExtra: 5 }],
  ])('entry as %s is refused with the forms it accepts', (_, entry) => {
    expect(errorOf({ backtest: { latency: { entry } } })).toBe(`backtest.latency.entry: ${LATENCY_FORMS}`);
  });

  it('names response the same way', () => {
    expect(errorOf({ backtest: { latency: { response: '1s' } } })).toBe(`backtest.latency.response: ${LATENCY_FORMS}`);
  });

  it('accepts every form the message lists', () => {
    for (const entry of [0, 20, { min: 5, max: 30 }, { base: 5, meanExtra: 10 }]) {
      expect(parseRunConfig({ ...BASE, backtest: { latency: { entry } } }).backtest.latency.entry).toEqual(entry);
    }
  });

  it('docs/config.md (and the table it is generated from) lists every form and its keys', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/config.md'), 'utf8');
    for (const text of [doc, renderConfigKeys()]) {
      for (const key of ['entry', 'response']) {
        expect(text).toContain(`| \`backtest.latency.${key}\` | number or {min, max} or {base, meanExtra} |`);
        for (const field of ['min', 'max', 'base', 'meanExtra']) expect(text).toContain(`| \`backtest.latency.${key}.${field}\` | number |`);
      }
    }
  });

  it('still names the bad field inside a form and a negative number', () => {
    expect(errorOf({ backtest: { latency: { entry: { min: -1, max: 5 } } } })).toBe('backtest.latency.entry.min: must be ≥ 0 ms');
    expect(errorOf({ backtest: { latency: { entry: -3 } } })).toBe('backtest.latency.entry: must be ≥ 0 ms');
  });
});

describe('non-negative decimal strings (backtest.balances, backtest.fees, fees)', () => {
  it.each([
    [{ backtest: { fees: { maker: '-0.0001' } } }, 'backtest.fees.maker', '-0.0001'],
    [{ backtest: { fees: { taker: '-1' } } }, 'backtest.fees.taker', '-1'],
    [{ backtest: { balances: { BTC: '-0.1' } } }, 'backtest.balances.BTC', '-0.1'],
    [{ fees: { spot: { maker: '-0.0002', taker: '0.001' } } }, 'fees.spot.maker', '-0.0002'],
    [{ fees: { contract: { maker: '0.0002', taker: '-0.0005' } } }, 'fees.contract.taker', '-0.0005'],
  ])('a negative decimal is refused as negative: %j', (extra, key, value) => {
    expect(errorOf(extra)).toBe(`${key}: must not be negative, got "${value}"`);
  });

  it('a negative zero is refused for its sign', () => {
    expect(errorOf({ backtest: { balances: { USDT: '-0' } } })).toBe('backtest.balances.USDT: must be written without a minus sign, got "-0"');
  });

  it('what is no decimal string keeps the format rule', () => {
    expect(errorOf({ backtest: { fees: { maker: '0.1%' } } })).toBe('backtest.fees.maker: must be a decimal fraction written as a string, e.g. "0.001"');
    expect(errorOf({ backtest: { fees: { taker: '1' } } })).toBe('backtest.fees.taker: must be below 1 (a rate: "0.001" is 0.1 %), got "1"');
    expect(errorOf({ fees: { contract: { maker: '0.0002', taker: '1.5' } } })).toBe('fees.contract.taker: must be below 1 (a rate: "0.001" is 0.1 %), got "1.5"');
    expect(errorOf({ backtest: { latency: { entry: { min: 10, max: 5 } } } })).toBe('backtest.latency.entry.max: must be at least min (10), got 5');
    expect(errorOf({ backtest: { balances: { BTC: '-abc' } } })).toBe('backtest.balances.BTC: must be a decimal written as a string, e.g. "0.001"');
    expect(errorOf({ backtest: { balances: { BTC: 1 } } })).toMatch(/^backtest\.balances\.BTC: /);
    expect(errorOf({ fees: { spot: { maker: '.001', taker: '0.001' } } })).toBe('fees.spot.maker: must be a decimal fraction written as a string, e.g. "0.001"');
  });

  it('zero and positive decimals pass', () => {
    const c = parseRunConfig({ ...BASE, backtest: { balances: { BTC: '0', USDT: '100.5' }, fees: { maker: '0', taker: '0.0004' } }, fees: { spot: { maker: '0', taker: '0.001' } } });
    expect(c.backtest.balances).toEqual({ BTC: '0', USDT: '100.5' });
    expect(c.backtest.fees).toEqual({ maker: '0', taker: '0.0004' });
    expect(c.fees.spot).toEqual({ maker: '0', taker: '0.001' });
  });
});

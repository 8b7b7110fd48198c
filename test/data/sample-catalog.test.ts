// The committed sample catalog (backtest/data/binance-samples) reads and replays from a fresh clone, and is what converting its sources gives.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readCatalog } from '../../src/data/catalog.ts';
import { convert } from '../../src/data/convert.ts';
import { collect, L2, REAL, sampleMapping, tempDir } from './helpers.ts';

const SAMPLES = fileURLToPath(new URL('../../backtest/data/binance-samples/', import.meta.url));

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('the sample catalog', () => {
  it('holds books, trades, klines and funding of three instruments, with no gap, and replays with books that never gap', async () => {
    const index = readCatalog(SAMPLES);
    expect(Object.keys(index.instruments).sort()).toEqual(['BTCUSD-PERP', 'BTCUSDT', 'BTCUSDT-PERP']);
    expect(index.gaps).toEqual([]);
    // Inputs two years apart land in their own days' files.
    expect(index.files.filter((f) => f.table === 'trades' && f.symbol === 'BTCUSDT').map((f) => [f.day, f.rows])).toEqual([['2020-09-27', 1000], ['2024-08-08', 2543]]);
    const { events, stats } = await collect({ catalog: SAMPLES, symbols: ['BTCUSDT', 'BTCUSD-PERP'] });
    expect(stats).toMatchObject({ bookGaps: 0, recordedGaps: 0, trades: 1000 + 2543 + 396 });
    expect(new Set(events.map((e) => e.kind))).toEqual(new Set(['depthSnapshot', 'depthUpdate', 'trade', 'kline', 'funding']));
  });

  it('is what converting its committed sources gives, file for file', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const hourly = fileURLToPath(new URL('../backtest/data/binance-btcusdt-1h-2020/extracted_api_v3_klines_BTCUSDT_1h_2020-04-30_2020-06-11.json', import.meta.url));
    const inputs = [L2, join(REAL, 'trades.json'), join(REAL, 'candlestick1m.json'), join(REAL, 'binance-rest'), hourly];
    const { index } = await convert({ inputs, out: t.dir, mapping: sampleMapping() });
    expect(index).toEqual(readCatalog(SAMPLES));
  });
});

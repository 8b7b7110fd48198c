// The shipped config's market agents keep the served books alive: quotes on both sides, trades, moving tickers, on the virtual clock.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { send, startTest, type TestVenue } from './helpers.ts';

const shipped = parseYaml(readFileSync('config/venue.yaml', 'utf8')) as { agents: unknown[] };

let t: TestVenue | undefined;
afterEach(async () => t?.close());

describe('market agents of config/venue.yaml', () => {
  it('quote every spot symbol on both sides around its initial price and trade against it', async () => {
    t = await startTest({ agents: shipped.agents });
    for (const [symbol, mid] of [['BTCUSDT', 30000], ['ETHUSDT', 2000], ['ETHBTC', 0.066]] as const) {
      const d = (await send(t.url, 'GET', '/openapi/quote/v1/depth', { query: `symbol=${symbol}` })).json as { bids: string[][]; asks: string[][] };
      expect(d.bids.length, symbol).toBeGreaterThan(0);
      expect(d.asks.length, symbol).toBeGreaterThan(0);
      expect(Number(d.bids[0]![0]) / mid).toBeGreaterThan(0.99);
      expect(Number(d.asks[0]![0]) / mid).toBeLessThan(1.01);
      expect(Number(d.bids[0]![0])).toBeLessThan(Number(d.asks[0]![0]));
    }
    await t.clock.advance(60_000);
    const all = await Promise.all(['BTCUSDT', 'ETHUSDT', 'ETHBTC'].map(async (s) => ((await send(t!.url, 'GET', '/openapi/quote/v1/trades', { query: `symbol=${s}` })).json as unknown[]).length));
    expect(all.reduce((a, b) => a + b, 0)).toBeGreaterThan(10);
  });

  it('quote both contracts around an index they move, and trade them', async () => {
    t = await startTest({ agents: shipped.agents });
    for (const symbol of ['BTC-PERP-REV', 'BTC-SWAP-USDT']) {
      const d = (await send(t.url, 'GET', '/openapi/quote/v1/contract/depth', { query: `symbol=${symbol}` })).json as { bids: string[][]; asks: string[][] };
      expect(d.bids.length, symbol).toBeGreaterThan(0);
      expect(d.asks.length, symbol).toBeGreaterThan(0);
      expect(Number(d.bids[0]![0]) / 30000).toBeGreaterThan(0.99);
    }
    const index0 = (await send(t.url, 'GET', '/openapi/quote/v1/contract/index')).json.index.BTCUSDT as string;
    await t.clock.advance(120_000);
    const index1 = (await send(t.url, 'GET', '/openapi/quote/v1/contract/index')).json.index.BTCUSDT as string;
    expect(index1).not.toBe(index0);
    const trades = await Promise.all(['BTC-PERP-REV', 'BTC-SWAP-USDT'].map(async (s) => ((await send(t!.url, 'GET', '/openapi/quote/v1/contract/trades', { query: `symbol=${s}` })).json as unknown[]).length));
    expect(trades.reduce((a, b) => a + b, 0)).toBeGreaterThan(5);
  });

  it('stop with the venue: no timers left to move the books', async () => {
    t = await startTest({ agents: shipped.agents });
    const v = t;
    await v.close();
    t = undefined;
    const before = v.venue.backend.venue.snapshot();
    await v.clock.advance(60_000);
    expect(v.venue.backend.venue.snapshot()).toBe(before);
  });
});

// What an attacker must not guess comes from crypto randomness: listenKeys and the admin token differ between venues of one seed, whose markets stay identical.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { randomLetters } from '../../../src/sim/server/listen-keys.ts';
import { send, signed, startTest, T0, type TestVenue } from './helpers.ts';

const shipped = parseYaml(readFileSync('config/venue.yaml', 'utf8')) as { agents: unknown[] };
const open: TestVenue[] = [];
afterEach(async () => {
  for (const v of open.splice(0)) await v.close();
});

async function twoVenues(): Promise<[TestVenue, TestVenue]> {
  for (let i = 0; i < 2; i++) open.push(await startTest({ agents: shipped.agents }));
  return [open[0]!, open[1]!];
}

describe('secrets of the simulated venue', () => {
  it('gives different listenKeys and admin tokens on two venues of the same seed, while their markets trade the same', async () => {
    const [a, b] = await twoVenues();
    const keys = async (v: TestVenue): Promise<string[]> => {
      const out: string[] = [];
      for (let i = 0; i < 3; i++) out.push((await signed(v.url, 'POST', '/openapi/v1/userDataStream', {}, { timestamp: T0 + i })).json.listenKey as string);
      return out;
    };
    const ka = await keys(a);
    const kb = await keys(b);
    for (const k of [...ka, ...kb]) expect(k).toMatch(/^[A-Za-z]{64}$/);
    expect(new Set([...ka, ...kb]).size).toBe(6);
    expect(a.venue.server.adminToken).toMatch(/^[0-9a-f]{48}$/);
    expect(a.venue.server.adminToken).not.toBe(b.venue.server.adminToken);
    // The seeded market does not depend on how many keys were drawn: both venues print the same trades.
    await a.clock.advance(20_000);
    await b.clock.advance(20_000);
    const trades = async (v: TestVenue): Promise<unknown> => (await send(v.url, 'GET', '/openapi/quote/v1/trades', { query: 'symbol=BTCUSDT' })).json;
    const ta = await trades(a);
    expect((ta as unknown[]).length).toBeGreaterThan(0);
    expect(await trades(b)).toEqual(ta);
  });

  it('draws letters uniformly from crypto bytes: 64 letters carry at least 128 bits', () => {
    // log2(52) ≈ 5.70 bits per letter.
    expect(64 * Math.log2(52)).toBeGreaterThan(128);
    const counts = new Map<string, number>();
    const text = randomLetters(52 * 400);
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(52);
    // Bytes 208-255 are redrawn: with a plain modulo the first 48 letters would come 5/4 as often as the last 4.
    const fixed = (bytes: number[]) => (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => bytes[i % bytes.length]!));
    expect(randomLetters(4, fixed([255, 208, 0, 207]))).toBe('AzAz');
  });
});

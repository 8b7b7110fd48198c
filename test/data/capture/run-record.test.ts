// A run config's `record:` section: the run's market is captured beside the bot's own order requests, answers (with request and
// response times) and fills, read back as the input of a later parity check. A bad section stops at start-up naming the key.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../../src/app/config.ts';
import { CaptureReader, captureFiles } from '../../../src/data/capture/reader.ts';
import type { CaptureRecord } from '../../../src/data/capture/line-format.ts';
import { fillSpot, HANG_MS, OtherTrader, startStrategy } from '../../app/scenario.ts';

const dir = mkdtempSync(join(tmpdir(), 'bhtrade-run-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function readAll(files: readonly string[]): Promise<CaptureRecord[]> {
  const reader = new CaptureReader(files);
  const out: CaptureRecord[] = [];
  for await (const r of reader.records()) out.push(r);
  expect(reader.issues).toEqual([]);
  return out;
}

interface Journal { type: string; id?: number; op?: string; requestNs?: string; args?: { clientOrderId?: string }; report?: { clientOrderId: string; status: string }; clientOrderId?: string; lastQty?: string; orderType?: string }

describe('record: in a run config', () => {
  it('records the market and the bot\'s order requests, answers and fills beside it', async () => {
    const out = join(dir, 'run');
    const { app } = await startStrategy(
      { id: 'mm', use: '../strategies/market-maker.ts', symbols: ['BTCUSDT'], params: { spreadTicks: 4, requoteTicks: 2, refreshMs: 200 } },
      { record: { out } },
    );
    try {
      // Another account makes the market and takes the bot's quotes: the fill comes from the test, not from a random market.
      await fillSpot(app, new OtherTrader(app), 'BTCUSDT', 1);
    } finally {
      await app.stop('test over');
    }
    const market = await readAll(await captureFiles(out, 'market'));
    expect(JSON.parse(market[0]!.frame)).toMatchObject({ stream: 'market', symbols: ['BTCUSDT'], topics: ['diffDepth', 'trade', 'index'] });
    const topics = new Set(market.filter((l) => !l.marker).map((l) => (JSON.parse(l.frame) as { topic: string }).topic));
    // Book and trades surely; BTCUSDT's index (it is the contracts' index) whenever the venue has pushed one.
    expect([...topics].filter((t) => t === 'diffDepth' || t === 'trade').sort()).toEqual(['diffDepth', 'trade']);
    expect([...topics].filter((t) => t !== 'diffDepth' && t !== 'trade' && t !== 'index')).toEqual([]);

    const lines = await readAll(await captureFiles(out, 'orders'));
    expect(lines[0]!.marker).toBe('session');
    const rows = lines.slice(1).map((l) => ({ ns: l.ns, j: JSON.parse(l.frame) as Journal }));
    const requests = rows.filter((r) => r.j.type === 'request' && r.j.op === 'place');
    expect(requests.length).toBeGreaterThan(0);
    // Every placement has its answer (or its error) after it, naming the request's time.
    for (const req of requests) {
      const ans = rows.find((r) => (r.j.type === 'answer' || r.j.type === 'error') && r.j.id === req.j.id);
      expect(ans, `answer of request ${req.j.id}`).toBeDefined();
      expect(BigInt(ans!.j.requestNs!)).toBe(req.ns);
      expect(ans!.ns >= req.ns).toBe(true);
      if (ans!.j.type === 'answer') expect(ans!.j.report!.clientOrderId).toBe(req.j.args!.clientOrderId);
    }
    const fill = rows.find((r) => r.j.type === 'fill');
    expect(fill).toBeDefined();
    // The filled order is one the journal saw placed.
    expect(requests.map((r) => r.j.args!.clientOrderId)).toContain(fill!.j.clientOrderId);
    // The line's `type` names the line; the report's own order type is kept beside it.
    expect(fill!.j.orderType).toMatch(/^(LIMIT|LIMIT_MAKER|MARKET)$/);
  }, 3 * HANG_MS);

  it('stops at start-up on a bad record: key, naming its path', () => {
    const base = { venue: 'embedded', strategies: [{ id: 'mm', use: 'x.ts', symbols: ['BTCUSDT'] }] };
    expect(() => parseRunConfig({ ...base, record: { topics: ['depths'] } })).toThrow(/^record\.topics\[0\]: must be one of trade/);
    expect(() => parseRunConfig({ ...base, record: { outDir: 'x' } })).toThrow(/^record\.outDir: unknown key/);
    expect(parseRunConfig({ ...base, record: {} }).record).toMatchObject({ out: 'recordings', topics: ['diffDepth', 'trade', 'index'], orders: true, hourly: true });
  });
});

// The orders journal around the real REST gateway and the simulated venue: each call's request and answer (or error) with both times,
// in order; what it does not record passes straight through.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { OrdersJournal } from '../../../src/data/capture/orders-journal.ts';
import { CaptureReader } from '../../../src/data/capture/reader.ts';
import { CaptureWriter } from '../../../src/data/capture/writer.ts';
import { RestGateway } from '../../../src/venue/gateway.ts';
import { startVenueOnClock, type Venue } from '../../venue/streams/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'bhtrade-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let v: Venue | undefined;
afterEach(async () => {
  await v?.close();
  v = undefined;
});

describe('OrdersJournal', () => {
  it('records a placement and its answer, a refused placement and its error, each answer naming its request\'s time', async () => {
    v = await startVenueOnClock();
    const venue = v;
    let t = 1_000n;
    const writer = new CaptureWriter({ dir: join(dir, 'a'), stream: 'orders', clock: venue.clock });
    const journal = new OrdersJournal(writer, () => (t += 1_000n));
    const gw = journal.wrap(new RestGateway(venue.maker, () => venue.clock.now()));
    const placed = await gw.place({ account: 'spot', symbol: 'ETHBTC', clientOrderId: 'j-1', side: 'SELL', type: 'LIMIT', quantity: '1', price: '0.05', timeInForce: 'GTC' });
    await expect(gw.place({ account: 'spot', symbol: 'ETHBTC', clientOrderId: 'j-2', side: 'SELL', type: 'LIMIT', quantity: '0.0001', price: '0.05', timeInForce: 'GTC' })).rejects.toThrow();
    // Not recorded, still answered by the venue.
    expect((await gw.exchangeInfo()).symbols.length).toBeGreaterThan(0);
    writer.close();

    const reader = new CaptureReader(writer.files());
    const rows: { ns: bigint; j: Record<string, unknown> }[] = [];
    for await (const r of reader.records()) rows.push({ ns: r.ns, j: JSON.parse(r.frame) as Record<string, unknown> });
    expect(reader.issues).toEqual([]);
    expect(rows.map((r) => [r.j['type'], r.j['id'], r.j['op']])).toEqual([['request', 1, 'place'], ['answer', 1, 'place'], ['request', 2, 'place'], ['error', 2, 'place']]);
    expect(rows.map((r) => r.ns)).toEqual([2_000n, 3_000n, 4_000n, 5_000n]);
    expect(rows[0]!.j['args']).toMatchObject({ clientOrderId: 'j-1', quantity: '1', price: '0.05' });
    expect(rows[1]!.j).toMatchObject({ requestNs: '2000', report: { clientOrderId: 'j-1', orderId: placed.orderId, status: 'NEW' } });
    expect(rows[3]!.j).toMatchObject({ requestNs: '4000', error: { retry: 'definite', code: expect.any(String), message: expect.any(String) } });
  });
});

// `bhtrade venue` with a state file killed with SIGKILL right after its acknowledgements: restarted, it has every acknowledged order and issues no id again.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { LiveClock } from '../../../src/core/clock.ts';
import { Journal } from '../../../src/sim/server/journal.ts';
import { VenueRestClient } from '../../../src/venue/rest-client.ts';
import { StateFile } from '../../../src/sim/server/state-file.ts';
import { KEY, SECRET, startTest, testConfig } from './helpers.ts';

const running: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Starts `bhtrade venue` and resolves with its REST URL once it prints it. */
async function startVenueProcess(cfg: string): Promise<{ rest: string; child: ChildProcessWithoutNullStreams; exited: Promise<NodeJS.Signals | null> }> {
  const child = spawn(process.execPath, ['bin/bhtrade.js', 'venue', '--port', '0', '--config', cfg], { stdio: 'pipe' });
  running.push(child);
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const rest = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    void exited.then(() => reject(new Error(`venue exited before printing its URL: ${err}`)));
  });
  return { rest, child, exited };
}

describe('the venue journal', () => {
  it('keeps every acknowledged order across a kill -9, and the next ids are new', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'venue-journal-'));
    dirs.push(dir);
    const raw = parseYaml(readFileSync('config/venue.yaml', 'utf8')) as { server: Record<string, unknown> };
    const cfg = join(dir, 'venue.yaml');
    // The shipped agents trade meanwhile (their calls are journaled too); no periodic snapshot falls inside the test.
    // ORDERS limits that 40 orders in a row never reach, however fast the machine.
    const rateLimits = [
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', limit: 1_000_000 },
      { rateLimitType: 'ORDERS', interval: 'SECOND', limit: 100_000 },
      { rateLimitType: 'ORDERS', interval: 'DAY', limit: 10_000_000 },
    ];
    writeFileSync(cfg, toYaml({ ...raw, rateLimits, server: { ...raw.server, stateFile: join(dir, 'state.json'), stateEveryMs: 3_600_000 } }));

    const first = await startVenueProcess(cfg);
    const c1 = new VenueRestClient({ baseUrl: first.rest, apiKey: KEY, secret: SECRET, clock: new LiveClock() });
    const acked: { orderId: string; clientOrderId: string }[] = [];
    for (let i = 0; i < 40; i++) {
      // Far below the market: they rest.
      const o = await c1.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: String(10_000 + i), newClientOrderId: `kill9-${i}` });
      acked.push({ orderId: o.orderId, clientOrderId: o.clientOrderId });
    }
    const contract = await c1.newContractOrder({ symbol: 'BTC-SWAP-USDT', side: 'BUY_OPEN', orderType: 'LIMIT', priceType: 'INPUT', quantity: '1', price: '10000', leverage: '10', clientOrderId: 'kill9-c' });
    // The agents' trades printed so far are acknowledged too (anyone could read them).
    const printed = await c1.trades({ symbol: 'BTCUSDT', limit: 1000 });
    expect(printed.length).toBeGreaterThan(0);
    await c1.close();
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    const second = await startVenueProcess(cfg);
    const c2 = new VenueRestClient({ baseUrl: second.rest, apiKey: KEY, secret: SECRET, clock: new LiveClock() });
    const open = (await c2.openSpotOrders({ symbol: 'BTCUSDT' })).map((o) => ({ orderId: o.orderId, clientOrderId: o.clientOrderId }));
    expect(open).toEqual(expect.arrayContaining(acked));
    expect((await c2.openContractOrders({ symbol: 'BTC-SWAP-USDT' })).map((o) => o.orderId)).toContain(contract.orderId);
    // Every trade printed before the kill is there as it was (price, quantity, time, side): the market did not rewind.
    const afterList = await c2.trades({ symbol: 'BTCUSDT', limit: 1000 });
    expect(afterList).toEqual(expect.arrayContaining([...printed]));
    // clientOrderIds are remembered: sending one again is a duplicate.
    await expect(c2.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '10000', newClientOrderId: 'kill9-0' })).rejects.toMatchObject({ venueCode: -1141 });
    const next = await c2.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '10000', newClientOrderId: 'after-restart' });
    const ids = [...acked.map((a) => a.orderId), contract.orderId];
    expect(ids).not.toContain(next.orderId);
    expect(ids.every((id) => BigInt(id) < BigInt(next.orderId))).toBe(true);
    await c2.close();
    second.child.kill('SIGTERM');
    await second.exited;
  }, 90_000);
});

describe('Journal.read', () => {
  it('reads entries back with their bigint amounts and leaves out a torn last line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'venue-journal-'));
    dirs.push(dir);
    const path = join(dir, 'state.json.journal');
    const j = new Journal(path, 7, 'always', 0, new LiveClock());
    j.append(1, 'deposit', ['u1', 'USDT', '5']);
    j.append(2, 'transfer', [{ userId: 'u1', accountIndex: 0 }, { tokenId: 'USDT', amount: 10n ** 18n }]);
    j.close();
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"seq":10,"t":1,"op":"dep`);
    const back = Journal.read(path);
    expect(back.map((e) => [e.seq, e.op])).toEqual([[8, 'deposit'], [9, 'transfer']]);
    expect((back[1]!.args[1] as { amount: bigint }).amount).toBe(10n ** 18n);
  });
});

describe('journal compaction', () => {
  it('keeps the journal under journal.maxEntries by writing the state file, which then names the last entry it holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'venue-journal-'));
    dirs.push(dir);
    const stateFile = join(dir, 'state.json');
    const base = testConfig().server;
    const t = await startTest({ server: { ...base, stateFile, stateEveryMs: 3_600_000, journal: { ...base.journal, maxEntries: 10 } } });
    try {
      const engine = t.venue.backend.venue;
      const account = engine.accountOf(engine.user('demo'), 1, 0);
      let most = 0;
      for (let i = 0; i < 45; i++) {
        engine.newSpotOrder(account, { symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '0.1', price: (0.07 + i * 0.001).toFixed(3) });
        await Promise.resolve();
        most = Math.max(most, Journal.read(`${stateFile}.journal`).length);
      }
      expect(most).toBeLessThanOrEqual(10);
      const saved = new StateFile(stateFile).loadSaved()!;
      const left = Journal.read(`${stateFile}.journal`);
      // Every entry is in the state file or still in the journal, none in both.
      expect(saved.journalSeq + left.length).toBe(45);
      expect(left.every((e) => e.seq > saved.journalSeq)).toBe(true);
    } finally {
      await t.close();
    }
  });
});

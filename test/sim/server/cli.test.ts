// `bhtrade venue --port 0` as a user runs it: two URL lines on stdout, a live REST API, and a clean exit on SIGINT or SIGTERM.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { LiveClock } from '../../../src/core/clock.ts';
import { parseVenueArgs } from '../../../src/cli/venue.ts';
import { VenueRestClient } from '../../../src/venue/rest-client.ts';
import { KEY, SECRET } from './helpers.ts';

const running: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
});

/** Starts the command and resolves with its first two stdout lines and a promise of its exit code. */
async function startCli(args: readonly string[]): Promise<{ lines: string[]; exited: Promise<number | null>; child: ChildProcessWithoutNullStreams; stderr: () => string }> {
  const child = spawn(process.execPath, ['bin/bhtrade.js', 'venue', ...args], { stdio: 'pipe' });
  running.push(child);
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines: string[] = [];
  const rl = createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    rl.on('line', (l) => {
      lines.push(l);
      if (lines.length === 2) resolve();
    });
    void exited.then((code) => reject(new Error(`exited with ${code} before printing its URLs: ${err}`)));
  });
  return { lines, exited, child, stderr: () => err };
}

describe('bhtrade venue', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`prints its REST and WebSocket base URLs, serves the API, and exits 0 on ${signal}`, async () => {
      const { lines, exited, child, stderr } = await startCli(['--port', '0', '--config', 'config/venue.yaml']);
      const [rest, ws] = lines;
      expect(rest).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(ws).toBe(rest!.replace('http://', 'ws://'));
      const before = Date.now();
      const r = await request(`${rest}/openapi/v1/time`);
      const { serverTime } = (await r.body.json()) as { serverTime: number };
      const after = Date.now();
      expect(r.statusCode).toBe(200);
      // The venue runs on the wall clock: its time lies between the request and the answer, however slow the machine.
      expect(serverTime).toBeGreaterThanOrEqual(before);
      expect(serverTime).toBeLessThanOrEqual(after);
      // The shipped config's agents quote from the start: the books are live.
      const depth = (await (await request(`${rest}/openapi/quote/v1/depth?symbol=BTCUSDT`)).body.json()) as { bids: unknown[]; asks: unknown[] };
      expect(depth.bids.length).toBeGreaterThan(0);
      expect(depth.asks.length).toBeGreaterThan(0);
      child.kill(signal);
      expect(await exited, stderr()).toBe(0);
      await expect(request(`${rest}/openapi/v1/time`)).rejects.toThrow();
    });
  }

  it('keeps its state in the configured file across a SIGINT and a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'venue-cli-'));
    try {
      const raw = parseYaml(readFileSync('config/venue.yaml', 'utf8')) as { server: Record<string, unknown> };
      const state = join(dir, 'state.json');
      const cfg = join(dir, 'venue.yaml');
      writeFileSync(cfg, toYaml({ ...raw, server: { ...raw.server, stateFile: state }, agents: [] }));
      const first = await startCli(['--port', '0', '--config', cfg]);
      const c1 = new VenueRestClient({ baseUrl: first.lines[0]!, apiKey: KEY, secret: SECRET, clock: new LiveClock() });
      const placed = await c1.newSpotOrder({ symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT', quantity: '1', price: '0.09', newClientOrderId: 'cli-keep' });
      await c1.close();
      first.child.kill('SIGINT');
      expect(await first.exited, first.stderr()).toBe(0);
      expect(existsSync(state)).toBe(true);
      const second = await startCli(['--port', '0', '--config', cfg]);
      const c2 = new VenueRestClient({ baseUrl: second.lines[0]!, apiKey: KEY, secret: SECRET, clock: new LiveClock() });
      expect((await c2.openSpotOrders()).map((o) => [o.orderId, o.clientOrderId])).toEqual([[placed.orderId, 'cli-keep']]);
      await c2.close();
      second.child.kill('SIGTERM');
      expect(await second.exited, second.stderr()).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints a crypto-random admin token on stderr that opens /admin/faults from a Host that is not loopback', async () => {
    const { lines, exited, child, stderr } = await startCli(['--port', '0', '--config', 'config/venue.yaml']);
    // The line may be in what was read already, or still to come.
    const token = await new Promise<string>((resolve) => {
      const look = (): void => {
        const m = /admin token ([0-9a-f]{48})/.exec(stderr());
        if (m) resolve(m[1]!);
      };
      child.stderr.on('data', () => setImmediate(look));
      look();
    });
    const ask = (headers: Record<string, string>) => request(`${lines[0]}/admin/faults`, { method: 'POST', headers: { host: 'venue.lan', 'content-type': 'application/json', ...headers }, body: '{"latencyMs":0}' });
    expect((await ask({})).statusCode).toBe(403);
    expect((await ask({ 'x-admin-token': token })).statusCode).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 20_000);

  it('refuses a bad option with usage and exit code 2', async () => {
    const child = spawn(process.execPath, ['bin/bhtrade.js', 'venue', '--port', 'x'], { stdio: 'pipe' });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('--port must be an integer from 0 to 65535, got x');
  });

  it('refuses a bad config with exit code 2, naming the file and the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bhtrade-venue-cli-'));
    try {
      const bad = join(dir, 'venue.yaml');
      writeFileSync(bad, toYaml({ ...(parseYaml(readFileSync('config/venue.yaml', 'utf8')) as object), bogusKey: 1 }));
      const child = spawn(process.execPath, ['bin/bhtrade.js', 'venue', '--config', bad, '--port', '0'], { stdio: 'pipe' });
      running.push(child);
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(2);
      expect(err).toBe(`bhtrade venue: ${bad}: bogusKey: Unrecognized key: "bogusKey"\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves the package\'s venue config when started in a folder that has none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bhtrade-venue-elsewhere-'));
    try {
      const child = spawn(process.execPath, [join(process.cwd(), 'bin/bhtrade.js'), 'venue', '--port', '0'], { cwd: dir, stdio: 'pipe' });
      running.push(child);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const rest = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        void exited.then((code) => reject(new Error(`exited with ${code}: ${err}`)));
      });
      const r = await request(`${rest}/openapi/v1/brokerInfo`);
      expect(r.statusCode).toBe(200);
      expect(((await r.body.json()) as { symbols: { symbol: string }[] }).symbols.map((s) => s.symbol)).toContain('BTCUSDT');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 20_000);

  it('names an option taken for the value of the one before', () => {
    expect(() => parseVenueArgs(['--config', '--port', '0'])).toThrow('--config needs a value, got the option --port instead');
  });
});

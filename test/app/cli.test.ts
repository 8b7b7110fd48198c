// `bhtrade run` as a user meets it: a malformed config names the bad key and exits 2; `npm start -- --duration` prints status lines and exits 0 by itself; its quotes fill when another account takes them; SIGINT stops it gracefully.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { LiveClock } from '../../src/core/clock.ts';
import { VenueRestClient } from '../../src/venue/rest-client.ts';
import { ROOT } from './scenario.ts';

const tmp = mkdtempSync(join(tmpdir(), 'bhtrade-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const BIN = join(ROOT, 'bin/bhtrade.js');
const env = { ...process.env, BH_API_KEY: undefined, NODE_ENV: 'test' } as NodeJS.ProcessEnv;

function runCli(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [BIN, 'run', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...env, ...extraEnv }, timeout: 100_000 });
}

function configFile(name: string, text: string): string {
  const f = join(tmp, name);
  writeFileSync(f, text);
  return f;
}

/** The second account's key pair: made up for this test (64 letters or digits), known only to its temporary venue config. */
const OTHER = { apiKey: 'OtherTraderKey000000000000000000000000000000000000000000000000a1', secret: 'other-trader-secret-for-the-cli-test' };

/** The JSON log lines of a child, and a way to wait for the next one that matches (an event, never a time). */
class LogLines {
  readonly lines: Record<string, unknown>[] = [];
  readonly exited: Promise<number | null>;
  private waiters: { pred: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void; from: number }[] = [];
  private buf = '';
  private err = '';

  constructor(child: ChildProcess) {
    child.stdout!.on('data', (b: Buffer) => {
      this.buf += b.toString();
      const parts = this.buf.split('\n');
      this.buf = parts.pop()!;
      for (const p of parts) if (p.startsWith('{')) this.lines.push(JSON.parse(p) as Record<string, unknown>);
      this.check();
    });
    child.stderr!.on('data', (b: Buffer) => { this.err += b.toString(); });
    this.exited = new Promise((resolve) => child.on('exit', (c) => {
      resolve(c);
      for (const w of this.waiters.splice(0)) w.resolve({ msg: `exited with ${c} first: ${this.err}` });
    }));
  }

  /** Resolves with the first line from now on that matches. */
  next(pred: (l: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      this.waiters.push({ pred, resolve, from: this.lines.length });
      this.check();
    });
  }

  private check(): void {
    this.waiters = this.waiters.filter((w) => {
      const hit = this.lines.slice(w.from).find(w.pred);
      if (hit) w.resolve(hit);
      return hit === undefined;
    });
  }
}

const GOOD_STRATEGY = `strategies:\n  - id: mm\n    use: ${join(ROOT, 'strategies/market-maker.ts')}\n    symbols: [BTCUSDT]\n`;

describe('bhtrade run: config errors exit 2 naming the bad key', () => {
  it.each([
    ['unknown top-level key', `venue: embedded\nvenu: embedded\n${GOOD_STRATEGY}`, 'venu: unknown key'],
    ['a typo in a strategy entry', `venue: embedded\nstrategies:\n  - id: mm\n    use: x.ts\n    symbol: [BTCUSDT]\n`, 'strategies[0].symbol: unknown key'],
    ['a bad venue', `venue: paper\n${GOOD_STRATEGY}`, 'venue: must be `embedded` or { rest, ws, apiKey, secret }'],
    ['a number where a decimal string is needed', `venue: embedded\n${GOOD_STRATEGY}risk:\n  symbols:\n    BTCUSDT: { maxPosition: 1.5 }\n`, 'risk.symbols.BTCUSDT.maxPosition: '],
    ['a bad duration', `venue: embedded\n${GOOD_STRATEGY}status: { every: 5 seconds }\n`, 'status.every: must be a duration'],
    ['a missing secret variable', `venue: { rest: "http://127.0.0.1:1", ws: "ws://127.0.0.1:1", apiKey: "\${BH_API_KEY}", secret: s }\n${GOOD_STRATEGY}`, 'venue.apiKey: environment variable BH_API_KEY is not set'],
    ['bad strategy params', `venue: embedded\n${GOOD_STRATEGY}    params: { spreadTiks: 4 }\n`, 'strategies[0].params.spreadTiks: unknown key'],
    ['a plugin that does not exist', `venue: embedded\nstrategies:\n  - id: mm\n    use: ./nope.ts\n    symbols: [BTCUSDT]\n`, 'strategies[0].use (./nope.ts): no such file: '],
  ])('%s', (name, text, message) => {
    const f = configFile(`${name.replace(/\W+/g, '-')}.yaml`, text);
    const r = runCli([f]);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain(f);
    expect(r.status).toBe(2);
  });

  it('refuses a bad --duration and a missing CONFIG with usage', () => {
    expect(runCli(['config/default.yaml', '--duration', '30 s']).status).toBe(2);
    const r = runCli([]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('CONFIG is missing');
  });
});

describe('npm start', () => {
  it('runs on the embedded venue, prints status lines and exits 0 by itself with --duration', async () => {
    const child = spawn('npm', ['start', '--silent', '--', '--duration', '8s'], { cwd: ROOT, env });
    let out = '';
    child.stdout.on('data', (b: Buffer) => { out += b.toString(); });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    const lines = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string });
    const status = lines.filter((l) => l.msg.startsWith('status mm['));
    // One on the 5 s status timer (set up before the 8 s duration's), one on stopping.
    expect(status.length).toBeGreaterThanOrEqual(2);
    expect(lines.some((l) => l.msg === 'running')).toBe(true);
    expect(lines.at(-1)?.msg).toBe('stopped');
    expect(status.at(-1)?.msg).toMatch(/^status mm\[stopped\] orders=0 pos=[+-]?[\d.]+ BTC gross=[+-]?[\d.]+ fees=[\d.]+ net=[+-]?[\d.]+ USDT$/);
    // It re-quotes within its budget: no denial from the risk gate.
    expect(lines.filter((l) => l.msg.startsWith('denied'))).toEqual([]);
  });

  it('trades: another account of the embedded venue takes its bid, the fill shows in the log and the status line', async () => {
    // The shipped configs, with the venue's agents off and a second keyed account that makes the market and takes the quote.
    const venue = parseYaml(readFileSync(join(ROOT, 'config/venue.yaml'), 'utf8')) as Record<string, unknown> & { accounts: unknown[] };
    const venueFile = configFile('venue-other.yaml', toYaml({ ...venue, agents: [], accounts: [...venue.accounts, { name: 'other', keys: [OTHER], balances: { spot: { USDT: '1000000', BTC: '100' } } }] }));
    const run = parseYaml(readFileSync(join(ROOT, 'config/default.yaml'), 'utf8')) as Record<string, unknown> & { strategies: Record<string, unknown>[] };
    // The demo account's maker-fee-free tier lets the maker quote inside the other account's 29999/30001.
    const runFile = configFile('run-other.yaml', toYaml({ ...run, embedded: { config: venueFile, account: 'demo' }, strategies: [{ ...run.strategies[0], use: join(ROOT, 'strategies/market-maker.ts') }], status: { every: '1s' } }));
    const child = spawn(process.execPath, [BIN, 'run', runFile], { cwd: ROOT, env });
    const log = new LogLines(child);
    let rest: VenueRestClient | undefined;
    try {
      const running = await log.next((l) => l['msg'] === 'running');
      rest = new VenueRestClient({ baseUrl: String(running['venue']).replace(/^embedded /, ''), apiKey: OTHER.apiKey, secret: OTHER.secret, clock: new LiveClock() });
      await rest.newSpotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '29999.00' });
      await rest.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '30001.00' });
      await log.next((l) => /^status mm\[running\] orders=2 /.test(String(l['msg'])));
      const [price, qty] = (await rest.depth({ symbol: 'BTCUSDT' })).bids[0]!;
      expect(price).not.toBe('29999.00');
      await rest.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', quantity: qty, price });
      const filled = await log.next((l) => l['msg'] === 'quote filled');
      expect(filled).toMatchObject({ side: 'BUY', price, qty });
      // It bought 0.002 as a maker, with no fee on its tier: it holds 0.002.
      await log.next((l) => /^status mm\[running\] .*pos=\+0\.002 BTC/.test(String(l['msg'])));
      child.kill('SIGINT');
      expect(await log.exited).toBe(0);
      expect(log.lines.filter((l) => String(l['msg']).startsWith('denied'))).toEqual([]);
      expect(log.lines.findLast((l) => String(l['msg']).startsWith('status mm['))?.['msg']).toMatch(/^status mm\[stopped\] orders=0 pos=\+0\.002 BTC/);
    } finally {
      await rest?.close();
      child.kill('SIGKILL');
    }
  });

  it('stops gracefully on SIGINT, cancelling its orders, and exits 0', async () => {
    const child = spawn(process.execPath, [BIN, 'run', 'config/default.yaml'], { cwd: ROOT, env });
    let out = '';
    const code = await new Promise<number | null>((resolve) => {
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        // Interrupt once a status line shows quotes resting on the venue.
        if (/"msg":"status mm\[running\] orders=[1-9]/.test(out) && !child.killed) child.kill('SIGINT');
      });
      child.on('exit', (c) => resolve(c));
    });
    expect(code).toBe(0);
    expect(out).toContain('"reason":"SIGINT"');
    expect(out).toContain('"msg":"stopped"');
    // stop.cancelAll is on in config/default.yaml: the last status line counts no open order.
    expect(out).toMatch(/"msg":"status mm\[stopped\] orders=0 /);
  });
});

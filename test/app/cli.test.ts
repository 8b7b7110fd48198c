// `bhtrade run` as a user meets it: a malformed config names the bad key and exits 2; `npm start -- --duration` trades, prints status lines and exits 0 by itself; SIGINT stops it gracefully.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './scenario.ts';

const tmp = mkdtempSync(join(tmpdir(), 'bhtrade-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const BIN = join(ROOT, 'bin/bhtrade.js');
const env = { ...process.env, BH_API_KEY: undefined, NODE_ENV: 'test' } as NodeJS.ProcessEnv;

function runCli(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [BIN, 'run', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...env, ...extraEnv }, timeout: 30_000 });
}

function configFile(name: string, text: string): string {
  const f = join(tmp, name);
  writeFileSync(f, text);
  return f;
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
    ['a plugin that does not exist', `venue: embedded\nstrategies:\n  - id: mm\n    use: ./nope.ts\n    symbols: [BTCUSDT]\n`, './nope.ts: cannot be loaded'],
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
  it('quotes on the embedded venue, prints status lines and exits 0 by itself with --duration', async () => {
    const child = spawn('npm', ['start', '--silent', '--', '--duration', '8s'], { cwd: ROOT, env });
    let out = '';
    child.stdout.on('data', (b: Buffer) => { out += b.toString(); });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    const lines = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string });
    const status = lines.filter((l) => l.msg.startsWith('status mm['));
    expect(status.length).toBeGreaterThanOrEqual(2);
    expect(lines.some((l) => l.msg === 'running')).toBe(true);
    expect(lines.at(-1)?.msg).toBe('stopped');
    expect(status.at(-1)?.msg).toMatch(/^status mm\[stopped\] orders=0 pos=[+-]?[\d.]+ BTC gross=[+-]?[\d.]+ fees=[\d.]+ net=[+-]?[\d.]+ USDT$/);
    // It quotes: orders rest on the venue while it runs (each side at least the venue's 0.1% maker fee from the mid, so fills wait for the market to move that far).
    expect(status.some((l) => /orders=[12] /.test(l.msg)), status.map((l) => l.msg).join('\n')).toBe(true);
    // It re-quotes within its budget: no denial from the risk gate.
    expect(lines.filter((l) => l.msg.startsWith('denied'))).toEqual([]);
  }, 60_000);

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
  }, 60_000);
});

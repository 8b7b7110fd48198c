// `bhtrade run` against a venue that goes away: with every socket down only unref'd clock timers are left, and the bot must stay up, reconnect and stop with exit 0 (the chaos run found it exiting silently).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { LiveClock } from '../../src/core/clock.ts';
import { loadVenueConfig } from '../../src/sim/server/config.ts';
import { startVenue, type RunningVenue } from '../../src/sim/server/start.ts';
import { ROOT } from './scenario.ts';

const tmp = mkdtempSync(join(tmpdir(), 'bhtrade-venue-down-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The demo account's key pair: public on purpose (config/venue.yaml). */
const demo = loadVenueConfig(join(ROOT, 'config/venue.yaml')).accounts.find((a) => a.name === 'demo')!.keys[0]!;

describe('bhtrade run while the venue is down', () => {
  it('stays up with no socket open, carries on once the venue is back, and exits 0 on SIGTERM', async () => {
    const config = { ...loadVenueConfig(join(ROOT, 'config/venue.yaml')), agents: [] };
    let venue: RunningVenue = await startVenue({ config, clock: new LiveClock(), host: '127.0.0.1', port: 0 });
    const port = new URL(venue.server.restUrl).port;
    const run = parseYaml(readFileSync(join(ROOT, 'config/default.yaml'), 'utf8')) as Record<string, unknown> & { strategies: Record<string, unknown>[] };
    delete run['embedded'];
    const file = join(tmp, 'run.yaml');
    writeFileSync(file, toYaml({
      ...run, venue: { rest: venue.server.restUrl, ws: venue.server.wsUrl, apiKey: '${BH_API_KEY}', secret: '${BH_SECRET}' },
      strategies: [{ ...run.strategies[0], use: join(ROOT, 'strategies/market-maker.ts') }], status: { every: '200ms' },
    }));
    const child = spawn(process.execPath, [join(ROOT, 'bin/bhtrade.js'), 'run', file], { cwd: ROOT, env: { ...process.env, BH_API_KEY: demo.apiKey, BH_SECRET: demo.secret } });
    let out = '';
    const waiters: { re: RegExp; from: number; resolve: () => void }[] = [];
    const check = (): void => { for (const w of waiters.splice(0)) if (w.re.test(out.slice(w.from))) w.resolve(); else waiters.push(w); };
    child.stdout.on('data', (b: Buffer) => { out += b.toString(); check(); });
    child.stderr.on('data', (b: Buffer) => { out += b.toString(); });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    /** Resolves when `re` matches output written from now on; rejects when the bot exits first. */
    const next = (re: RegExp): Promise<void> => Promise.race([
      new Promise<void>((resolve) => { waiters.push({ re, from: out.length, resolve }); check(); }),
      exited.then((c) => { throw new Error(`bhtrade run exited with ${c} while waiting for ${re}:\n${out.slice(-2000)}`); }),
    ]);
    try {
      await next(/"msg":"running"/);
      await venue.stop();
      await next(/"link":"market".*link lost; redialling/);
      // Several status lines with the venue gone: the process did not exit for want of a ref'd handle.
      for (let i = 0; i < 3; i++) await next(/"msg":"status mm\[running\]/);
      venue = await startVenue({ config, clock: new LiveClock(), host: '127.0.0.1', port: Number(port) });
      await next(/"msg":"status mm\[running\]/);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toContain('"msg":"stopped"');
    } finally {
      child.kill('SIGKILL');
      await venue.stop();
    }
  });
});

// `bhtrade venue --port 0` as a user runs it: two URL lines on stdout, a live REST API, and a clean exit on SIGINT or SIGTERM.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

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
      expect(r.statusCode).toBe(200);
      expect(Math.abs(serverTime - before)).toBeLessThan(5000);
      // The shipped config's agents quote from the start: the books are live.
      const depth = (await (await request(`${rest}/openapi/quote/v1/depth?symbol=BTCUSDT`)).body.json()) as { bids: unknown[]; asks: unknown[] };
      expect(depth.bids.length).toBeGreaterThan(0);
      expect(depth.asks.length).toBeGreaterThan(0);
      child.kill(signal);
      expect(await exited, stderr()).toBe(0);
      await expect(request(`${rest}/openapi/v1/time`)).rejects.toThrow();
    }, 20_000);
  }

  it('refuses a bad option with usage and exit code 2', async () => {
    const child = spawn(process.execPath, ['bin/bhtrade.js', 'venue', '--port', 'x'], { stdio: 'pipe' });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(err).toContain('--port must be an integer from 0 to 65535, got x');
  }, 20_000);
});

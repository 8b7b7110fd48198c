// `bhtrade record` in its own process, as a user runs it, when the venue drops the market socket: it redials and goes on.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../app/scenario.ts';
import { startVenueOnClock, type Venue } from '../../venue/streams/helpers.ts';

let child: ChildProcessWithoutNullStreams | undefined;
let venue: Venue | undefined;
const dir = mkdtempSync(join(tmpdir(), 'bhtrade-record-reconnect-'));
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await venue?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Resolves once `text` has been written to `stream`; rejects when the process exits first. */
function waitFor(c: ChildProcessWithoutNullStreams, stream: 'stdout' | 'stderr', text: string, exited: Promise<number | null>): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    c[stream].on('data', (d: Buffer) => {
      seen += d.toString();
      if (seen.includes(text)) resolve();
    });
    void exited.then((code) => reject(new Error(`exited with ${code} before writing ${JSON.stringify(text)} to ${stream}: ${seen}`)));
  });
}

describe('bhtrade record across a dropped socket', () => {
  it('redials, marks the reconnect and stops cleanly on SIGINT (it exited 13 with the socket down)', async () => {
    venue = await startVenueOnClock();
    // "recording ..." is printed once the socket is dialled, not open: the drop waits for the venue to have taken the upgrade.
    const http = (venue.venue.server as unknown as { http: Server }).http;
    const upgraded = new Promise<void>((resolve) => http.once('upgrade', () => setImmediate(resolve)));
    const c = spawn(process.execPath, [join(ROOT, 'bin/bhtrade.js'), 'record', '--venue', venue.url, '--symbols', 'BTCUSDT', '--out', dir], { cwd: ROOT, stdio: 'pipe' });
    child = c;
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => c.on('exit', (code) => resolve(code)));
    await waitFor(c, 'stdout', 'recording BTCUSDT', exited);
    const reconnected = waitFor(c, 'stderr', 'market socket reconnected', exited);
    await upgraded;
    const drop = await request(`${venue.url}/admin/faults/drop`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(drop.statusCode).toBe(200);
    expect(await drop.body.json()).toEqual({ dropped: 1 });
    await reconnected;
    c.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).toMatch(/stopped \(SIGINT\): \d+ frames, 0 gaps, 1 reconnects,/);
  }, 30_000);
});

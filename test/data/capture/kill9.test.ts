// `bhtrade record` killed with SIGKILL mid-run: the files it leaves read back, without an exception, to a gap-free prefix of what the venue
// sent (checked against a second subscriber of the same venue), across files rotated by size. The one-second bound itself is the writer's
// flush period, checked on a virtual clock in writer-reader.test.ts; here the measured loss window is printed.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hrtime } from 'node:process';
import { WebSocket } from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { CaptureReader, captureFiles } from '../../../src/data/capture/reader.ts';
import type { CaptureRecord } from '../../../src/data/capture/line-format.ts';
import { ROOT } from '../../app/scenario.ts';

const BIN = join(ROOT, 'bin/bhtrade.js');
const dir = mkdtempSync(join(tmpdir(), 'bhtrade-kill9-'));
let child: ChildProcess | undefined;
afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Epoch ns as the recorder takes them (wall clock once, then the monotonic timer). */
const anchor = BigInt(Date.now()) * 1_000_000n - hrtime.bigint();
const nowNs = (): bigint => anchor + hrtime.bigint();

/** Resolves once `done()` holds, checked on every change in `folder` (and every 250 ms, as watch events can coalesce); fails only on a hang. */
function whenFolder(folder: string, what: string, done: () => boolean, limitMs = 90_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const finish = (err?: Error): void => {
      w.close();
      clearInterval(tick);
      clearTimeout(hang);
      if (err) reject(err);
      else resolve();
    };
    const check = (): void => {
      if (done()) finish();
    };
    const w = watch(folder, check);
    const tick = setInterval(check, 250);
    const hang = setTimeout(() => finish(new Error(`${what}: not seen within ${limitMs} ms`)), limitMs);
    check();
  });
}

describe('bhtrade record under kill -9', () => {
  it('leaves files that read back to a gap-free prefix of what was received, across size rotation', async () => {
    const out = join(dir, 'cap');
    child = spawn(process.execPath, [BIN, 'record', '--venue', 'embedded', '--symbols', 'BTCUSDT', '--out', out, '--rotate-bytes', '4096'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (b: Buffer) => { stderr += b.toString(); });
    const rest = await new Promise<string>((resolve, reject) => {
      child!.stdout!.on('data', (b: Buffer) => {
        stdout += b.toString();
        const m = /^recording .* from (http:\/\/127\.0\.0\.1:\d+) to /m.exec(stdout);
        if (m) resolve(m[1]!);
      });
      child!.on('exit', (code) => reject(new Error(`recorder exited ${code}: ${stderr}`)));
    });

    // A second subscriber of the same venue: what the recorder must have received too.
    const seen: { ns: bigint; text: string }[] = [];
    const ws = new WebSocket(`${rest.replace(/^http/, 'ws')}/openapi/quote/ws/v1`);
    ws.on('message', (d: Buffer) => seen.push({ ns: nowNs(), text: d.toString() }));
    ws.on('error', () => undefined);
    await new Promise<void>((resolve) => ws.once('open', () => resolve()));
    for (const topic of ['diffDepth', 'trade']) ws.send(JSON.stringify({ symbol: 'BTCUSDT', topic, event: 'sub', params: { binary: false } }));

    // Flushes, a rotation by size, and the new file flushed at least once, before the kill.
    const files = (): string[] => readdirSync(out).filter((n) => n.endsWith('.cap.gz')).sort();
    await whenFolder(out, 'a rotation by size', () => files().length >= 2 && statSync(join(out, files().at(-1)!)).size > 0);
    const killNs = nowNs();
    child.kill('SIGKILL');
    await new Promise<void>((resolve) => (child!.exitCode !== null || child!.signalCode !== null ? resolve() : child!.once('exit', () => resolve())));
    expect(child.signalCode).toBe('SIGKILL');
    ws.terminate();

    const all = await captureFiles(out, 'market');
    expect(all.length).toBeGreaterThanOrEqual(2);
    const reader = new CaptureReader(all);
    const lines: CaptureRecord[] = [];
    for await (const r of reader.records()) lines.push(r);
    // At most the member being written when the process died is cut, and only at the very end.
    expect(reader.issues.filter((i) => i.kind !== 'truncated' || i.file !== all.at(-1))).toEqual([]);
    for (let i = 1; i < lines.length; i++) expect(lines[i]!.ns >= lines[i - 1]!.ns).toBe(true);
    expect(lines.filter((l) => l.marker === 'session')).toHaveLength(all.length);

    // Live frames (not the subscription's first push) both received, in the recorder's order.
    const live = (t: string): boolean => t.includes('"f":false') && t.includes('"symbol":"BTCUSDT"');
    const recorded = lines.filter((l) => l.marker === undefined && live(l.frame));
    const observed = seen.filter((s) => live(s.text));
    expect(observed.length).toBeGreaterThan(0);
    const start = recorded.findIndex((l) => l.frame === observed[0]!.text);
    expect(start).toBeGreaterThanOrEqual(0);
    const overlap = recorded.slice(start);
    // Gap-free: from the observer's first frame on, the recording holds exactly the observer's frames, up to where it ends.
    expect(overlap.map((l) => l.frame)).toEqual(observed.slice(0, overlap.length).map((s) => s.text));
    const lastNs = lines.at(-1)!.ns;
    const lost = observed.slice(overlap.length);
    console.log(`kill -9: ${lines.length} lines in ${all.length} files read back; ${lost.length} frames received in the last ${(Number(killNs - lastNs) / 1e6).toFixed(0)} ms before the kill not on disk; issues: ${reader.issues.map((i) => i.message).join('; ') || 'none'}`);
  }, 120_000);
});

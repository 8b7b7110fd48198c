// `bhtrade record` killed with SIGKILL mid-run: the files it leaves read back, without an exception, to a gap-free prefix of what the venue
// sent (checked against a second subscriber of the same venue), across files rotated by size. The one-second bound itself is the writer's
// flush period, checked on a virtual clock in writer-reader.test.ts; here the measured loss window is printed.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hrtime } from 'node:process';
import { WebSocket } from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { CaptureReader, captureFiles, type CaptureIssue } from '../../../src/data/capture/reader.ts';
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
function whenFolder(folder: string, what: string, done: () => Promise<boolean>, limitMs = 90_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let checking = false;
    let over = false;
    const finish = (err?: Error): void => {
      over = true;
      w.close();
      clearInterval(tick);
      clearTimeout(hang);
      if (err) reject(err);
      else resolve();
    };
    const check = (): void => {
      if (checking || over) return;
      checking = true;
      done().then((ok) => {
        checking = false;
        if (ok && !over) finish();
      }, (err: unknown) => finish(err as Error));
    };
    const w = watch(folder, check);
    const tick = setInterval(check, 250);
    const hang = setTimeout(() => finish(new Error(`${what}: not seen within ${limitMs} ms`)), limitMs);
    check();
  });
}

/** Returns the lines the files in `folder` hold now, and what the reader said of them. */
async function readFolder(folder: string): Promise<{ files: string[]; lines: CaptureRecord[]; issues: CaptureIssue[] }> {
  const files = await captureFiles(folder, 'market');
  const reader = new CaptureReader(files);
  const lines: CaptureRecord[] = [];
  for await (const r of reader.records()) lines.push(r);
  return { files, lines, issues: reader.issues };
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
    for (const topic of ['diffDepth', 'trade', 'index']) ws.send(JSON.stringify({ symbol: 'BTCUSDT', topic, event: 'sub', params: { binary: false } }));

    // Live frames (not the subscription's first push) both received, in the recorder's order.
    const live = (t: string): boolean => t.includes('"f":false') && t.includes('"symbol":"BTCUSDT"');
    // Before the kill: flushes, a rotation by size, the new file flushed at least once, live depth and trade frames and the observer's first live frame on disk.
    await whenFolder(out, 'a rotation by size', async () => {
      const firstSeen = seen.find((f) => live(f.text));
      if (firstSeen === undefined) return false;
      const now = await readFolder(out);
      const onDisk = (topic: string): boolean => now.lines.some((l) => live(l.frame) && l.frame.includes(`"topic":"${topic}"`));
      return now.files.length >= 2 && statSync(now.files.at(-1)!).size > 0 && now.lines.some((l) => l.frame === firstSeen.text) && onDisk('diffDepth') && onDisk('trade');
    });
    // Kill between two flushes: right after the observer gets a further live frame, which the recorder holds in memory at that moment.
    const more = seen.length;
    await new Promise<void>((resolve) => {
      const onFrame = (d: Buffer): void => {
        if (!live(d.toString()) || seen.length <= more) return;
        ws.off('message', onFrame);
        resolve();
      };
      ws.on('message', onFrame);
    });
    const killNs = nowNs();
    child.kill('SIGKILL');
    await new Promise<void>((resolve) => (child!.exitCode !== null || child!.signalCode !== null ? resolve() : child!.once('exit', () => resolve())));
    expect(child.signalCode).toBe('SIGKILL');
    // The venue died with the recorder: the observer reads what was already on its socket, then sees it close.
    if (ws.readyState !== WebSocket.CLOSED) await new Promise<void>((resolve) => ws.once('close', () => resolve()));

    const { files: all, lines, issues } = await readFolder(out);
    expect(all.length).toBeGreaterThanOrEqual(2);
    // At most the member being written when the process died is cut, and only at the very end.
    expect(issues.filter((i) => i.kind !== 'truncated' || i.file !== all.at(-1))).toEqual([]);
    for (let i = 1; i < lines.length; i++) expect(lines[i]!.ns >= lines[i - 1]!.ns).toBe(true);
    expect(lines.filter((l) => l.marker === 'session')).toHaveLength(all.length);

    const recorded = lines.filter((l) => l.marker === undefined && live(l.frame));
    const observed = seen.filter((s) => live(s.text));
    expect(observed.length).toBeGreaterThan(0);
    const start = recorded.findIndex((l) => l.frame === observed[0]!.text);
    expect(start).toBeGreaterThanOrEqual(0);
    const overlap = recorded.slice(start);
    // Gap-free: from the observer's first frame on, the recording holds exactly the observer's frames, up to where either ends.
    const k = Math.min(overlap.length, observed.length);
    expect(k).toBeGreaterThan(0);
    expect(overlap.slice(0, k).map((l) => l.frame)).toEqual(observed.slice(0, k).map((s) => s.text));
    const lastNs = lines.at(-1)!.ns;
    const lost = observed.slice(overlap.length);
    console.log(`kill -9: ${lines.length} lines in ${all.length} files read back; the last line on disk was received ${(Number(killNs - lastNs) / 1e6).toFixed(0)} ms before the kill, ${lost.length} live frames after it lost; issues: ${issues.map((i) => i.message).join('; ') || 'none'}`);
  }, 120_000);

  it('on SIGINT flushes everything it received, exits 0 and lists its files', async () => {
    const out = join(dir, 'sigint');
    const c = spawn(process.execPath, [BIN, 'record', '--venue', 'embedded', '--symbols', 'BTCUSDT,ETHUSDT', '--out', out], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    let stdout = '';
    const code = new Promise<number | null>((resolve) => c.on('exit', (n) => resolve(n)));
    await new Promise<void>((resolve) => c.stdout!.on('data', (b: Buffer) => {
      stdout += b.toString();
      if (/^recording /m.test(stdout)) resolve();
    }));
    // Interrupted right after a flush that holds frames: what came since is still in memory and must reach the disk.
    await whenFolder(out, 'a flush with frames', async () => (await readFolder(out)).lines.some((l) => l.marker === undefined));
    c.kill('SIGINT');
    expect(await code).toBe(0);
    const m = /^stopped \(SIGINT\): (\d+) frames, (\d+) gaps, (\d+) reconnects, (\d+) snapshots in (\d+) files/m.exec(stdout);
    expect(m, stdout).not.toBeNull();
    const { files, lines, issues } = await readFolder(out);
    expect(issues).toEqual([]);
    expect(stdout).toContain(files[0]!);
    // Every frame it counted is on disk, behind the file's session and instruments lines.
    expect(lines.filter((l) => l.marker === undefined)).toHaveLength(Number(m![1]));
    expect(Number(m![1])).toBeGreaterThan(0);
    expect(lines.slice(0, 2).map((l) => l.marker)).toEqual(['session', 'instruments']);
  }, 60_000);
});

// The capture files as a user depends on them: lines are on disk within a flush period without any close (what kill -9 leaves),
// files rotate by size and by UTC hour, any gzip tool reads them, and a cut or damaged file reads up to its last whole line with a clear message.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { CaptureReader, captureFiles, type CaptureIssue } from '../../../src/data/capture/reader.ts';
import { CaptureWriter } from '../../../src/data/capture/writer.ts';
import { frameLine, markerLine, parseLine, type CaptureRecord } from '../../../src/data/capture/line-format.ts';

const root = mkdtempSync(join(tmpdir(), 'bhtrade-capture-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = (): string => join(root, `d${n++}`);

const T0 = Date.UTC(2026, 10, 24, 3, 15, 0);
const NS0 = BigInt(T0) * 1_000_000n;

/** A frame the way the venue sends them, varied so compression does not hide the size. */
function frame(i: number): string {
  return JSON.stringify({ symbol: 'BTCUSDT', topic: 'trade', data: [{ v: String(2_000_000_000_000_000_000n + BigInt(i)), t: T0 + i, p: `30000.${(i * 7919) % 100}`, q: `0.00${(i * 104729) % 1000}`, m: i % 3 === 0 }], f: false });
}

async function readAll(files: readonly string[], chunkBytes?: number): Promise<{ records: CaptureRecord[]; issues: CaptureIssue[] }> {
  const reader = new CaptureReader(files, chunkBytes === undefined ? {} : { chunkBytes });
  const records: CaptureRecord[] = [];
  for await (const r of reader.records()) records.push(r);
  return { records, issues: reader.issues };
}

function header(ns: bigint): string[] {
  return [markerLine(ns, 'session', '{"format":1,"stream":"test"}')];
}

describe('CaptureWriter and CaptureReader', () => {
  it('puts each flush period\'s lines on disk as one gzip member without closing the file (what a kill -9 leaves behind)', async () => {
    const clock = new VirtualClock(T0);
    const dir = freshDir();
    const w = new CaptureWriter({ dir, stream: 'market', clock, header });
    for (let i = 0; i < 10; i++) w.write(NS0 + BigInt(i), frameLine(NS0 + BigInt(i), frame(i)));
    const [file] = w.files();
    expect(statSync(file!).size).toBe(0);
    await clock.advance(1000);
    // Never closed: this is the state a killed recorder leaves.
    let back = await readAll([file!]);
    expect(back.issues).toEqual([]);
    expect(back.records.map((r) => r.frame)).toEqual(['{"format":1,"stream":"test"}', ...Array.from({ length: 10 }, (_, i) => frame(i))]);
    expect(back.records[0]!.marker).toBe('session');
    for (let i = 10; i < 15; i++) w.write(NS0 + BigInt(i), frameLine(NS0 + BigInt(i), frame(i)));
    await clock.advance(999);
    expect((await readAll([file!])).records).toHaveLength(11);
    await clock.advance(1);
    back = await readAll([file!]);
    expect(back.records).toHaveLength(16);
    expect(back.records.slice(1).map((r) => r.ns)).toEqual(Array.from({ length: 15 }, (_, i) => NS0 + BigInt(i)));
    expect(w.stats()).toMatchObject({ lines: 15, members: 2, files: 1, pendingLines: 0 });
    w.close();
  });

  it('writes standard gzip: gunzip reads every member of a file as the lines written', () => {
    const clock = new VirtualClock(T0);
    const w = new CaptureWriter({ dir: freshDir(), stream: 'market', clock, header, maxPendingBytes: 2000 });
    const want: string[] = header(NS0);
    for (let i = 0; i < 200; i++) {
      const line = frameLine(NS0 + BigInt(i), frame(i));
      want.push(line);
      w.write(NS0 + BigInt(i), line);
    }
    w.close();
    expect(w.stats().members).toBeGreaterThan(5);
    expect(gunzipSync(readFileSync(w.files()[0]!)).toString('utf8')).toBe(want.join(''));
  });

  it('rotates by size: files close past maxFileBytes, each starts with the header, and together they read back every line in order', async () => {
    const clock = new VirtualClock(T0);
    const dir = freshDir();
    const w = new CaptureWriter({ dir, stream: 'market', clock, header, maxFileBytes: 4096 });
    const total = 3000;
    for (let i = 0; i < total; i++) {
      w.write(NS0 + BigInt(i), frameLine(NS0 + BigInt(i), frame(i)));
      if (i % 50 === 49) await clock.advance(1000);
    }
    w.close();
    const files = await captureFiles(dir, 'market');
    expect(files).toEqual(w.files());
    expect(files.length).toBeGreaterThan(3);
    const sizes = files.map((f) => statSync(f).size);
    // A file is closed by the member that takes it past the limit: at most one member (50 lines) over.
    for (const s of sizes) expect(s).toBeLessThan(4096 + 3000);
    for (const s of sizes.slice(0, -1)) expect(s).toBeGreaterThanOrEqual(4096);
    const { records, issues } = await readAll(files, 1000);
    expect(issues).toEqual([]);
    const frames = records.filter((r) => r.marker === undefined);
    expect(frames.map((r) => r.frame)).toEqual(Array.from({ length: total }, (_, i) => frame(i)));
    expect(records.filter((r) => r.marker === 'session')).toHaveLength(files.length);
    for (const f of files) expect((await readAll([f])).records[0]!.marker).toBe('session');
  });

  it('rotates at each UTC hour, naming files by their opening time', async () => {
    const clock = new VirtualClock(Date.UTC(2026, 10, 24, 3, 59, 59, 500));
    const dir = freshDir();
    const w = new CaptureWriter({ dir, stream: 'market', clock, header });
    w.write(1n, frameLine(1n, frame(1)));
    await clock.advance(400);
    w.write(2n, frameLine(2n, frame(2)));
    await clock.advance(200);
    w.write(3n, frameLine(3n, frame(3)));
    w.close();
    expect(readdirSync(dir).sort()).toEqual(['market-20261124T035959Z-0000.cap.gz', 'market-20261124T040000Z-0000.cap.gz']);
    const [a, b] = await Promise.all(w.files().map((f) => readAll([f])));
    expect(a!.records.filter((r) => !r.marker).map((r) => r.ns)).toEqual([1n, 2n]);
    expect(b!.records.filter((r) => !r.marker).map((r) => r.ns)).toEqual([3n]);
  });

  it('bounds what it holds between flushes: past maxPendingBytes it flushes at once', () => {
    const clock = new VirtualClock(T0);
    const w = new CaptureWriter({ dir: freshDir(), stream: 'market', clock, maxPendingBytes: 10_000 });
    for (let i = 0; i < 1000; i++) {
      w.write(NS0, frameLine(NS0, frame(i)));
      expect(w.stats().pendingLines).toBeLessThan(10_000 / 100);
    }
    expect(w.stats().members).toBeGreaterThan(5);
    w.close();
  });

  it('reads a file cut anywhere inside its last member up to the last whole line, and says so', async () => {
    const clock = new VirtualClock(T0);
    const dir = freshDir();
    const w = new CaptureWriter({ dir, stream: 'market', clock, header });
    for (let i = 0; i < 20; i++) w.write(NS0, frameLine(NS0 + BigInt(i), frame(i)));
    await clock.advance(1000);
    const firstMember = statSync(w.files()[0]!).size;
    for (let i = 20; i < 400; i++) w.write(NS0, frameLine(NS0 + BigInt(i), frame(i)));
    w.close();
    const full = readFileSync(w.files()[0]!);
    const cut = join(dir, 'cut.cap.gz');
    let sawPartialLines = false;
    for (let at = firstMember + 1; at < full.length; at += 97) {
      writeFileSync(cut, full.subarray(0, at));
      const { records, issues } = await readAll([cut], 512);
      const frames = records.filter((r) => !r.marker);
      // A prefix of what was written: the whole first member, then as much of the cut one as its deflate data holds.
      expect(frames.map((r) => r.frame)).toEqual(Array.from({ length: frames.length }, (_, i) => frame(i)));
      expect(frames.length).toBeGreaterThanOrEqual(20);
      if (frames.length > 20) sawPartialLines = true;
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({ kind: 'truncated', offset: firstMember, afterLines: expect.any(Number) });
      expect(issues[0]!.message).toMatch(at - firstMember < 20 ? /ends inside a gzip member header/ : /last gzip member is cut short .* read up to its last whole line/);
      expect(issues[0]!.message).toContain(cut);
    }
    expect(sawPartialLines).toBe(true);
    // Cut inside the first member's header, or to nothing.
    writeFileSync(cut, full.subarray(0, 7));
    const r = await readAll([cut]);
    expect(r.records).toEqual([]);
    expect(r.issues[0]!.message).toContain('ends inside a gzip member header');
    writeFileSync(cut, Buffer.alloc(0));
    expect(await readAll([cut])).toEqual({ records: [], issues: [] });
  });

  it('skips a damaged member with a clear message and reads the members after it', async () => {
    const clock = new VirtualClock(T0);
    const dir = freshDir();
    const w = new CaptureWriter({ dir, stream: 'market', clock });
    const memberEnds: number[] = [];
    for (let m = 0; m < 3; m++) {
      for (let i = 0; i < 10; i++) w.write(NS0, frameLine(NS0, frame(m * 10 + i)));
      await clock.advance(1000);
      memberEnds.push(statSync(w.files()[0]!).size);
    }
    w.close();
    const bytes = readFileSync(w.files()[0]!);
    const bad = Buffer.from(bytes);
    const mid = Math.floor((memberEnds[0]! + memberEnds[1]!) / 2);
    for (let i = mid; i < mid + 8; i++) bad[i] = bad[i]! ^ 0x5a;
    const file = join(dir, 'bad.cap.gz');
    writeFileSync(file, bad);
    const { records, issues } = await readAll([file]);
    expect(records.map((r) => r.frame)).toEqual([...Array.from({ length: 10 }, (_, i) => frame(i)), ...Array.from({ length: 10 }, (_, i) => frame(20 + i))]);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ kind: 'corrupt', offset: memberEnds[0], afterLines: 10 });
    expect(issues[0]!.message).toMatch(/damaged|CRC/);
    expect(issues[0]!.message).toContain('skipped to the next member');
    // Junk where a file should be: one clear issue, nothing read, no throw.
    writeFileSync(file, Buffer.from('this is not a capture file\n'.repeat(100)));
    const junk = await readAll([file]);
    expect(junk.records).toEqual([]);
    expect(junk.issues.map((i) => i.kind)).toEqual(['corrupt']);
    expect(junk.issues[0]!.message).toContain('not a capture file');
  });

  it('reads a capture compressed again by another tool (plain gzip), and keeps every whole line before a cut or damage', async () => {
    const text = Array.from({ length: 3000 }, (_, i) => frameLine(NS0 + BigInt(i), frame(i))).join('');
    const gz = gzipSync(text, { level: 9 });
    const file = join(root, `plain-${n++}.gz`);
    writeFileSync(file, gz);
    const whole = await readAll([file], 4096);
    expect(whole.issues).toEqual([]);
    expect(whole.records.map((r) => r.frame)).toEqual(Array.from({ length: 3000 }, (_, i) => frame(i)));
    writeFileSync(file, gz.subarray(0, Math.floor(gz.length * 0.6)));
    const cut = await readAll([file], 4096);
    expect(cut.records.length).toBeGreaterThan(1000);
    expect(cut.records.map((r) => r.frame)).toEqual(Array.from({ length: cut.records.length }, (_, i) => frame(i)));
    expect(cut.issues.map((i) => [i.kind, i.afterLines])).toEqual([['truncated', cut.records.length]]);
    writeFileSync(file, Buffer.concat([gz, Buffer.from('garbage after the member')]));
    const junk = await readAll([file], 4096);
    // Up to the damage, less what zlib drops of the kilobyte it was decoding.
    expect(junk.records.length).toBeGreaterThan(2950);
    expect(junk.records.map((r) => r.frame)).toEqual(Array.from({ length: junk.records.length }, (_, i) => frame(i)));
    expect(junk.issues.map((i) => i.kind)).toEqual(['corrupt']);
    expect(junk.issues[0]!.message).toContain('gzip data damaged');
  });

  it('skips lines that are not `<ns> <frame>`, naming why, and keeps at most 100 issues (all still counted and told)', async () => {
    const clock = new VirtualClock(T0);
    const w = new CaptureWriter({ dir: freshDir(), stream: 'market', clock });
    for (let i = 0; i < 150; i++) w.write(NS0, `not a line ${i}\n`);
    w.write(NS0, frameLine(NS0, frame(1)));
    w.close();
    let told = 0;
    const reader = new CaptureReader(w.files(), { onIssue: () => { told += 1; } });
    const records: CaptureRecord[] = [];
    for await (const r of reader.records()) records.push(r);
    expect(records.map((r) => r.frame)).toEqual([frame(1)]);
    expect(reader.issues).toHaveLength(100);
    expect(reader.issueCount).toBe(150);
    expect(told).toBe(150);
    expect(reader.issues[0]).toMatchObject({ kind: 'bad-line', afterLines: 0 });
    expect(reader.issues[0]!.message).toContain('line skipped: the time "not" is not integer nanoseconds');
  });

  it('parses lines exactly: nanoseconds as bigint beyond 2^53, markers by name, and says why a line is not one', () => {
    const ns = 1_795_490_384_568_926_078n;
    expect(parseLine(frameLine(ns, '{"a":1}').trimEnd())).toEqual({ ns, frame: '{"a":1}' });
    expect(parseLine(markerLine(ns, 'gap', '{"symbol":"X"}').trimEnd())).toEqual({ ns, frame: '{"symbol":"X"}', marker: 'gap' });
    expect(frameLine(ns, '{\n"a":\r\n1}')).toBe(`${ns} { "a":  1}\n`);
    expect(parseLine('12.5 {}')).toMatch(/not integer nanoseconds/);
    expect(parseLine('{"a":1}')).toMatch(/no space/);
    expect(parseLine('1 !party {}')).toMatch(/unknown marker !party/);
  });
});

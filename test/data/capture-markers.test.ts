// The recorder's own lines in a capture (`<ns> !<marker> <json>`): a recorded gap puts the book out of step, a REST snapshot brings it back, as live.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeMember } from '../../src/data/capture/gzip-member.ts';
import { convert } from '../../src/data/convert.ts';
import { mappingFrom } from '../../src/data/mapping.ts';
import { collect, tempDir } from './helpers.ts';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

// Frames shaped as the published diffDepth push (BTCUSDT, version "115277986_18", 2019-08-13), numbered on from it.
const frame = (v: number, t: number, b: string, a: string, first = false): string =>
  `{"symbol":"BTCUSDT","topic":"diffDepth","data":[{"e":0,"t":${t},"v":"${v}_18","b":${b},"a":${a}}],"f":${first}}`;

describe('capture markers', () => {
  it('a recorded gap and the REST snapshot after it: reported, book out of step, resynced without a version, then diffs again', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const ns = (ms: number): string => `${BigInt(ms) * 1_000_000n + 123n}`;
    const lines = [
      `${ns(1565687625540)} !session {"format":1,"stream":"market","symbols":["BTCUSDT"]}`,
      `${ns(1565687625540)} ${frame(115277986, 1565687625534, '[["11316.78","0.078"],["11313.16","0.0052"]]', '[["11318.96","0.0041"],["11318.99","0.0017"]]', true)}`,
      `${ns(1565687625610)} ${frame(115277987, 1565687625600, '[["11316.78","0"]]', '[]')}`,
      `${ns(1565687625710)} ${frame(115277990, 1565687625700, '[["11313.16","0.01"]]', '[]')}`,
      `${ns(1565687625711)} !gap {"symbol":"BTCUSDT","after":"115277987_18","got":"115277990_18"}`,
      `${ns(1565687625810)} !snapshot {"symbol":"BTCUSDT","reason":"gap","requestNs":"${ns(1565687625712)}","path":"/openapi/quote/v1/depth?symbol=BTCUSDT","status":200,"body":{"time":1565687625800,"bids":[["11313.16","0.01"]],"asks":[["11318.96","0.0041"]]}}`,
      `${ns(1565687625910)} ${frame(115277991, 1565687625900, '[]', '[["11318.96","0.5"]]')}`,
      `${ns(1565687625920)} !bogus {}`,
    ];
    const file = join(t.dir, 'market.log');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const mapping = mappingFrom({ instruments: [{ symbol: 'BTCUSDT', kind: 'spot', tick: '0.01', lot: '0.0001', base: 'BTC', quote: 'USDT', margin: 'USDT' }] });
    const { index, report } = await convert({ inputs: [file], out: join(t.dir, 'cat'), mapping });
    expect(report.problems.map((p) => [p.line, p.message])).toEqual([[8, 'unknown recorder marker !bogus; skipped']]);
    expect(index.gaps).toEqual([{ symbol: 'BTCUSDT', atNs: ns(1565687625711), reason: expect.stringContaining('version gap') }]);
    const { events, stats } = await collect({ catalog: join(t.dir, 'cat') });
    // The recorder notes the gap after the diff that shows it; the replayed book finds it in that diff, as live.
    expect(stats).toMatchObject({ bookGaps: 1, recordedGaps: 0 });
    expect(events.map((e) => (e.kind === 'depthSnapshot' || e.kind === 'depthUpdate' ? [e.kind, e.version, e.bids, e.asks] : e.kind))).toEqual([
      ['depthSnapshot', '115277986_18', [['11316.78', '0.078'], ['11313.16', '0.0052']], [['11318.96', '0.0041'], ['11318.99', '0.0017']]],
      ['depthUpdate', '115277987_18', [['11316.78', '0']], []],
      // 115277990 does not follow 115277987: the live book finds the gap itself and publishes nothing until the snapshot.
      ['depthSnapshot', 'rest@1565687625800', [['11313.16', '0.01']], [['11318.96', '0.0041']]],
      ['depthUpdate', '115277991_18', [], [['11318.96', '0.5']]],
    ]);
  });

  it('a diff lost with a damaged gzip member, which the recorder could not mark, is listed as a gap with the versions around it', async () => {
    const t = tempDir();
    cleanup = t.remove;
    const ns = (ms: number): string => `${BigInt(ms) * 1_000_000n + 7n}`;
    const t0 = 1565687625000;
    const lines = [`${ns(t0)} ${frame(1, t0, '[["11316.78","0.078"]]', '[["11318.96","0.0041"]]', true)}`];
    for (let v = 2; v <= 6; v++) lines.push(`${ns(t0 + v * 100)} ${frame(v, t0 + v * 100, `[["11316.${70 + v}","0.01"]]`, '[]')}`);
    // One gzip member a line, as the recorder flushes them; the member of version 4 is damaged.
    const members = lines.map((l) => encodeMember(Buffer.from(`${l}\n`)));
    const bad = Buffer.from(members[3]!);
    for (let i = 30; i < bad.length - 12; i += 3) bad[i] = (bad[i]! + 91) & 0xff;
    members[3] = bad;
    const file = join(t.dir, 'market-20190813T092345Z-0000.cap.gz');
    writeFileSync(file, Buffer.concat(members));
    const mapping = mappingFrom({ instruments: [{ symbol: 'BTCUSDT', kind: 'spot', tick: '0.01', lot: '0.0001', base: 'BTC', quote: 'USDT', margin: 'USDT' }] });
    const { index, report } = await convert({ inputs: [file], out: join(t.dir, 'cat'), mapping });
    expect(report.problems.map((p) => p.message)).toEqual([expect.stringContaining('bytes skipped to the next member')]);
    expect(index.gaps).toEqual([{ symbol: 'BTCUSDT', atNs: ns(t0 + 500), reason: `version gap: 4 expected, 5 came (line 4 of ${file})` }]);
    const { stats } = await collect({ catalog: join(t.dir, 'cat') });
    expect(stats).toMatchObject({ bookGaps: 1 });
  });
});

// Gap detection on raw diffDepth frames: contiguous versions as the simulated venue numbers them, or only increasing ones for a venue that skips numbers.
import { describe, expect, it } from 'vitest';
import { DiffVersions } from '../../../src/data/capture/diff-versions.ts';

const frame = (v: string, f = false, symbol = 'BTCUSDT'): string =>
  JSON.stringify({ symbol, topic: 'diffDepth', params: { binary: false }, data: [{ e: 0, t: 1, s: symbol, v, b: [], a: [] }], f });

describe('DiffVersions', () => {
  it('contiguous: a skipped version is one gap, then it follows on from the new version', () => {
    const d = new DiffVersions();
    expect(d.check(frame('10_1', true))).toBeUndefined();
    expect(d.check(frame('11_1'))).toBeUndefined();
    expect(d.check(frame('13_1'))).toEqual({ symbol: 'BTCUSDT', after: '11_1', got: '13_1', reason: 'diff 13_1 does not follow 11_1' });
    expect(d.check(frame('14_1'))).toBeUndefined();
    // A late diff behind a diff is a gap; another symbol is followed on its own.
    expect(d.check(frame('12_1'))).toMatchObject({ got: '12_1', reason: 'diff 12_1 arrived after 14_1' });
    expect(d.check(frame('3_2', true, 'ETHUSDT'))).toBeUndefined();
    expect(d.check(frame('4_2', false, 'ETHUSDT'))).toBeUndefined();
  });

  it('a diff at or below a snapshot is inside it; after a reset the next push starts afresh', () => {
    const d = new DiffVersions();
    d.check(frame('20_1', true));
    expect(d.check(frame('19_1'))).toBeUndefined();
    expect(d.check(frame('20_1'))).toBeUndefined();
    expect(d.check(frame('21_1'))).toBeUndefined();
    d.reset();
    expect(d.check(frame('40_1', true))).toBeUndefined();
    expect(d.check(frame('41_1'))).toBeUndefined();
  });

  it('increasing: skipped numbers are no gap, going back still is', () => {
    const d = new DiffVersions('increasing');
    d.check(frame('100', true));
    expect(d.check(frame('105'))).toBeUndefined();
    expect(d.check(frame('230'))).toBeUndefined();
    expect(d.check(frame('200'))).toMatchObject({ after: '230', got: '200' });
  });

  it('does not judge what it cannot read, nor other topics', () => {
    const d = new DiffVersions();
    expect(d.check('{"symbol":"BTCUSDT","topic":"diffDepth",')).toBeUndefined();
    expect(d.check(JSON.stringify({ symbol: 'BTCUSDT', topic: 'trade', data: [{ v: '1' }, { v: '9' }] }))).toBeUndefined();
  });
});

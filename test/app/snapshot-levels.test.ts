// A backtest shows a strategy reading book snapshots at most the levels the venue's snapshot topic pushes live; one keeping its book from diffs sees the whole book.
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_LEVELS, snapshotLevels } from '../../src/app/market-streams.ts';
import { instrumentsOf, parseBrokerInfo } from '../../src/model/index.ts';
import { resolveStreams } from '../../src/strategy/index.ts';
import { loadSample } from '../fixtures/samples.ts';

const instruments = instrumentsOf(parseBrokerInfo(loadSample('broker-info.capture-2020').payload));
const spot = [...instruments.values()].find((i) => i.kind === 'spot')!.symbol;
const contract = [...instruments.values()].find((i) => i.kind !== 'spot')!.symbol;
const on = (id: string, symbols: string[], depth: 'snapshot' | 'diff' | 'none') => ({ id, symbols, streams: resolveStreams({ depth }, undefined) });

describe('snapshot levels', () => {
  it('are the depth topic\'s 100 for spot and the merged depth topic\'s 40 for contracts, when every strategy on the symbol reads snapshots', () => {
    const all = [on('a', [spot, contract], 'snapshot'), on('b', [spot], 'none')];
    expect(snapshotLevels(all, instruments, spot)).toBe(SNAPSHOT_LEVELS.spot);
    expect(snapshotLevels(all, instruments, contract)).toBe(SNAPSHOT_LEVELS.contract);
    expect([SNAPSHOT_LEVELS.spot, SNAPSHOT_LEVELS.contract]).toEqual([100, 40]);
  });

  it('are the whole book when a strategy on the symbol keeps its book from diffs, or nobody trades it', () => {
    const all = [on('a', [spot], 'snapshot'), on('b', [spot], 'diff')];
    expect(snapshotLevels(all, instruments, spot)).toBe(Infinity);
    expect(snapshotLevels(all, instruments, contract)).toBe(Infinity);
    expect(snapshotLevels(all, instruments, 'NOSUCH')).toBe(Infinity);
  });
});

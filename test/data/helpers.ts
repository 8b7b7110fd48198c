// Shared by the data tests: fixture paths, a temp catalog folder per test, and a replay that collects events.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMapping } from '../../src/data/mapping.ts';
import { replay, type ReplayOptions, type ReplayStats } from '../../src/data/replay.ts';
import type { BusEvent } from '../../src/model/events.ts';

export const REAL = fileURLToPath(new URL('../fixtures/real/', import.meta.url));
export const L2 = join(REAL, 'binance-l2');
export const SPOT_RAW = join(L2, 'spot_btcusdt_20240808.gz');
export const CM_RAW = join(L2, 'cm_btcusd_perp_20240808.gz');
export const MAPPING = fileURLToPath(new URL('../../config/data/binance-samples.yaml', import.meta.url));

/** Returns the mapping of the Binance samples. */
export function sampleMapping(): ReturnType<typeof loadMapping> {
  return loadMapping(MAPPING);
}

/** Returns a fresh temp folder and its remover. */
export function tempDir(prefix = 'bhtrade-data-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Replays a catalog and returns every event with the stats. */
export async function collect(o: Omit<ReplayOptions, 'sink'>): Promise<{ events: BusEvent[]; stats: ReplayStats }> {
  const events: BusEvent[] = [];
  const stats = await replay({ ...o, sink: (ev) => events.push(ev) });
  return { events, stats };
}

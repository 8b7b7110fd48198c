// --sweep texts and config paths: lists and exact decimal ranges, the params.X shorthand, values typed like the ones they replace, and errors that name the bad path.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readYamlFile } from '../../../src/core/config.ts';
import { resolveSweepPath, withValues } from '../../../src/app/sweep/apply.ts';
import { prepareSweep } from '../../../src/app/sweep/run.ts';
import { combinations, parseSweepArg } from '../../../src/app/sweep/spec.ts';
import { loadCombination } from '../../../src/app/sweep/task.ts';

const EXAMPLE = resolve(import.meta.dirname, '../../../config/backtest.yaml');
const TREND = resolve(import.meta.dirname, '../../../config/trend.yaml');

describe('sweep values', () => {
  it('reads a list and a range, the range in exact decimal steps', () => {
    expect(parseSweepArg('params.spreadTicks=4,6,8')).toEqual({ path: 'params.spreadTicks', values: ['4', '6', '8'] });
    expect(parseSweepArg('params.refreshMs=100..500:100').values).toEqual(['100', '200', '300', '400', '500']);
    expect(parseSweepArg('params.quantity=0.1..0.3:0.1').values).toEqual(['0.1', '0.2', '0.3']);
    expect(parseSweepArg('strategies[0].params.x=1..2:0.4').values).toEqual(['1', '1.4', '1.8']);
  });

  it('names what is wrong in a --sweep text', () => {
    expect(() => parseSweepArg('params.spreadTicks')).toThrow(/--sweep: must be PATH=VALUES/);
    expect(() => parseSweepArg('params.spreadTicks=')).toThrow(/--sweep params.spreadTicks: needs values/);
    expect(() => parseSweepArg('params.spreadTicks=4,,8')).toThrow(/needs values/);
    expect(() => parseSweepArg('params.spreadTicks=4,4')).toThrow(/value 4 is listed twice/);
    expect(() => parseSweepArg('params.refreshMs=500..100:100')).toThrow(/a range goes up/);
    // A range without its step is not taken for one text value.
    for (const v of ['2..4', '2..4:', '0.5..1:x']) expect(() => parseSweepArg(`params.fast=${v}`)).toThrow(`--sweep params.fast: a range is FROM..TO:STEP with a number above 0 for STEP (e.g. 100..500:100), got "${v}"`);
    expect(parseSweepArg('backtest.data=../a,../b').values).toEqual(['../a', '../b']);
    expect(() => parseSweepArg('params.refreshMs=100..500:0')).toThrow(/step must be above 0/);
    expect(() => parseSweepArg('params.refreshMs=0..1:0.00001')).toThrow(/more than 10000/);
    expect(() => parseSweepArg('params..x=1')).toThrow(/--sweep params..x: a path is config keys joined by dots/);
  });

  it('combines axes, the first varying slowest, and refuses a key swept twice', () => {
    const c = combinations([parseSweepArg('a=1,2'), parseSweepArg('b=x,y,z')]);
    expect(c.map((x) => x.map((v) => v.value).join(''))).toEqual(['1x', '1y', '1z', '2x', '2y', '2z']);
    expect(() => combinations([parseSweepArg('a=1'), parseSweepArg('a=2')])).toThrow(/--sweep a: is swept twice/);
  });
});

describe('sweep paths', () => {
  const doc = readYamlFile(EXAMPLE);

  it('reads params.X as the one strategy\'s params, and strategies by index or id', () => {
    expect(resolveSweepPath(doc, 'params.spreadTicks')).toEqual(['strategies', 0, 'params', 'spreadTicks']);
    expect(resolveSweepPath(doc, 'strategies.0.params.spreadTicks')).toEqual(['strategies', 0, 'params', 'spreadTicks']);
    expect(resolveSweepPath(doc, 'strategies[0].params.spreadTicks')).toEqual(['strategies', 0, 'params', 'spreadTicks']);
    expect(resolveSweepPath(doc, 'strategies.mm.params.orderRate.perSecond')).toEqual(['strategies', 0, 'params', 'orderRate', 'perSecond']);
  });

  it('types a value like the one it replaces: text stays text, the rest as YAML reads it', () => {
    const out = withValues(doc, [{ path: 'params.quantity', value: '0.003' }, { path: 'params.spreadTicks', value: '6' }, { path: 'params.postOnly', value: 'false' }, { path: 'backtest.latency.entry', value: '35' }]) as {
      strategies: { params: Record<string, unknown> }[]; backtest: { latency: { entry: unknown } };
    };
    expect(out.strategies[0]!.params).toMatchObject({ quantity: '0.003', spreadTicks: 6, postOnly: false });
    expect(out.backtest.latency.entry).toBe(35);
    expect((doc as { strategies: { params: { spreadTicks: number } }[] }).strategies[0]!.params.spreadTicks).toBe(2);
  });

  it('names a path it cannot follow', () => {
    const two = { strategies: [{ id: 'a' }, { id: 'b' }] };
    expect(() => resolveSweepPath(two, 'params.x')).toThrow(/--sweep params.x: params.X is short for the one strategy's params; this config has 2 strategies/);
    expect(() => resolveSweepPath(doc, 'strategies.3.params.x')).toThrow(/--sweep strategies.3.params.x: strategies.3: no such entry \(1 entries, or a strategy id\)/);
    expect(() => resolveSweepPath(doc, 'strategies.zz.params.x')).toThrow(/strategies.zz: no such entry/);
    expect(() => resolveSweepPath(doc, 'params.spreadTicks.x')).toThrow(/strategies\[0\].params.spreadTicks is a value, not a section/);
    expect(() => resolveSweepPath(doc, 'params.orderRate')).toThrow(/strategies\[0\].params.orderRate is a section, not a value/);
  });

  it('checks each swept value against the config and the strategy\'s params before anything runs (exit 2 in the command)', async () => {
    await expect(prepareSweep(EXAMPLE, [parseSweepArg('params.spreadTiks=4,6')])).rejects.toThrow(/--sweep params.spreadTiks=4: strategies\[0\].params.spreadTiks: unknown key/);
    await expect(prepareSweep(EXAMPLE, [parseSweepArg('params.spreadTicks=4,many')])).rejects.toThrow(/--sweep params.spreadTicks=many: strategies\[0\].params.spreadTicks: /);
    await expect(prepareSweep(EXAMPLE, [parseSweepArg('backtest.queue.model=log,fifo')])).rejects.toThrow(/--sweep backtest.queue.model=fifo: backtest.queue/);
    await expect(prepareSweep(EXAMPLE, [parseSweepArg('backtest.speed=1,2')])).rejects.toThrow(/--sweep backtest.speed=1: backtest.speed: unknown key/);
    await expect(prepareSweep(EXAMPLE, [parseSweepArg('backtest.fees.taker=0.001,1')])).rejects.toThrow('--sweep backtest.fees.taker=1: backtest.fees.taker: must be below 1');
    expect(await prepareSweep(EXAMPLE, [parseSweepArg('params.spreadTicks=4,6'), parseSweepArg('params.refreshMs=100..300:100')])).toHaveLength(6);
    // Each value fits with the file's other (fast 3, slow 8); fast 7 with slow 6 does not.
    await expect(prepareSweep(TREND, [parseSweepArg('params.fast=5,7'), parseSweepArg('params.slow=20,6')]))
      .rejects.toThrow(/--sweep params.fast=7 params.slow=6: strategies\[0\].params.fast: fast must be below slow/);
  });

  it('refuses a swept latency bound that crosses the other before anything runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bhtrade-sweep-'));
    try {
      const file = join(dir, 'drawn.yaml');
      writeFileSync(file, readFileSync(EXAMPLE, 'utf8').replace('latency: { entry: 20, response: 20 }', 'latency: { entry: { min: 10, max: 30 }, response: 20 }'));
      await expect(prepareSweep(file, [parseSweepArg('backtest.latency.entry.max=5,40')])).rejects.toThrow('--sweep backtest.latency.entry.max=5: backtest.latency.entry.max: must be at least min (10), got 5');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sets a decimal the file leaves out as the text the strategy takes (YAML would read 0.002 as a number), in the config each combination runs with', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bhtrade-sweep-'));
    try {
      // config/backtest.yaml without targetPosition: the market maker's default "0" stands in the file's place.
      const file = join(dir, 'no-target.yaml');
      writeFileSync(file, readFileSync(EXAMPLE, 'utf8').replace('use: ../strategies/', `use: ${resolve(import.meta.dirname, '../../../strategies')}/`).replace(/\n\s*targetPosition: "0".*\n/, '\n'));
      expect(readFileSync(file, 'utf8')).not.toContain('targetPosition');
      const combos = await prepareSweep(file, [parseSweepArg('params.targetPosition=0,0.002'), parseSweepArg('params.spreadTicks=2,4')]);
      expect(combos).toHaveLength(4);
      const config = loadCombination(file, combos[1]!).config;
      expect(config.strategies[0]!.params).toMatchObject({ targetPosition: '0', spreadTicks: 4 });
      expect(loadCombination(file, combos[2]!).config.strategies[0]!.params).toMatchObject({ targetPosition: '0.002', spreadTicks: 2 });
      // A value that fits neither way is still named.
      await expect(prepareSweep(file, [parseSweepArg('params.targetPosition=0.002,1e')])).rejects.toThrow(/--sweep params.targetPosition=1e: strategies\[0\].params.targetPosition: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

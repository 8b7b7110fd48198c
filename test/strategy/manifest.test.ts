// A plugin's manifest is checked when it is loaded: shape, name, API version, and params validated with the path of the bad key.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../../src/core/errors.ts';
import {
  checkDefinition, defineStrategy, isApiCompatible, parseParams, STRATEGY_API_VERSION, StrategyLoadError,
} from '../../src/strategy/index.ts';

const params = z.strictObject({
  quantity: z.string().regex(/^\d+(\.\d+)?$/),
  ladder: z.strictObject({ levels: z.number().int().min(1), stepTicks: z.number().int().default(10) }),
});
const good = defineStrategy({ manifest: { name: 'mm-1', apiVersion: '1.0', params }, create: () => ({}) });

describe('manifest checks at load', () => {
  it('accepts a well-formed definition and returns it', () => {
    expect(checkDefinition(good, 'x.ts')).toBe(good);
  });

  it.each([
    [null, 'does not export a strategy definition'],
    [{ manifest: good.manifest }, 'create must be a function'],
    [{ create: () => ({}) }, 'manifest is missing'],
    [{ ...good, manifest: { ...good.manifest, name: '9lives' } }, 'manifest.name must be'],
    [{ ...good, manifest: { ...good.manifest, name: 'a'.repeat(33) } }, 'manifest.name must be'],
    [{ ...good, manifest: { ...good.manifest, apiVersion: 'one' } }, 'manifest.apiVersion must be "MAJOR.MINOR"'],
    [{ ...good, manifest: { ...good.manifest, apiVersion: '2.0' } }, 'apiVersion 2.0 is not compatible'],
    [{ ...good, manifest: { ...good.manifest, apiVersion: '1.9' } }, 'apiVersion 1.9 is not compatible'],
    [{ ...good, manifest: { ...good.manifest, params: { quantity: 'string' } } }, 'manifest.params must be a zod schema'],
  ])('refuses %j with a StrategyLoadError naming the rule', (value, rule) => {
    const err = (() => { try { checkDefinition(value, 'plugins/bad.ts'); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(StrategyLoadError);
    expect((err as Error).message).toContain('plugins/bad.ts: ');
    expect((err as Error).message).toContain(rule);
  });

  it('treats same major, older or equal minor as compatible', () => {
    expect(STRATEGY_API_VERSION).toBe('1.0');
    expect(isApiCompatible('1.0')).toBe(true);
    expect(isApiCompatible('1.0.3')).toBe(true);
    expect(isApiCompatible('1.1')).toBe(false);
    expect(isApiCompatible('0.9')).toBe(false);
    expect(isApiCompatible('1.2', '1.3')).toBe(true);
  });
});

describe('params', () => {
  it('returns the schema output with its defaults', () => {
    expect(parseParams(good, { quantity: '0.5', ladder: { levels: 3 } }, 'strategies.mm.params')).toEqual({ quantity: '0.5', ladder: { levels: 3, stepTicks: 10 } });
  });

  it.each([
    [{ quantity: 0.5, ladder: { levels: 3 } }, 'strategies.mm.params.quantity'],
    [{ quantity: '0.5', ladder: { levels: 0 } }, 'strategies.mm.params.ladder.levels'],
    [{ quantity: '0.5', ladder: { levels: 3, stepTiks: 5 } }, 'strategies.mm.params.ladder.stepTiks'],
    [{ quantity: '0.5' }, 'strategies.mm.params.ladder'],
  ])('names the path of the bad key in %j', (raw, path) => {
    const err = (() => { try { parseParams(good, raw, 'strategies.mm.params'); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).path).toBe(path);
    expect((err as Error).message.startsWith(`${path}: `)).toBe(true);
  });
});

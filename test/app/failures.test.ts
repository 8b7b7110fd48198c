// A failed strategy makes the run exit non-zero (unless onStrategyFailure: continue) and, with none left running, stops it; every symbol of the config must exist.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRunConfig, type RunConfigInput } from '../../src/app/config.ts';
import { startApp } from '../../src/app/run.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { keptLogger, quietVenue, ROOT } from './scenario.ts';

const FIXTURES = join(ROOT, 'test/app/fixtures');

async function start(extra: Partial<RunConfigInput>, clock?: VirtualClock) {
  const { log } = keptLogger();
  const config = parseRunConfig({ venue: 'embedded', embedded: { config: '../../../config/venue.yaml' }, reconcile: { every: '1h' }, status: { every: '1h' }, ...extra });
  return startApp({ config, baseDir: FIXTURES }, { log, venueConfig: quietVenue(), ...(clock === undefined ? {} : { clock }) });
}

describe('a strategy that fails', () => {
  it('alone: the run stops by itself and exits 1', async () => {
    const app = await start({ strategies: [{ id: 'f', use: './fails.ts', symbols: ['BTCUSDT'], params: { when: 'start' } }] });
    await app.done;
    expect(app.host.status()[0]!.state).toBe('failed');
    expect(app.exitCode()).toBe(1);
  });

  it('beside one that runs: the run goes on, stops when asked, and exits 1; with onStrategyFailure: continue it exits 0', async () => {
    for (const [policy, code] of [['stop', 1], ['continue', 0]] as const) {
      const clock = new VirtualClock(1_700_000_000_000);
      const app = await start({
        onStrategyFailure: policy,
        strategies: [
          { id: 'f', use: './fails.ts', symbols: ['BTCUSDT'], params: { when: 'timer', afterMs: 20 } },
          { id: 'ok', use: './fails.ts', symbols: ['BTCUSDT'], params: { when: 'never' } },
        ],
      }, clock);
      expect(app.host.status().map((s) => s.state)).toEqual(['running', 'running']);
      await clock.advance(50);
      expect(app.host.status().map((s) => s.state)).toEqual(['failed', 'running']);
      await app.stop('test over');
      expect(app.exitCode()).toBe(code);
    }
  }, 30_000);
});

describe('every symbol named in the config must exist', () => {
  it('a typo in risk.symbols stops the start with exit 2, naming the key and listing the valid symbols', async () => {
    const err = await start({
      strategies: [{ id: 'ok', use: './fails.ts', symbols: ['BTCUSDT'], params: { when: 'never' } }],
      risk: { symbols: { BTCUSTD: { maxPosition: '1' } } },
    }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).path).toBe('risk.symbols.BTCUSTD');
    expect((err as Error).message).toMatch(/unknown symbol BTCUSTD; the venue lists: .*BTCUSDT/);
  });

  it('so does an unknown strategy symbol', async () => {
    const err = await start({ strategies: [{ id: 'ok', use: './fails.ts', symbols: ['BTCUSDT', 'ETHBTX'], params: { when: 'never' } }] }).then(() => undefined, (e: unknown) => e);
    expect((err as ConfigError).path).toBe('strategies[0].symbols[1]');
    expect((err as Error).message).toMatch(/unknown symbol ETHBTX; the venue lists: /);
  });
});

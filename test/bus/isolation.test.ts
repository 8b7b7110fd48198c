// A subscriber that throws is isolated and logged: the bus, the other subscribers and the thrower itself keep going.
import { config as rxConfig, map } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { EventBus } from '../../src/bus/index.ts';
import type { Logger } from '../../src/core/logger.ts';
import { capturedLogger, sampleTrade } from './samples.ts';

const open: EventBus[] = [];

function newBus(logger: Logger): EventBus {
  const bus = new EventBus({ logger });
  open.push(bus);
  return bus;
}

afterEach(() => {
  for (const bus of open.splice(0)) bus.close();
});

describe('EventBus isolation of throwing subscribers', () => {
  it('keeps a throwing plain handler subscribed, serves everyone else, and logs the failure with its label', () => {
    const { logger, lines } = capturedLogger();
    const bus = newBus(logger);
    const before: string[] = [];
    const thrower: string[] = [];
    const after: string[] = [];
    bus.subscribe('trade', (e) => before.push(e.tradeId));
    bus.subscribe('trade', (e) => {
      thrower.push(e.tradeId);
      if (e.tradeId === '426635153180475392') throw new Error('strategy bug');
    }, { label: 'grid-strategy' });
    bus.subscribe('trade', (e) => after.push(e.tradeId));

    bus.publish(sampleTrade(0));
    bus.publish(sampleTrade(1));

    const both = ['426635153180475392', '426635153373413376'];
    expect(before).toEqual(both);
    expect(thrower).toEqual(both);
    expect(after).toEqual(both);
    expect(bus.stats().subscriberErrors).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, subscriber: 'grid-strategy', kind: 'trade', symbol: 'BTCUSDT', errors: 1 });
    expect((lines[0]!['err'] as { message: string }).message).toBe('strategy bug');
  });

  it('logs a handler that fails on every event at counts 1, 2, 4, 8 … rather than once per event', () => {
    const { logger, lines } = capturedLogger();
    const bus = newBus(logger);
    bus.subscribe('trade', () => {
      throw new Error('always');
    }, { label: 'broken' });
    for (let i = 0; i < 100; i++) bus.publish(sampleTrade(0));
    expect(bus.stats().subscriberErrors).toBe(100);
    expect(lines.map((l) => l['errors'])).toEqual([1, 2, 4, 8, 16, 32, 64]);
  });

  it('keeps an Rx subscriber whose next throws, serves the others, and logs through RxJS', async () => {
    const { logger, next } = capturedLogger();
    const bus = newBus(logger);
    const logged = next();
    const thrower: string[] = [];
    const other: string[] = [];
    bus.on('trade').subscribe((e) => {
      thrower.push(e.tradeId);
      if (thrower.length === 1) throw new Error('rx subscriber bug');
    });
    bus.forSymbol('trade', 'BTCUSDT').subscribe((e) => other.push(e.tradeId));

    bus.publish(sampleTrade(0));
    bus.publish(sampleTrade(1));

    expect(thrower).toEqual(['426635153180475392', '426635153373413376']);
    expect(other).toEqual(['426635153180475392', '426635153373413376']);
    const line = await logged;
    expect((line['err'] as { message: string }).message).toBe('rx subscriber bug');
  });

  it('ends only the Rx chain whose operator threw, with the error, and the bus carries on', () => {
    const bus = newBus(capturedLogger().logger);
    const errors: string[] = [];
    const chain: string[] = [];
    const other: string[] = [];
    bus.on('trade').pipe(map((e) => {
      if (e.qty === '0.01') throw new Error('bad qty');
      return e.qty;
    })).subscribe({ next: (q) => chain.push(q), error: (err: Error) => errors.push(err.message) });
    bus.on('trade').subscribe((e) => other.push(e.qty));

    bus.publish(sampleTrade(0));
    bus.publish(sampleTrade(1));

    expect(errors).toEqual(['bad qty']);
    expect(chain).toEqual([]);
    expect(other).toEqual(['0.01', '0.0012']);
    expect(bus.stats().subscribers).toBe(1);
  });

  it('installs the RxJS error hook only while a bus is open, and never replaces one the application set', () => {
    expect(rxConfig.onUnhandledError).toBeNull();
    const bus = newBus(capturedLogger().logger);
    expect(rxConfig.onUnhandledError).toBeTypeOf('function');
    bus.close();
    expect(rxConfig.onUnhandledError).toBeNull();

    const appHook = (): void => {};
    rxConfig.onUnhandledError = appHook;
    try {
      newBus(capturedLogger().logger).close();
      expect(rxConfig.onUnhandledError).toBe(appHook);
    } finally {
      rxConfig.onUnhandledError = null;
    }
  });
});

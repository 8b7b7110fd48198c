/** A run's `record:` section at work: the market capture of the run's symbols and, beside it, the orders journal fed by the gateway and the bus. */
import { resolve } from 'node:path';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { EventBus } from '../../bus/index.ts';
import type { Gateway } from '../../model/gateway.ts';
import { CAPTURE_FORMAT, markerLine } from './line-format.ts';
import { epochNanos } from './nanos.ts';
import type { RunRecordConfig } from './options.ts';
import { OrdersJournal } from './orders-journal.ts';
import { MarketRecorder } from './recorder.ts';
import { CaptureWriter } from './writer.ts';

export interface RunRecordingContext {
  /** The folder relative paths are resolved against (the config's). */
  readonly baseDir: string;
  readonly clock: Clock;
  readonly log: Logger;
  readonly rest: string;
  readonly ws: string;
  readonly bus: EventBus;
  /** The run's symbols, recorded when the section names none. */
  readonly symbols: readonly string[];
}

/** A recording in progress. */
export interface RunRecording {
  readonly market: MarketRecorder;
  readonly journal: OrdersJournal | undefined;
  /** Returns the gateway to hand the executor: `inner`, with its order calls recorded when `orders` is on. */
  gateway(inner: Gateway): Gateway;
  stop(): Promise<void>;
}

/** Starts recording the run's market (its own socket to the venue) and, when `orders` is on, follows the bus for order reports. */
export async function startRunRecording(cfg: RunRecordConfig, ctx: RunRecordingContext): Promise<RunRecording> {
  const dir = resolve(ctx.baseDir, cfg.out);
  const nanos = epochNanos(ctx.clock);
  const symbols = [...new Set(cfg.symbols ?? ctx.symbols)];
  const market = new MarketRecorder({ ...cfg, symbols, dir, restUrl: ctx.rest, wsUrl: ctx.ws, clock: ctx.clock, log: ctx.log, nanos });
  await market.start();
  let writer: CaptureWriter | undefined;
  let journal: OrdersJournal | undefined;
  if (cfg.orders) {
    // A journal that cannot start must not leave the market socket running.
    try {
      writer = ordersWriter(dir, cfg, ctx, symbols);
    } catch (err) {
      await market.stop();
      throw err;
    }
    journal = new OrdersJournal(writer, nanos);
    journal.follow(ctx.bus);
  }
  ctx.log.info({ dir, symbols, topics: cfg.topics, orders: cfg.orders }, 'recording');
  return {
    market,
    journal,
    gateway: (inner) => journal?.wrap(inner) ?? inner,
    stop: async () => {
      journal?.stop();
      writer?.close();
      await market.stop();
    },
  };
}

function ordersWriter(dir: string, cfg: RunRecordConfig, ctx: RunRecordingContext, symbols: readonly string[]): CaptureWriter {
  const session = JSON.stringify({ format: CAPTURE_FORMAT, stream: 'orders', rest: ctx.rest, symbols });
  return new CaptureWriter({
    dir, stream: 'orders', clock: ctx.clock, maxFileBytes: cfg.rotateBytes, hourly: cfg.hourly,
    header: (ns) => [markerLine(ns, 'session', session)],
    onError: (err) => ctx.log.error({ err: err.message }, 'orders journal write failed; the lines of this flush are lost'),
  });
}

// A test strategy that notes every kline it receives in globalThis.__klines (by strategy id), with the clock's time when it came.
import { defineStrategy, z, type KlineEvent } from 'bhtrade';

export type SeenKline = KlineEvent & { readonly at: number };

export default defineStrategy({
  manifest: { name: 'klines', apiVersion: '1.0', params: z.strictObject({}), streams: { depth: 'none', trades: false, klines: ['1m'] } },
  create(ctx) {
    const g = globalThis as { __klines?: Record<string, SeenKline[]> };
    const mine: SeenKline[] = [];
    (g.__klines ??= {})[ctx.id] = mine;
    return {
      onKline(k) {
        mine.push({ ...k, at: ctx.clock.now() });
      },
    };
  },
});

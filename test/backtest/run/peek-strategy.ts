// A test strategy that tries to read ahead of its time through every way a strategy has (handlers, the bus, timers, history, the clock) and notes what it finds in globalThis.__peek.
import { defineStrategy, z } from 'bhtrade';

interface Peek {
  events: number;
  timers: number;
  historyTrades: number;
  historyKlines: number;
  violations: string[];
}

const peek = (): Peek => {
  const g = globalThis as { __peek?: Peek };
  g.__peek ??= { events: 0, timers: 0, historyTrades: 0, historyKlines: 0, violations: [] };
  return g.__peek;
};

export default defineStrategy({
  manifest: { name: 'peek', apiVersion: '1.0', description: 'looks for the future', params: z.strictObject({}), streams: { trades: true, depth: 'none' } },
  create(ctx) {
    const p = peek();
    const symbol = ctx.symbols[0]!;
    let latestSeen = -Infinity;
    const check = (what: string, t: number): void => {
      if (t > ctx.clock.now()) p.violations.push(`${what} at ${t} seen at ${ctx.clock.now()}`);
    };
    const readHistory = async (): Promise<void> => {
      const now = ctx.clock.now();
      const trades = await ctx.history.trades(symbol, 1000);
      p.historyTrades += trades.length;
      for (const t of trades) if (t.time >= now) p.violations.push(`history trade at ${t.time} read at ${now}`);
      const klines = await ctx.history.klines(symbol, '1m', 5000);
      p.historyKlines += klines.length;
      for (const k of klines) if (k.openTime + 60_000 > now) p.violations.push(`history kline of ${k.openTime} (closing later) read at ${now}`);
    };
    ctx.bus.on('trade').subscribe((ev) => {
      check('bus trade recvTs', ev.recvTs);
      check('bus trade ts', ev.ts);
    });
    return {
      async start() {
        ctx.every(1_000, async () => {
          p.timers++;
          check('latest event', latestSeen);
          await readHistory();
        });
        await readHistory();
      },
      onTrade(ev) {
        p.events++;
        check('trade recvTs', ev.recvTs);
        check('trade ts', ev.ts);
        latestSeen = Math.max(latestSeen, ev.recvTs);
      },
    };
  },
});

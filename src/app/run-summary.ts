/** The per-strategy summary a run ends with, for live runs and backtests alike: the executor's orders and fills tallied as they come, PnL and positions read from the strategies' books at the end. */
import type { OrderExecutor } from '../execution/executor.ts';
import { isTerminal } from '../execution/order-state.ts';
import type { Instrument } from '../model/index.ts';
import type { StrategyStatus } from '../strategy/index.ts';
import { RunTally, type StrategySummary } from './summary.ts';
import { statusLines, type ViewSources } from './views.ts';

/** Returns a tally of the run's orders and fills, kept as the executor reports them (so it does not depend on how long finished orders are kept). */
export function tallyRun(exec: Pick<OrderExecutor, 'on'>): RunTally {
  const tally = new RunTally();
  // An order counts once it is placed; one that ends never having reached the venue (outcome not-placed) does not, as the venue's own count has no such order.
  exec.on((ev) => {
    if (ev.type === 'order' && !ev.order.adopted) {
      if (ev.from === undefined) tally.order(ev.order.strategyId);
      const ended = ev.from === 'FILLED' || ev.from === 'CANCELED' || ev.from === 'REJECTED';
      if (!ended && ev.order.outcome === 'not-placed' && isTerminal(ev.order.phase)) tally.unsent(ev.order.strategyId);
    } else if (ev.type === 'fill') tally.fill(ev.fill);
  });
  return tally;
}

/** Returns each strategy's summary now: its tallied orders and fills, and its net PnL in its accounting asset and in each asset that has no price to it. */
export function strategySummaries(
  tally: RunTally, views: ViewSources, strategies: readonly StrategyStatus[], symbolsOf: (id: string) => readonly string[], instruments: ReadonlyMap<string, Instrument>,
): StrategySummary[] {
  const lines = statusLines(views, strategies, symbolsOf);
  return tally.summary(lines.map((l) => ({ ...l, pnl: Object.fromEntries([l.pnl, ...l.otherPnl].map((p) => [p.asset, p.net])) })), instruments);
}

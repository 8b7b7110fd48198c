/**
 * Lays the bot's own resting orders over the recorded book the strategies read, as a live venue's
 * depth shows them: a strategy that tells its own quotes apart from the others' (the market maker)
 * then reads the same book in a backtest as live.
 */
import type { BusEvent, DepthSnapshotEvent, Level } from '../../model/index.ts';
import { decimalUnits } from '../../sim/engine/units.ts';
import { BacktestExchange } from '../exchange/exchange.ts';
import type { DrivenMarket } from './drive.ts';

/**
 * Returns `publish` with each traded symbol's book snapshots carrying the bot's resting orders at their
 * levels, at most `levels(symbol)` a side as the venue's depth pushes show them.
 */
export function withOwnOrders(publish: (ev: BusEvent) => void, markets: Iterable<DrivenMarket>, levels: (symbol: string) => number = () => Infinity): (ev: BusEvent) => void {
  // Only an exchange on the recorded book (L2) has a book to lay orders over; bar mode's has none.
  const bySymbol = new Map<string, L2Market>();
  for (const m of markets) if (m.exchange instanceof BacktestExchange) bySymbol.set(m.inst.symbol, { inst: m.inst, exchange: m.exchange, cap: levels(m.inst.symbol) });
  return (ev) => {
    const m = ev.kind === 'depthSnapshot' ? bySymbol.get(ev.symbol) : undefined;
    publish(m === undefined || ev.kind !== 'depthSnapshot' ? ev : overlay(ev, m));
  };
}

interface L2Market {
  readonly inst: DrivenMarket['inst'];
  readonly exchange: BacktestExchange;
  /** The most levels a side shows. */
  readonly cap: number;
}

function overlay(ev: DepthSnapshotEvent, m: L2Market): DepthSnapshotEvent {
  const own = [new Map<number, number>(), new Map<number, number>()] as const;
  for (const o of m.exchange.openOrders()) {
    // Only an order on its level is in the book (one still in flight or waiting for its trigger is not).
    if (o.ahead === undefined || o.leavesLots <= 0) continue;
    own[o.side].set(o.limitTicks, (own[o.side].get(o.limitTicks) ?? 0) + o.leavesLots);
  }
  if (own[0].size === 0 && own[1].size === 0) return ev;
  return { ...ev, bids: merge(m, ev.bids, own[0], true).slice(0, m.cap), asks: merge(m, ev.asks, own[1], false).slice(0, m.cap) };
}

/** Returns `levels` (best first) with the own lots added at their prices, new levels inserted in order. */
function merge(m: L2Market, levels: readonly Level[], own: Map<number, number>, bids: boolean): Level[] {
  if (own.size === 0) return [...levels];
  const byTicks = new Map<number, number>();
  for (const l of levels) byTicks.set(decimalUnits(l[0], m.inst.tick), decimalUnits(l[1], m.inst.step));
  for (const [p, lots] of own) byTicks.set(p, (byTicks.get(p) ?? 0) + lots);
  return [...byTicks.entries()]
    .filter(([, lots]) => lots > 0)
    .sort((a, b) => (bids ? b[0] - a[0] : a[0] - b[0]))
    .map(([p, lots]) => [m.inst.priceText(p), m.inst.qtyText(lots)] as Level);
}

/** A parity backtest's latency model made from the live run's journal and its recording: what latency.ts and refusals.ts take, read from the catalog. */
import type { LatencyModel } from '../../backtest/exchange/latency.ts';
import { simInstrumentOf } from '../../backtest/run/instruments.ts';
import type { Instrument as CatalogInstrument } from '../../data/instruments.ts';
import { replay } from '../../data/replay.ts';
import { decimalUnits } from '../../sim/engine/units.ts';
import type { Journal } from './journal.ts';
import { orderKey, ordersAfterTradesOfTheirMs, parityLatency, type PlacedOrder, type PublicTrade } from './latency.ts';
import { refusedArrivals } from './refusals.ts';
import type { Stalls } from './stalls.ts';

/** Returns the latency model's maker for `symbol` (the journal must hold at least one round trip); `stalls` are the live run's late strategy ticks. */
export async function parityLatencyOf(journal: Journal, catalog: string, symbol: string, inst: CatalogInstrument, stalls?: Stalls): Promise<() => LatencyModel> {
  // Orders that reached the venue after others' trades of their millisecond, from the recorded trades of the milliseconds orders were placed in.
  const placed: PlacedOrder[] = journal.orders.filter((x) => x.venueMs !== undefined).map((x) => ({ clientOrderId: x.clientOrderId, ms: x.venueMs!, buy: x.side.startsWith('BUY'), price: x.price }));
  const placedMs = new Set(placed.map((x) => x.ms));
  const trades: PublicTrade[] = [];
  await replay({
    catalog, symbols: [symbol], tables: ['trades'],
    sink: (ev) => {
      if (ev.kind === 'trade' && placedMs.has(ev.ts)) trades.push({ tradeId: ev.tradeId, ts: ev.ts, price: ev.price, takerSide: ev.takerSide });
    },
  });
  const afterItsMs = ordersAfterTradesOfTheirMs(placed, journal.reports, trades);
  // Refused post-only orders: when the recorded book crossed them.
  const refused = journal.orders.filter((x) => x.venueMs === undefined && x.price !== undefined && (x.type === 'LIMIT_MAKER' || x.timeInForce === 'LIMIT_MAKER'))
    .flatMap((x) => {
      const trip = journal.byOrder.get(x.clientOrderId)?.place;
      return trip === undefined ? [] : [{ clientOrderId: x.clientOrderId, buy: x.side.startsWith('BUY'), price: x.price!, request: trip.request, response: trip.response }];
    });
  const refusedAt = await refusedArrivals(catalog, symbol, refused);
  // Each live order's side, price and size, so a backtest order finds the live one it is even where the sequences drifted apart.
  const sim = simInstrumentOf(inst);
  const keys = new Map<string, string>();
  for (const x of journal.orders) {
    if (x.price !== undefined && x.quantity !== '') keys.set(x.clientOrderId, orderKey(x.side.startsWith('BUY'), decimalUnits(x.price, sim.tick), decimalUnits(x.quantity, sim.step)));
  }
  // A report made while a strategy tick was overdue reached the live bot after it, where the user stream shows that happened.
  const witnessed = stalls?.witnessedBy(journal.reports);
  const heldUntil = witnessed === undefined ? undefined : (t: number): number | undefined => witnessed.end(t);
  return () => parityLatency(journal.trips, journal.byOrder, journal.reports, afterItsMs, keys, refusedAt, heldUntil);
}

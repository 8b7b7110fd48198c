// The bot's executor, risk gate, bus and portfolio run unchanged on SimGateway on a virtual clock, with latencies: what the backtester will drive.
import { describe, expect, it } from 'vitest';
import { SimGateway } from '../../src/backtest/sim-gateway.ts';
import { EventBus } from '../../src/bus/index.ts';
import { ClientOrderIds } from '../../src/core/ids.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { Decimal } from '../../src/core/fixed.ts';
import { OrderExecutor, Portfolio, statusOf } from '../../src/execution/index.ts';
import { instrumentsOf } from '../../src/model/index.ts';
import { RiskGate } from '../../src/risk/index.ts';
import { simEngine } from '../gateway/harness.ts';

/** Advances the clock in 5 ms steps until `p` settles (a bounded number of steps); returns its value. */
async function settled<T>(clock: { advance(ms: number): Promise<void> }, p: Promise<T>): Promise<T> {
  let done = false;
  const out = p.finally(() => { done = true; });
  for (let i = 0; i < 2_000 && !done; i++) await clock.advance(5);
  return out;
}

describe('executor on SimGateway', () => {
  it('places, fills and cancels through latencies; the portfolio ends where the venue is', async () => {
    const { clock, backend } = simEngine();
    const venue = backend.venue;
    const counter = venue.accountOf(venue.user('counter'), 1);
    venue.newSpotOrder(counter, { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '30000' });
    const bus = new EventBus({ clock, logger: silentLogger() });
    const gateway = new SimGateway({
      venue, clock, user: 'demo', sink: (ev) => bus.publish(ev), seed: 2,
      latency: { request: { base: 3, meanExtra: 5 }, response: { base: 3, meanExtra: 5 }, report: { min: 1, max: 30 } },
    });
    const instruments = instrumentsOf(await settled(clock, gateway.exchangeInfo()));
    const late: { ex?: OrderExecutor } = {};
    const portfolio = new Portfolio(instruments, (orderId) => late.ex?.store.byVenueId(orderId)?.strategyId);
    const ex = new OrderExecutor({
      gateway, bus, clock, portfolio, instruments, ids: new ClientOrderIds('bh', 'bt'), reconcile: { everyMs: 0 },
      gate: new RiskGate({ instruments, config: { tradingState: 'active', rounding: 'deny' } }),
    });
    late.ex = ex;
    await settled(clock, ex.start());
    try {
      const place = (clientOrderId: string, price: string) => ex.submit({
        kind: 'placeSpot', strategyId: 's', symbol: 'BTCUSDT', clientOrderId, side: 'BUY', type: 'LIMIT', price, quantity: '0.01', timeInForce: 'GTC',
      });
      const rest = place(ex.nextClientOrderId(), '20000');
      const take = place(ex.nextClientOrderId(), '30000');
      for (let i = 0; i < 100 && !(statusOf(ex.order(take)!) === 'FILLED' && statusOf(ex.order(rest)!) === 'NEW'); i++) await clock.advance(10);
      expect(statusOf(ex.order(take)!)).toBe('FILLED');
      expect(statusOf(ex.order(rest)!)).toBe('NEW');
      ex.submit({ kind: 'cancel', strategyId: 's', symbol: 'BTCUSDT', clientOrderId: rest });
      for (let i = 0; i < 100 && statusOf(ex.order(rest)!) !== 'CANCELED'; i++) await clock.advance(10);
      expect(statusOf(ex.order(rest)!)).toBe('CANCELED');
      await settled(clock, ex.syncFills());
      const mine = Object.fromEntries(Object.entries(portfolio.view().spot).map(([a, h]) => [a, new Decimal(h.free).plus(h.locked).toFixed()]));
      const theirs = Object.fromEntries((await settled(clock, gateway.balances())).spot.map((b) => [b.asset, new Decimal(b.free).plus(b.locked).toFixed()]));
      for (const asset of ['BTC', 'USDT']) expect(mine[asset], asset).toBe(theirs[asset]);
    } finally {
      ex.stop();
      bus.close();
      gateway.close();
      backend.stop();
    }
  });
});

/** The grid against the simulated venue on a virtual clock: over a venue that goes down and comes back (the chaos run's venue kill -9), and when several levels fill at once and the stream reports them out of price order. */
import { afterEach, describe, expect, it } from 'vitest';
import { TransportError, UnknownOutcomeError } from '../../src/core/errors.ts';
import { compareDecimal, Decimal } from '../../src/core/fixed.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { depthSnapshotEvent, instrumentsOf, orderUpdateEvent, type Gateway } from '../../src/model/index.ts';
import { StrategyHost, loadStrategy } from '../../src/strategy/index.ts';
import { feedSource, makeSubmit } from '../../src/app/submit.ts';
import { strategyView } from '../../src/app/views.ts';
import { RestGateway } from '../../src/venue/index.ts';
import { startRig, until, type Rig } from '../execution/helpers.ts';

/** A gateway that, while `down`, fails as the REST client does when the venue's port refuses connections; the first order sent into the outage dies mid-request (outcome unknown). */
class OutageGateway {
  down = false;
  private midRequest = false;
  inner: Gateway | undefined;
  readonly refused: string[] = [];

  /** Returns the Gateway the executor uses. */
  gateway(): Gateway {
    const call = <K extends keyof Gateway>(name: K) => (...args: Parameters<Gateway[K]>): ReturnType<Gateway[K]> => {
      const inner = this.inner;
      if (inner === undefined) throw new Error('OutageGateway: no inner gateway yet');
      if (!this.down) return (inner[name] as (...a: Parameters<Gateway[K]>) => ReturnType<Gateway[K]>)(...args);
      this.refused.push(name);
      if (name === 'place' && !this.midRequest) {
        this.midRequest = true;
        return Promise.reject(new UnknownOutcomeError('newSpotOrder: connection lost (ECONNRESET); outcome unknown')) as ReturnType<Gateway[K]>;
      }
      return Promise.reject(new TransportError(`${name}: connection not opened (ECONNREFUSED); nothing was sent`)) as ReturnType<Gateway[K]>;
    };
    return {
      place: call('place'), cancel: call('cancel'), getOrder: call('getOrder'), openOrders: call('openOrders'), tradesSince: call('tradesSince'),
      positions: call('positions'), balances: call('balances'), exchangeInfo: call('exchangeInfo'),
    };
  }
}

/** Runs the example grid (3 levels a side, 3 ticks apart, retried every second) on the rig's executor. */
async function startGrid(x: Rig): Promise<StrategyHost> {
  const instruments = instrumentsOf(await x.gateway.exchangeInfo());
  const ex = x.ex;
  const h = new StrategyHost({
    bus: x.bus, clock: x.exClock, log: silentLogger(), instruments, runTag: 'run1', submit: makeSubmit(ex), orders: feedSource(ex),
    portfolio: (id) => strategyView({ portfolio: x.portfolio, feed: ex.feed, books: ex.books, instruments }, id, ['BTCUSDT']),
  });
  h.add({ id: 'grid', definition: await loadStrategy('strategies/grid.ts'), symbols: ['BTCUSDT'], params: { levels: 3, stepTicks: 3, retryMs: 1000 } });
  await h.start();
  return h;
}

/** Returns the grid's working orders as `SIDE price`, sorted by price. */
function ladder(x: Rig): string[] {
  return x.ex.feed.open('grid', 'BTCUSDT').map((o) => [o.price, o.side] as const).sort((a, b) => compareDecimal(a[0], b[0])).map(([p, side]) => `${side} ${new Decimal(p).toFixed(2)}`);
}

let r: Rig | undefined;
let host: StrategyHost | undefined;
afterEach(async () => {
  await host?.stop();
  host = undefined;
  await r?.close();
  r = undefined;
});

describe('grid while the venue is down, then back', () => {
  it('lays its whole ladder once the venue answers again, though every order of the first try was refused or lost', async () => {
    const outage = new OutageGateway();
    const now = { fn: (): number => 0 };
    r = await startRig({}, { gateway: outage.gateway(), reconcile: { everyMs: 30_000 } }, {
      beforeStart: async ({ rest }) => {
        outage.inner = new RestGateway(rest, () => now.fn());
      },
    });
    const x = r;
    now.fn = () => x.t.clock.now();
    const ex = x.ex;
    host = await startGrid(x);

    outage.down = true;
    x.bus.publish(depthSnapshotEvent({ symbol: 'BTCUSDT', version: '1', bids: [['20000.00', '1']], asks: [['20000.10', '1']], ts: x.t.clock.now(), recvTs: x.t.clock.now() }));
    // Ten seconds of outage: the first order's outcome is unknown, the others were never sent.
    await until(x, () => false, 10_000, 250);
    expect(outage.refused.filter((n) => n === 'place').length).toBeGreaterThanOrEqual(6);
    const venueOpen = async (): Promise<string[]> => (await outage.inner!.openOrders('spot')).filter((o) => o.clientOrderId.startsWith('grid-')).map((o) => o.price).sort();
    expect(await venueOpen()).toEqual([]);

    outage.down = false;
    const laid = await until(x, () => ex.feed.open('grid', 'BTCUSDT').length === 6, 30_000, 250);
    expect(laid).toBe(true);
    expect(await venueOpen()).toEqual(['19999.96', '19999.99', '20000.02', '20000.08', '20000.11', '20000.14'].map((p) => expect.stringMatching(new RegExp(`^${p.replace('.', '\\.')}0*$`))));
    // The order lost mid-request was settled as never placed, not resent under its id.
    const lost = ex.orders().find((o) => o.strategyId === 'grid' && o.outcome === 'not-placed' && o.reason?.includes('-2013') === true);
    expect(lost).toBeDefined();
  }, 60_000);
});

describe('grid when several levels fill at once', () => {
  it('answers each filled buy with a sell one step up and keeps all six levels, though the stream reports the fills lowest price first', async () => {
    r = await startRig();
    const x = r;
    host = await startGrid(x);
    x.bus.publish(depthSnapshotEvent({ symbol: 'BTCUSDT', version: '1', bids: [['20000.00', '1']], asks: [['20000.10', '1']], ts: x.t.clock.now(), recvTs: x.t.clock.now() }));
    const reaches = (want: readonly string[]): Promise<boolean> => until(x, () => JSON.stringify(ladder(x)) === JSON.stringify(want), 10_000, 250);
    expect(await reaches(['BUY 19999.96', 'BUY 19999.99', 'BUY 20000.02', 'SELL 20000.08', 'SELL 20000.11', 'SELL 20000.14'])).toBe(true);
    const buys = x.ex.feed.open('grid', 'BTCUSDT').filter((o) => o.side === 'BUY');
    // One sell sweeps the three buys.
    await x.counter.newSpotOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '19999.96', quantity: '0.003', timeInForce: 'GTC' });
    const trades = await x.gateway.tradesSince('spot');
    // The user stream brings their reports lowest price first (the venue filled them highest first).
    for (const b of [...buys].sort((p, q) => compareDecimal(p.price, q.price))) {
      const v = await x.gateway.getOrder({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: b.clientOrderId });
      const t = trades.find((f) => f.orderId === v.orderId)!;
      x.bus.publish(orderUpdateEvent({
        account: 'spot', symbol: v.symbol, clientOrderId: v.clientOrderId, orderId: v.orderId, status: v.status, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC',
        price: v.price, origQty: v.origQty, executedQty: v.executedQty, cumQuote: new Decimal(t.qty).mul(t.price).toFixed(), lastQty: t.qty, lastPrice: t.price,
        tradeId: t.tradeId, fee: t.fee, feeAsset: t.feeAsset, maker: t.maker === true, createdTs: v.time, closeOrder: undefined, leverage: undefined, ts: v.time, recvTs: x.t.clock.now(),
      }));
    }
    expect(await reaches(['SELL 19999.99', 'SELL 20000.02', 'SELL 20000.05', 'SELL 20000.08', 'SELL 20000.11', 'SELL 20000.14'])).toBe(true);
  }, 60_000);
});

// The backtest's Gateway over the exchange: answers after the latencies, order and balance events as the user stream gives them, the venue's refusal codes, and bounded memory.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { VenueError } from '../../../src/core/errors.ts';
import { BacktestExchange, constantLatency, riskAverse, SpotAccount } from '../../../src/backtest/index.ts';
import { ExchangeGateway, type GatewayBounds, type GatewayMarket } from '../../../src/backtest/run/exchange-gateway.ts';
import { simInstrumentOf } from '../../../src/backtest/run/instruments.ts';
import type { BusEvent, OrderReport } from '../../../src/model/index.ts';

const BTCUSDT = { symbol: 'BTCUSDT', kind: 'spot', tick: '0.01', lot: '0.0001', multiplier: '1', base: 'BTC', quote: 'USDT', margin: 'USDT', contiguousVersions: true } as const;

/** A gateway on one market with 10 ms latency each way, a recorded ask of 100 BTC at 60000.00 and a bid of 100 BTC at 59999.00. */
function setup(bounds?: GatewayBounds) {
  const clock = new VirtualClock(1_000_000);
  const inst = simInstrumentOf(BTCUSDT);
  const account = new SpotAccount({ clock, inst, balances: { USDT: '10000000' }, makerFee: '0', takerFee: '0.001' });
  const late: { gw?: ExchangeGateway } = {};
  const exchange = new BacktestExchange({ clock, inst, queue: riskAverse, latency: constantLatency(10, 10), account, onReport: (r) => late.gw?.onReport('BTCUSDT', r) });
  exchange.onRecorded({ kind: 'depth', time: clock.now(), side: 1, priceTicks: 6_000_000, lots: 1_000_000 });
  exchange.onRecorded({ kind: 'depth', time: clock.now(), side: 0, priceTicks: 5_999_900, lots: 1_000_000 });
  const market: GatewayMarket = { inst, exchange, account };
  const events: BusEvent[] = [];
  const recorded = { orders: 0, fills: 0 };
  const gw = new ExchangeGateway(clock, [market], (ev) => events.push(ev), { order: () => recorded.orders++, fill: () => recorded.fills++ }, bounds);
  late.gw = gw;
  /** Runs the clock until `p` settles (bounded). */
  const settled = async <T>(p: Promise<T>): Promise<T> => {
    let done = false;
    const out = p.finally(() => {
      done = true;
    });
    for (let i = 0; i < 100 && !done; i++) await clock.advance(5);
    return out;
  };
  return { clock, gw, events, recorded, settled, account };
}

const buy = (clientOrderId: string, price: string, quantity = '0.0010') => ({ account: 'spot' as const, symbol: 'BTCUSDT', clientOrderId, side: 'BUY' as const, type: 'LIMIT' as const, timeInForce: 'GTC' as const, price, quantity });

describe('the backtest gateway', () => {
  it('answers a taker order after both latencies, with the fill on the user stream and in tradesSince', async () => {
    const { clock, gw, events, settled } = setup();
    const t0 = clock.now();
    const ack: OrderReport = await settled(gw.place(buy('a1', '60000.00')));
    expect(clock.now() - t0).toBe(20);
    // The answer is the exchange's acknowledgement; the fill made at the same instant follows on the user stream.
    expect(ack).toMatchObject({ clientOrderId: 'a1', status: 'NEW' });
    expect(await gw.getOrder({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: 'a1' })).toMatchObject({ status: 'FILLED', executedQty: '0.001', avgPrice: '60000' });
    const orders = events.filter((e) => e.kind === 'order');
    expect(orders.map((e) => e.kind === 'order' && e.status)).toEqual(['NEW', 'FILLED']);
    expect(orders[1]).toMatchObject({ lastPrice: '60000', lastQty: '0.001', cumQuote: '60', feeAsset: 'BTC', maker: false });
    expect(events.some((e) => e.kind === 'balance' && e.asset === 'USDT' && e.free === '9999940')).toBe(true);
    const fills = await settled(gw.tradesSince('spot'));
    expect(fills).toMatchObject([{ tradeId: '1', clientOrderId: 'a1', price: '60000', qty: '0.001', fee: '0.000001', feeAsset: 'BTC', maker: false }]);
    expect(await settled(gw.tradesSince('spot', '1'))).toEqual([]);
  });

  it('stamps each balance event with the time of the account it shows: a fill made before the event is delivered is in it, and is not later than it', async () => {
    const { clock, gw, events, settled } = setup();
    // t2 fills at the exchange 5 ms after t1, before t1's report (and its balances) reach the bot.
    const a = gw.place(buy('t1', '60000.00'));
    await clock.advance(5);
    const b = gw.place(buy('t2', '60000.00'));
    await settled(Promise.all([a, b]));
    await clock.advance(50);
    const filled = events.filter((e) => e.kind === 'order' && e.status === 'FILLED');
    expect(filled).toHaveLength(2);
    const usdt = events.filter((e) => e.kind === 'balance' && e.asset === 'USDT');
    expect(usdt.length).toBeGreaterThan(0);
    for (const ev of usdt) {
      if (ev.kind !== 'balance') continue;
      // The fills a balance event holds are those stamped no later than it (the bot adds the later ones to it): 60 USDT each, the fee in BTC.
      const held = filled.filter((f) => f.ts <= ev.ts).length;
      expect(ev.free, `balance at ${ev.ts}`).toBe(String(10_000_000 - 60 * held));
    }
  });

  it('refuses as the venue does: a price off the tick before sending, an unknown order\'s cancel, a cancel of a filled order', async () => {
    const { gw, settled } = setup();
    await expect(gw.place(buy('b1', '60000.001'))).rejects.toMatchObject({ venueCode: -1134 });
    await expect(gw.cancel({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: 'nope' })).rejects.toMatchObject({ venueCode: -2013 });
    await settled(gw.place(buy('b2', '60000.00')));
    const refused = await settled(gw.cancel({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: 'b2' }).catch((e: unknown) => e));
    expect(refused).toBeInstanceOf(VenueError);
    expect((refused as VenueError).venueCode).toBe(-1139);
  });

  it('rests a bid, lists it open, and cancels it: the funds come back', async () => {
    const { gw, settled, account } = setup();
    await settled(gw.place(buy('c1', '59000.00')));
    expect((await gw.openOrders('spot')).map((o) => o.clientOrderId)).toEqual(['c1']);
    expect(account.balance('USDT').locked).toBeGreaterThan(0n);
    const r = await settled(gw.cancel({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: 'c1' }));
    expect(r.status).toBe('CANCELED');
    expect(await gw.openOrders('spot')).toEqual([]);
    expect(account.balance('USDT')).toEqual({ free: 10_000_000n * 10n ** 18n, locked: 0n });
  });

  it('remembers a bounded number of finished orders and fills, however many it made', async () => {
    const { gw, clock, recorded } = setup({ finishedOrders: 5, fills: 5 });
    const all: Promise<OrderReport>[] = [];
    for (let i = 0; i < 40; i++) all.push(gw.place(buy(`d${i}`, '60000.00', '0.0001')));
    for (let i = 0; i < 20; i++) await clock.advance(5);
    await Promise.all(all);
    expect(recorded.fills).toBe(40);
    const kept = gw.remembered();
    expect(kept.orders).toBeLessThanOrEqual(10);
    expect(kept.fills).toBeLessThanOrEqual(10);
  });
});

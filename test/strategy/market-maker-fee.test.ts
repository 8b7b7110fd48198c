// The market maker quotes each side at least the venue's maker fee away from the mid, read from the fee rates of the config it runs on.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { Decimal } from '../../src/core/fixed.ts';
import { EventBus } from '../../src/bus/index.ts';
import { StrategyHost, type StrategyIntent } from '../../src/strategy/index.ts';
import marketMaker from '../../strategies/market-maker.ts';
import { feeHalfSpreadTicks } from '../../strategies/market-maker/quotes.ts';
import { capturedLogger, sampleBook } from '../bus/samples.ts';
import { EMPTY_PORTFOLIO, instruments, PushedOrders } from './helpers.ts';

/** Runs the maker on one published book with `maker` as the venue's maker fee; returns the bid and ask it placed. */
async function quotes(maker: string | undefined): Promise<{ bid: Decimal; ask: Decimal; mid: Decimal }> {
  const clock = new VirtualClock(1_700_000_000_000);
  const { logger } = capturedLogger();
  const bus = new EventBus({ logger, clock });
  const sent: StrategyIntent[] = [];
  const host = new StrategyHost({
    bus, clock, log: logger, instruments: instruments(), runTag: 'r1', portfolio: () => EMPTY_PORTFOLIO, orders: new PushedOrders(),
    submit: (i) => { sent.push(i); return { ok: true }; },
    fees: () => (maker === undefined ? undefined : { maker, taker: maker }),
  });
  host.add({ id: 'mm', symbols: ['BTCUSDT'], params: { spreadTicks: 2, refreshMs: 100, quantity: '0.01' }, definition: marketMaker });
  await host.start();
  const book = sampleBook('BTCUSDT');
  bus.publish(book);
  await clock.advance(150);
  await host.stop();
  const price = (side: string): Decimal => {
    const i = sent.find((x) => x.kind === 'placeSpot' && x.side === side);
    if (i?.kind !== 'placeSpot' || i.price === undefined) throw new Error(`no ${side} quote among ${JSON.stringify(sent)}`);
    return new Decimal(i.price);
  };
  const mid = new Decimal(book.bids[0]![0]).plus(book.asks[0]![0]).div(2);
  return { bid: price('BUY'), ask: price('SELL'), mid };
}

describe('market maker and the venue\'s maker fee', () => {
  it('quotes each side at least the maker fee of the mid away from it', async () => {
    for (const fee of ['0.001', '0.0002']) {
      const { bid, ask, mid } = await quotes(fee);
      expect(mid.minus(bid).gte(mid.mul(fee)), `bid ${bid.toFixed()} mid ${mid.toFixed()} fee ${fee}`).toBe(true);
      expect(ask.minus(mid).gte(mid.mul(fee)), `ask ${ask.toFixed()} mid ${mid.toFixed()} fee ${fee}`).toBe(true);
    }
  });

  it('without a known fee keeps its configured spread', async () => {
    const { bid, ask } = await quotes(undefined);
    expect(ask.minus(bid).lte('0.05')).toBe(true);
  });

  it('rounds the fee distance up to whole ticks', () => {
    expect(feeHalfSpreadTicks(3_000_000, '0.001')).toBe(3_000);
    expect(feeHalfSpreadTicks(1_136_950, '0.001')).toBe(1_137);
    expect(feeHalfSpreadTicks(1_136_950, '0')).toBe(0);
    expect(feeHalfSpreadTicks(undefined, '0.001')).toBe(0);
  });
});

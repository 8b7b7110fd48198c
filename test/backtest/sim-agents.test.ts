// SimGateway against the shipped venue's seeded agents on a virtual clock: each contract's orders fill near its own index, reports come in forward order, and the portfolio values the positions as the venue's position endpoint does.
import { describe, expect, it } from 'vitest';
import { SimGateway } from '../../src/backtest/sim-gateway.ts';
import { Decimal, formatDown } from '../../src/core/fixed.ts';
import { Portfolio } from '../../src/execution/portfolio/portfolio.ts';
import { instrumentsOf, type BusEvent, type OrderUpdateEvent } from '../../src/model/index.ts';
import { statusRank } from '../../src/venue/report-sequencer.ts';
import { simEngine } from '../gateway/harness.ts';

describe('SimGateway on the seeded market', () => {
  it('fills each contract near its own index and values the positions at the venue\'s mark', async () => {
    const { clock, backend } = simEngine({ agents: true });
    const venue = backend.venue;
    const reports: BusEvent[] = [];
    const gateway = new SimGateway({ venue, clock, user: 'demo', sink: (ev) => reports.push(ev), latency: { report: { base: 2, meanExtra: 20 } }, seed: 9 });
    try {
      const instruments = instrumentsOf(await gateway.exchangeInfo());
      await clock.advance(60_000);
      for (const symbol of ['BTC-PERP-REV', 'BTC-SWAP-USDT']) {
        const inst = instruments.get(symbol)!;
        const index = new Decimal(venue.indexPrices().index['BTCUSDT']!);
        // A marketable IOC half a percent through the index: it takes whatever the agents quote inside it.
        const price = formatDown(index.mul('1.005'), inst.pricePrecision);
        const r = await gateway.place({ account: 'contract', symbol, clientOrderId: `b-${symbol}`, side: 'BUY_OPEN', orderType: 'LIMIT', priceType: 'INPUT', quantity: '30', price, leverage: '10', timeInForce: 'IOC' });
        expect(new Decimal(r.executedQty).toNumber(), `${symbol} filled`).toBeGreaterThan(0);
        expect(new Decimal(r.avgPrice).div(index).minus(1).abs().toNumber(), `${symbol} fill vs index ${index.toFixed()}`).toBeLessThan(0.01);
      }
      await clock.advance(30_000);
      const fills = await gateway.tradesSince('contract');
      const positions = await gateway.positions();
      const portfolio = new Portfolio(instruments);
      portfolio.applyFills(fills);
      for (const symbol of ['BTC-PERP-REV', 'BTC-SWAP-USDT']) {
        const inst = instruments.get(symbol)!;
        const mark = venue.markPrice(symbol);
        portfolio.setPrice(symbol, { mark });
        const p = positions.find((x) => x.symbol === symbol && x.side === 'LONG')!;
        const mine = portfolio.view().positions.find((x) => x.symbol === symbol && x.side === 'LONG')!;
        expect(mine.qty).toBe(p.position);
        expect(formatDown(new Decimal(mine.value!), inst.marginPrecision!), `${symbol} position value`).toBe(p.positionValue);
        expect(formatDown(new Decimal(mine.unrealizedPnl!), inst.marginPrecision!), `${symbol} unrealized PnL`).toBe(p.unrealizedPnL);
      }
      const mine = reports.filter((r): r is OrderUpdateEvent => r.kind === 'order');
      for (const id of ['b-BTC-PERP-REV', 'b-BTC-SWAP-USDT']) {
        const ranks = mine.filter((r) => r.clientOrderId === id).map((r) => statusRank(r.status));
        expect(ranks.length, id).toBeGreaterThan(1);
        expect([...ranks].sort((a, b) => a - b), id).toEqual(ranks);
        expect(ranks.at(-1), `${id} ends`).toBe(3);
      }
    } finally {
      gateway.close();
      backend.stop();
    }
  });
});

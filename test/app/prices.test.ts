// The portfolio's spot mid follows the published books' tops exactly (half a tick is kept: the sum of an odd number of ticks halves to one more decimal), and only a book whose top moved sets it again.
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/bus/index.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { Portfolio } from '../../src/execution/portfolio/portfolio.ts';
import { followPrices } from '../../src/app/prices.ts';
import { depthSnapshotEvent } from '../../src/model/index.ts';
import { sampleBook } from '../bus/samples.ts';
import { instruments } from '../strategy/helpers.ts';

describe('followPrices', () => {
  it('sets the exact mid of each new top', async () => {
    const inst = instruments();
    const bus = new EventBus({ freeze: false, logger: silentLogger() });
    const portfolio = new Portfolio(inst);
    followPrices(bus, portfolio, inst);
    const book = (bid: string, ask: string, ts: number) => depthSnapshotEvent({ symbol: 'BTCUSDT', version: String(ts), ts, recvTs: ts, bids: [[bid, '1']], asks: [[ask, '1']] });
    const settled = (): Promise<void> => new Promise((r) => setImmediate(r));
    // The sample's top: 11371.49 / 11375.41, an even number of ticks apart.
    bus.publish(sampleBook());
    await settled();
    expect(portfolio.price('BTCUSDT')?.mid).toBe('11373.45');
    bus.publish(book('11371.49', '11371.50', 2));
    await settled();
    expect(portfolio.price('BTCUSDT')?.mid).toBe('11371.495');
    bus.publish(book('11371', '11373.0', 3));
    await settled();
    expect(portfolio.price('BTCUSDT')?.mid).toBe('11372');
    // A crossed book is no market: the mid stays.
    bus.publish(book('11380', '11379', 4));
    await settled();
    expect(portfolio.price('BTCUSDT')?.mid).toBe('11372');
    bus.close();
  });
});

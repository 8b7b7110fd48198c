// Events are immutable: readonly in the types, and deep-frozen by the bus outside production so a mutating subscriber fails loudly.
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/bus/index.ts';
import {
  EVENT_KINDS, connectionStateEvent, depthBatchEvent, fundingEvent, indexEvent, klineEvent, reconnectedEvent, symbolOf, tickerEvent, tradeEvent,
  type BusEvent, type TradeEvent,
} from '../../src/model/events.ts';
import {
  capturedLogger, sampleBalance, sampleBook, sampleContractReport, sampleDiff, samplePosition, sampleSpotReport, sampleTrade,
} from './samples.ts';

/** One event of every kind, with the published sample values where a sample exists. */
function oneOfEach(): BusEvent[] {
  return [
    sampleBook(), sampleDiff(),
    // The same diff's first bid and ask as a replay's batch (tick 0.01, lot 0.0001).
    depthBatchEvent({
      symbol: 'BTCUSDT', version: '115277986_18', snapshot: false, tick: '0.01', lot: '0.0001', side: Int32Array.of(1, 2),
      price: Float64Array.of(1131678, 1131896), qty: Float64Array.of(780, 41), ts: 1565687625534, recvTs: 1565687625540,
    }),
    sampleTrade(0),
    klineEvent({ symbol: 'BTCUSDT', interval: '15m', openTime: 1565595900000, open: '11381.89', high: '11437', low: '11381.89', close: '11436.14', volume: '16.3306', closed: false, ts: 1565595900000, recvTs: 1565595900010 }),
    tickerEvent({ symbol: 'ETHUSDT', last: '212.63', open: '210.23', high: '216.96', low: '206.78', volume: '73013.575', quoteVolume: '15726612.498168', ts: 1565592599015, recvTs: 1565592599020 }),
    indexEvent({ symbol: 'HTUSDT', index: '5.0941', edp: '5.08799333', ts: 1565600000000, recvTs: 1565600000000 }),
    fundingEvent({ symbol: 'BTC-PERP-REV', rate: '-0.000048567445464006', intervalStart: 1570708800000, intervalEnd: 1570737600000, ts: 1570708800000, recvTs: 1570708800050 }),
    sampleSpotReport(), samplePosition(), sampleBalance(),
    connectionStateEvent({ connection: 'market', state: 'open', reason: '', ts: 3, recvTs: 3 }),
    reconnectedEvent({ connection: 'market', downSince: 3, attempt: 2, ts: 4, recvTs: 4 }),
  ];
}

describe('event immutability', () => {
  it('deep-freezes published events outside production, so a mutating subscriber throws and others see the original', () => {
    const { logger, lines } = capturedLogger();
    const bus = new EventBus({ logger });
    const bests: string[] = [];
    bus.subscribe('depthSnapshot', (e) => {
      (e.bids[0] as unknown as string[])[0] = '1';
    }, { label: 'mutates-level' });
    bus.subscribe('depthSnapshot', (e) => {
      (e.bids as unknown as unknown[]).push(['1', '1']);
    }, { label: 'mutates-side' });
    bus.subscribe('depthSnapshot', (e) => {
      (e as unknown as { version: string }).version = 'x';
    }, { label: 'mutates-event' });
    bus.subscribe('depthSnapshot', (e) => bests.push(`${e.version} ${e.bids[0]![0]} ${e.bids.length}`));

    bus.publish(sampleBook());

    expect(bests).toEqual(['112801745_18 11371.49 10']);
    expect(lines.map((l) => l['subscriber'])).toEqual(['mutates-level', 'mutates-side', 'mutates-event']);
    for (const l of lines) expect((l['err'] as { type: string }).type).toBe('TypeError');
  });

  it('freezes every kind of event, including nested levels', () => {
    const bus = new EventBus({ logger: capturedLogger().logger });
    const seen: BusEvent[] = [];
    bus.events$.subscribe((e) => seen.push(e));
    for (const e of oneOfEach()) bus.publish(e);
    expect(seen.map((e) => e.kind)).toEqual(EVENT_KINDS);
    for (const e of seen) expect(Object.isFrozen(e)).toBe(true);
    const book = seen[0] as Extract<BusEvent, { kind: 'depthSnapshot' }>;
    expect(Object.isFrozen(book.asks)).toBe(true);
    expect(Object.isFrozen(book.asks[9])).toBe(true);
  });

  it('leaves events unfrozen when freeze is off (backtests), relying on the readonly types', () => {
    const bus = new EventBus({ logger: capturedLogger().logger, freeze: false });
    const seen: BusEvent[] = [];
    bus.events$.subscribe((e) => seen.push(e));
    bus.publish(sampleTrade(0));
    expect(Object.isFrozen(seen[0])).toBe(false);
  });

  it('rejects writes at compile time', () => {
    const t = sampleTrade(0);
    const write = (x: TradeEvent): void => {
      // @ts-expect-error events are readonly
      x.price = '1';
    };
    const book = sampleBook();
    const writeLevel = (): void => {
      // @ts-expect-error levels are readonly tuples
      book.bids[0]![1] = '0';
    };
    expect(typeof write).toBe('function');
    expect(typeof writeLevel).toBe('function');
    expect(t.price).toBe('11369');
  });
});

describe('event factories', () => {
  it('build one fixed field order per kind, whatever order the fields were given in', () => {
    const a = tradeEvent({ symbol: 'BTCUSDT', tradeId: '1', price: '11369', qty: '0.01', takerSide: 'SELL', ts: 1, recvTs: 2 });
    const b = tradeEvent({ recvTs: 2, ts: 1, takerSide: 'SELL', qty: '0.01', price: '11369', tradeId: '1', symbol: 'BTCUSDT' });
    expect(Object.keys(a)).toEqual(['kind', 'symbol', 'tradeId', 'price', 'qty', 'takerSide', 'ts', 'recvTs']);
    expect(Object.keys(b)).toEqual(Object.keys(a));
  });

  it('copy fields rather than keep the caller\'s object or extra fields', () => {
    const init = { symbol: 'BTCUSDT', tradeId: '1', price: '11369', qty: '0.01', takerSide: 'SELL' as const, ts: 1, recvTs: 2, extra: 'x' };
    const t = tradeEvent(init);
    init.price = '0';
    expect(t.price).toBe('11369');
    expect('extra' in t).toBe(false);
  });

  it('keep every sample value exactly as the venue wrote it (decimal strings, 64-bit ids)', () => {
    const r = sampleContractReport();
    expect(r).toMatchObject({ kind: 'order', orderId: '635999362524162048', cumQuote: '17679.2', closeOrder: true, leverage: '3', ts: 1590553032232 });
    expect(sampleSpotReport()).toMatchObject({ price: '0.10264410', origQty: '1.00000000', feeAsset: undefined, closeOrder: undefined });
  });

  it('name the symbol of market and order events, and none for account and connection events', () => {
    expect(oneOfEach().map(symbolOf)).toEqual([
      'BTCUSDT', 'BTCUSDT', 'BTCUSDT', 'BTCUSDT', 'BTCUSDT', 'ETHUSDT', 'HTUSDT', 'BTC-PERP-REV', 'ETHBTC', 'BTC-SWAP-USDT',
      undefined, undefined, undefined,
    ]);
  });
});

// Declared streams: a strategy receives the market events its manifest (or config entry) asks for, candles of its intervals only, and its contract's index under the index's symbol.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fundingEvent, indexEvent, klineEvent, tickerEvent, type BusEvent } from '../../src/model/index.ts';
import { defineStrategy, resolveStreams, type StreamRequest } from '../../src/strategy/index.ts';
import { sampleBook, sampleDiff, sampleTrade } from '../bus/samples.ts';
import { makeHost } from './helpers.ts';

function recorder(name: string, streams?: StreamRequest) {
  const seen: string[] = [];
  const rec = (ev: BusEvent): void => { seen.push(`${ev.kind} ${'symbol' in ev ? ev.symbol : ''}${ev.kind === 'kline' ? ` ${ev.interval}` : ''}`); };
  const definition = defineStrategy({
    manifest: { name, apiVersion: '1.0', params: z.strictObject({}), ...(streams ? { streams } : {}) },
    create: () => ({ onTrade: rec, onDepthSnapshot: rec, onDepthUpdate: rec, onKline: rec, onTicker: rec, onIndex: rec, onFunding: rec }),
  });
  return { seen, definition };
}

const kline = (symbol: string, interval: '1m' | '5m') => klineEvent({ symbol, interval, openTime: 0, open: '1', high: '1', low: '1', close: '1', volume: '1', closed: false, ts: 1, recvTs: 1 });
const ticker = (symbol: string) => tickerEvent({ symbol, last: '1', open: '1', high: '1', low: '1', volume: '1', quoteVolume: '1', ts: 1, recvTs: 1 });
const index = (symbol: string) => indexEvent({ symbol, index: '30000', edp: '30000', ts: 1, recvTs: 1 });
const funding = (symbol: string) => fundingEvent({ symbol, rate: '0.0001', intervalStart: 0, intervalEnd: 8, ts: 1, recvTs: 1 });

function publishAll(publish: (ev: BusEvent) => void): void {
  for (const s of ['BTCUSDT', 'BTC-PERP-REV']) {
    publish(sampleTrade(0, s));
    publish(sampleBook(s));
    publish({ ...sampleDiff(), symbol: s });
    publish(kline(s, '1m'));
    publish(kline(s, '5m'));
    publish(ticker(s));
    publish(funding(s));
  }
  publish(index('BTCUSDT'));
  publish(index('ETHUSDT'));
}

describe('declared streams', () => {
  it('with no declaration: book snapshots, trades, and a contract\'s index (under its index symbol), as before', async () => {
    const { host, bus } = makeHost();
    const spot = recorder('spot');
    const perp = recorder('perp');
    host.add({ id: 'spot', symbols: ['BTCUSDT'], params: {}, definition: spot.definition });
    host.add({ id: 'perp', symbols: ['BTC-PERP-REV'], params: {}, definition: perp.definition });
    await host.start();
    publishAll((ev) => bus.publish(ev));
    expect(spot.seen).toEqual(['trade BTCUSDT', 'depthSnapshot BTCUSDT']);
    expect(perp.seen).toEqual(['trade BTC-PERP-REV', 'depthSnapshot BTC-PERP-REV', 'index BTCUSDT']);
  });

  it('delivers what the manifest declares, the config entry overriding it field by field, and candles of the declared intervals only', async () => {
    const { host, bus } = makeHost();
    const all = recorder('all', { depth: 'diff', trades: false, klines: ['5m'], ticker: true, funding: true });
    host.add({ id: 'all', symbols: ['BTCUSDT', 'BTC-PERP-REV'], params: {}, definition: all.definition, streams: { klines: ['1m'], index: false } });
    await host.start();
    publishAll((ev) => bus.publish(ev));
    expect(all.seen).toEqual([
      'depthSnapshot BTCUSDT', 'depthUpdate BTCUSDT', 'kline BTCUSDT 1m', 'ticker BTCUSDT',
      'depthSnapshot BTC-PERP-REV', 'depthUpdate BTC-PERP-REV', 'kline BTC-PERP-REV 1m', 'ticker BTC-PERP-REV', 'funding BTC-PERP-REV',
    ]);
    expect(host.streams()).toEqual([{ id: 'all', symbols: ['BTCUSDT', 'BTC-PERP-REV'], streams: { depth: 'diff', trades: false, klines: ['1m'], ticker: true, index: false, funding: true } }]);
  });

  it('refuses a manifest whose streams are malformed, naming the field', () => {
    const { host } = makeHost();
    const bad = recorder('bad', { klines: ['2m'] } as never);
    expect(() => host.add({ id: 'bad', symbols: ['BTCUSDT'], params: {}, definition: bad.definition })).toThrow(/^bad: manifest\.streams\.klines\.0: /);
  });

  it('resolves defaults', () => {
    expect(resolveStreams(undefined, undefined)).toEqual({ depth: 'snapshot', trades: true, klines: [], ticker: false, index: true, funding: false });
  });
});

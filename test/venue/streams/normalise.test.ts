import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { VirtualClock } from '../../../src/core/clock.ts';
import { parseUserStreamFrame } from '../../../src/model/userstream.ts';
import { parseWireJson } from '../../../src/model/wire.ts';
import { MarketWsClient, MARKET_WS_PATH } from '../../../src/venue/market-ws.ts';
import { MAX_FRAME_BYTES } from '../../../src/venue/ws-connection.ts';
import { ReportSequencer } from '../../../src/venue/report-sequencer.ts';
import { normaliseUserEvent } from '../../../src/venue/user-normalise.ts';
import { loadSample } from '../../fixtures/samples.ts';
import { Recorder, until } from './helpers.ts';

let wss: WebSocketServer | undefined;
let client: MarketWsClient | undefined;
afterEach(async () => {
  await client?.stop();
  await new Promise<void>((r) => (wss ? wss.close(() => r()) : r()));
  wss = undefined;
  client = undefined;
});

/** A local socket that answers the first subscription with the given frames, verbatim. */
async function serving(frames: readonly string[]): Promise<string> {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: MARKET_WS_PATH });
  wss.on('connection', (ws) => ws.once('message', () => {
    for (const f of frames) ws.send(f);
  }));
  await new Promise<void>((r) => wss!.on('listening', () => r()));
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
}

describe('market pushes of the published samples as bus events', () => {
  it('trade, kline, realtimes and index become trade, kline, ticker and index events; errors and garbage are counted and skipped', async () => {
    const body = (name: string): string => loadSample(name).body;
    const url = await serving([
      body('ws-market-trade.official'),
      'not json at all',
      '{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"1","t":1,"p":"abc","q":"1","m":true}],"f":false}',
      JSON.stringify((loadSample('ws-market-errors.official').payload as unknown[])[2]),
      body('ws-market-kline.official'),
      body('ws-market-realtimes.official'),
      body('ws-market-index.official'),
    ]);
    const clock = new VirtualClock(1565600000000);
    const rec = new Recorder();
    client = new MarketWsClient({ wsUrl: url, clock, sink: rec.sink, initialTrades: true });
    client.subscribe('BTCUSDT', 'trade');
    client.subscribe('BTCUSDT', 'kline_15m');
    client.subscribe('ETHUSDT', 'realtimes');
    client.subscribe('HTUSDT', 'index');
    client.start();
    await until(clock, 'index event', () => rec.of('index').length === 1, { stepMs: 10 });
    expect(rec.of('trade')).toEqual([
      { kind: 'trade', symbol: 'BTCUSDT', tradeId: '426635153180475392', price: '11369', qty: '0.01', takerSide: 'SELL', ts: 1565594873508, recvTs: clock.now() },
      { kind: 'trade', symbol: 'BTCUSDT', tradeId: '426635153373413376', price: '11369', qty: '0.0012', takerSide: 'SELL', ts: 1565594873531, recvTs: clock.now() },
    ]);
    expect(rec.of('kline')).toEqual([{
      kind: 'kline', symbol: 'BTCUSDT', interval: '15m', openTime: 1565595900000, open: '11381.89', high: '11437', low: '11381.89',
      close: '11436.14', volume: '16.3306', closed: false, ts: 1565595900000, recvTs: clock.now(),
    }]);
    expect(rec.of('ticker')).toEqual([{
      kind: 'ticker', symbol: 'ETHUSDT', last: '212.63', open: '210.23', high: '216.96', low: '206.78', volume: '73013.575',
      quoteVolume: '15726612.498168', ts: 1565592599015, recvTs: clock.now(),
    }]);
    expect(rec.of('index')).toEqual([{ kind: 'index', symbol: 'HTUSDT', index: '5.0941', edp: '5.08799333', ts: clock.now(), recvTs: clock.now() }]);
    expect(client.stats()).toMatchObject({ malformed: 2, errorFrames: 1 });
    expect(client.state).toBe('ready');
  });
});

describe('market pushes nobody asked for', () => {
  it('are dropped and counted: a venue pushing other symbols or topics puts nothing on the bus', async () => {
    const trade = (symbol: string, id: number): string => JSON.stringify({ symbol, topic: 'trade', data: [{ v: String(id), t: 1, p: '1', q: '1', m: true }], f: false });
    const others = Array.from({ length: 500 }, (_, i) => trade(`X${i}USDT`, i + 1));
    const kline = (loadSample('ws-market-kline.official').payload as Record<string, unknown>);
    const url = await serving([
      ...others,
      JSON.stringify({ ...kline, params: { klineType: '1m' } }),
      JSON.stringify(loadSample('ws-market-realtimes.official').payload),
      trade('BTCUSDT', 7),
    ]);
    const clock = new VirtualClock(1565600000000);
    const rec = new Recorder();
    client = new MarketWsClient({ wsUrl: url, clock, sink: rec.sink, initialTrades: true });
    client.subscribe('BTCUSDT', 'trade');
    client.subscribe('BTCUSDT', 'kline_15m');
    client.start();
    await until(clock, 'the subscribed trade', () => rec.of('trade').length === 1, { stepMs: 10 });
    expect(rec.of('trade')).toEqual([expect.objectContaining({ symbol: 'BTCUSDT', tradeId: '7' })]);
    expect(rec.of('kline')).toEqual([]);
    expect(rec.of('ticker')).toEqual([]);
    expect(client.stats()).toMatchObject({ unsolicited: 502, malformed: 0 });
  });
});

describe('user-stream samples as bus events', () => {
  it('an executionReport and an account update become one order and one balance event per asset', () => {
    const report = normaliseUserEvent(parseUserStreamFrame(parseWireJson(loadSample('ws-user-execution-report.official').body))[0]!, 5);
    expect(report).toEqual([expect.objectContaining({
      kind: 'order', account: 'spot', symbol: 'ETHBTC', clientOrderId: '1000087761', orderId: '4293153', status: 'NEW', side: 'BUY',
      type: 'LIMIT', price: '0.1026441', origQty: '1', executedQty: '0', feeAsset: undefined, ts: 1499405658658, createdTs: 1499405658657, recvTs: 5,
    })]);
    const acct = normaliseUserEvent(parseUserStreamFrame(parseWireJson(loadSample('ws-user-account-update.official').body))[0]!, 6);
    expect(acct).toEqual([{ kind: 'balance', account: 'spot', asset: 'LTC', free: '17366.18538083', locked: '0', ts: 1499405658849, recvTs: 6 }]);
  });

  it('an unknown event type in an array frame is skipped, the known ones kept', () => {
    const frame = `[{"e":"somethingNew","E":"1"},${loadSample('ws-user-account-update.official').body}]`;
    const out = parseUserStreamFrame(parseWireJson(frame)).map((e) => normaliseUserEvent(e, 1));
    expect(out[0]).toEqual({ skipped: 'ignored', detail: 'somethingNew' });
    expect(out[1]).toHaveLength(1);
  });

  it('the filter passes a FILLED at once and drops the NEW it overtook, and a balance older than the one passed', () => {
    const rec = new Recorder();
    const seq = new ReportSequencer(rec.sink);
    const [newRep] = normaliseUserEvent(parseUserStreamFrame(parseWireJson(loadSample('ws-user-execution-report.official').body))[0]!, 0) as [never];
    const filled = { ...(newRep as object), status: 'FILLED', executedQty: '1', ts: 1499405658700 } as never;
    seq.push(filled);
    expect(rec.of('order').map((e) => e.status)).toEqual(['FILLED']);
    seq.push(newRep);
    seq.push(newRep);
    expect(rec.of('order').map((e) => e.status)).toEqual(['FILLED']);
    const [bal] = normaliseUserEvent(parseUserStreamFrame(parseWireJson(loadSample('ws-user-account-update.official').body))[0]!, 0) as [never];
    seq.push({ ...(bal as object), ts: 2_000 } as never);
    seq.push({ ...(bal as object), ts: 1_000 } as never);
    expect(rec.of('balance').map((e) => e.ts)).toEqual([2_000]);
    expect(seq.stats()).toMatchObject({ droppedBackwards: 3, held: 0 });
  });
});

describe('user-stream events no venue could mean', () => {
  const report = (over: Record<string, unknown>): string => JSON.stringify({ ...(JSON.parse(loadSample('ws-user-execution-report.official').body) as object), ...over });
  const account = (free: string): string => JSON.stringify({ ...(JSON.parse(loadSample('ws-user-account-update.official').body) as object), B: [{ a: 'LTC', f: free, l: '0' }] });

  it('are skipped as malformed, naming the field, and nothing reaches the filter', () => {
    const rec = new Recorder();
    const seq = new ReportSequencer(rec.sink);
    const cases: [string, string][] = [
      [report({ l: '-5' }), 'lastQty=-5'],
      [report({ z: '-0.5' }), 'cumQty=-0.5'],
      [report({ q: '1.' + '0'.repeat(40) + '1' }), 'quantity=1.'],
      [report({ Z: '1'.repeat(41) }), `cumQuote=${'1'.repeat(41)}`],
      [report({ p: '-1', n: '-0.5' }), 'price=-1'],
      [account('-17366.18538083'), 'LTC free=-17366.18538083'],
    ];
    for (const [frame, detail] of cases) {
      const out = normaliseUserEvent(parseUserStreamFrame(parseWireJson(frame))[0]!, 1);
      if (!('skipped' in out)) for (const x of out) seq.push(x);
      expect(out).toEqual({ skipped: 'malformed', detail: expect.stringContaining(detail) });
    }
    expect(rec.events).toEqual([]);
    expect(seq.stats().released).toBe(0);
    // A figure longer than any real one is refused by the frame's parser already (the client logs and skips the frame).
    expect(() => parseUserStreamFrame(parseWireJson(report({ p: '9'.repeat(5000) })))).toThrow('p: must be a decimal of at most 64 characters, got 5000');
  });

  it('keep a negative commission (a maker rebate) and figures at the longest real length', () => {
    const out = normaliseUserEvent(parseUserStreamFrame(parseWireJson(report({ n: '-0.00012', N: 'BTC', p: '12345678.12345678', Z: '9'.repeat(40), z: `0.${'1'.repeat(40)}` })))[0]!, 1);
    expect(out).toEqual([expect.objectContaining({ fee: '-0.00012', price: '12345678.12345678', cumQuote: '9'.repeat(40), executedQty: `0.${'1'.repeat(40)}` })]);
  });
});

describe('a frame longer than any push', () => {
  it('drops the link (1009) before it is buffered whole, and the client redials', async () => {
    const url = await serving(['[' + '0,'.repeat(MAX_FRAME_BYTES / 2) + '0]']);
    const clock = new VirtualClock(1565600000000);
    const rec = new Recorder();
    client = new MarketWsClient({ wsUrl: url, clock, sink: rec.sink, backoff: { initialMs: 100, maxMs: 100, seed: 1 } });
    client.subscribe('BTCUSDT', 'trade');
    client.start();
    const lost = await until(clock, 'link lost', () => rec.of('connection').find((e) => e.state === 'reconnecting'), { stepMs: 10 });
    expect(lost.reason).toMatch(/Max payload size exceeded/);
    await until(clock, 'redialled', () => client!.stats().connects >= 2, { stepMs: 10 });
    expect(client.stats()).toMatchObject({ malformed: 0 });
  });
});

// User data stream and market WebSocket messages parsed from the published samples.
import { describe, expect, it } from 'vitest';
import * as m from '../../src/model/index.ts';
import { loadSample } from '../fixtures/samples.ts';

const payload = (name: string): unknown => loadSample(name).payload;

describe('user data stream', () => {
  it('reads an executionReport with a numeric client order id as a string and N null as absent', () => {
    const [ev] = m.parseUserStreamFrame(payload('ws-user-execution-report.official'));
    expect(ev).toMatchObject({ kind: 'execution', clientOrderId: '1000087761', orderId: '4293153', side: 'BUY', status: 'NEW', price: '0.1026441', commissionAsset: undefined, eventTime: 1499405658658 });
  });

  it('reads a contract report with string times, BUY/SELL side, close flag and leverage', () => {
    const [ev] = m.parseUserStreamFrame(payload('ws-user-contract-execution-report.hbtc'));
    expect(ev).toMatchObject({ kind: 'contractExecution', eventTime: 1590553032232, orderId: '635999362524162048', side: 'SELL', status: 'FILLED', isClose: true, leverage: '3', cumQuote: '17679.2', commissionAsset: 'BUSDT' });
  });

  it('normalises each report decimal sent in another form and names the first malformed one, whichever of the seven it is', () => {
    const published = payload('ws-user-execution-report.official') as Record<string, unknown>;
    const [ev] = m.parseUserStreamFrame({ ...published, q: '1.00000000', l: '0.50', Z: '025' });
    expect(ev).toMatchObject({ quantity: '1', lastQty: '0.5', cumQuote: '25', price: '0.1026441' });
    for (const key of ['q', 'p', 'l', 'z', 'L', 'n', 'Z']) {
      expect(() => m.parseUserStreamFrame({ ...published, [key]: '1e3' })).toThrow(`frame.${key}: must be a decimal number, got "1e3"`);
      expect(() => m.parseUserStreamFrame({ ...published, [key]: 3 })).toThrow(`frame.${key}: must be a decimal string, got number 3`);
    }
    expect(() => m.parseUserStreamFrame({ ...published, p: undefined })).toThrow('frame.p: is required but missing');
  });

  it('reads a contract report whose leverage `v` is "" as one without leverage', () => {
    const published = payload('ws-user-contract-execution-report.hbtc') as Record<string, unknown>;
    const [ev] = m.parseUserStreamFrame({ ...published, v: '' });
    expect(ev).toMatchObject({ kind: 'contractExecution', isClose: true, leverage: undefined });
  });

  it('reads account and position updates', () => {
    expect(m.parseUserStreamFrame(payload('ws-user-account-update.official'))).toEqual([
      { kind: 'account', eventTime: 1499405658849, canTrade: true, canWithdraw: true, canDeposit: true, updateTime: undefined, balances: [{ asset: 'LTC', free: '17366.18538083', locked: '0' }] },
    ]);
    const [pos] = m.parseUserStreamFrame(payload('ws-user-position-update.hbtc'));
    expect(pos).toMatchObject({ kind: 'position', accountId: '448992579076322903', side: 'LONG', position: '269', margin: '59.7884', realizedPnL: '-0.0139' });
  });

  it('reads a frame that carries an array of events and passes unknown types through', () => {
    const report = payload('ws-user-execution-report.official');
    const contractAccount = { ...(payload('ws-user-account-update.official') as object), e: 'outboundContractAccountInfo' };
    const events = m.parseUserStreamFrame([report, { e: 'somethingNew', E: 1 }, contractAccount, { e: 'ticketInfo', E: '2' }]);
    expect(events.map((e) => e.kind)).toEqual(['execution', 'unknown', 'contractAccount', 'ticket']);
    expect(events[1]).toMatchObject({ kind: 'unknown', e: 'somethingNew' });
    expect(events.filter(m.isOrderReport)).toHaveLength(1);
  });

  it('reads a server ping frame', () => {
    expect(m.parseUserStreamFrame({ ping: 1535975085052 })).toEqual([{ kind: 'ping', at: 1535975085052 }]);
  });
});

describe('market WebSocket', () => {
  it('reads trade pushes with their string ids', () => {
    const msg = m.parseMarketMessage(payload('ws-market-trade.official'));
    expect(msg).toMatchObject({ kind: 'trade', symbol: 'BTCUSDT', first: false });
    if (msg.kind !== 'trade') throw new Error('not a trade push');
    expect(msg.data[0]).toEqual({ id: '426635153180475392', time: 1565594873508, price: '11369', qty: '0.01', buyerIsTaker: false });
  });

  it('reads depth and diffDepth pushes; a "0" quantity removes a level', () => {
    const depth = m.parseMarketMessage(payload('ws-market-depth.official'));
    if (depth.kind !== 'depth') throw new Error('not a depth push');
    expect(depth.first).toBe(true);
    expect(depth.data[0]).toMatchObject({ symbol: 'BTCUSDT', version: '112801745_18', time: 1565600357643 });
    expect(depth.data[0]?.bids).toHaveLength(10);
    expect(depth.data[0]?.asks[0]).toEqual(['11375.41', '0.0053']);
    const diff = m.parseMarketMessage(payload('ws-market-diff-depth.official'));
    if (diff.kind !== 'diffDepth') throw new Error('not a diffDepth push');
    expect(diff.data[0]?.bids.filter(m.isRemoval).map((l) => l[0])).toEqual(['11312.12', '11309.58']);
    expect(m.isRemoval(m.parseLevel(payload('ws-market-diff-depth-level-remove.official')))).toBe(true);
  });

  it('reads the kline interval from params.klineType or from the topic suffix', () => {
    const sample = payload('ws-market-kline.official') as Record<string, unknown>;
    expect(m.parseMarketMessage(sample)).toMatchObject({ kind: 'kline', interval: '15m', data: [{ close: '11436.14', time: 1565595900000 }] });
    expect(m.parseMarketMessage({ ...sample, topic: 'kline_1m', params: {} })).toMatchObject({ kind: 'kline', interval: '1m' });
  });

  it('reads realtimes with a string time and index pushes', () => {
    expect(m.parseMarketMessage(payload('ws-market-realtimes.official'))).toMatchObject({ kind: 'realtimes', data: [{ time: 1565592599015, quoteVolume: '15726612.498168' }] });
    expect(m.parseMarketMessage(payload('ws-market-index.official'))).toMatchObject({ kind: 'index', data: [{ symbol: 'HTUSDT', index: '5.0941', edp: '5.08799333' }] });
  });

  it('reads error frames with string codes, and heartbeats', () => {
    const frames = (payload('ws-market-errors.official') as unknown[]).map((f) => m.parseMarketMessage(f));
    expect(frames[2]).toEqual({ kind: 'error', code: '-10002', desc: 'Invalid event' });
    expect(m.parseMarketMessage(payload('ws-market-pong.official'))).toEqual({ kind: 'pong', at: 1535975085052 });
  });

  it('reads client subscription requests, splitting the symbol list', () => {
    expect(m.parseMarketRequest(payload('ws-market-subscribe-trade.official'))).toMatchObject({ kind: 'subscription', event: 'sub', topic: 'trade', symbols: ['$symbol0', '$symbol1'] });
    expect(m.parseMarketRequest({ symbol: 'BTCUSDT,ETHUSDT', topic: 'trade', event: 'sub', params: { binary: false }, id: 7 })).toMatchObject({ symbols: ['BTCUSDT', 'ETHUSDT'], id: '7' });
    expect(m.parseMarketRequest(payload('ws-market-ping.official'))).toEqual({ kind: 'ping', at: 1535975085052 });
    expect(() => m.parseMarketRequest({ symbol: 'X', topic: 'trade', event: 'subscribe' })).toThrow(/request\.event: must be one of sub, cancel, cancel_all/);
  });
});

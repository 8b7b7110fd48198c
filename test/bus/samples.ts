// Bus events carrying the values of the published payloads in spec/venue-samples.md (market WS, user data stream).
import { createLogger, type Logger } from '../../src/core/logger.ts';
import {
  balanceUpdateEvent, depthSnapshotEvent, depthUpdateEvent, orderUpdateEvent, positionUpdateEvent, tradeEvent,
  type BalanceUpdateEvent, type DepthSnapshotEvent, type DepthUpdateEvent, type OrderUpdateEvent,
  type PositionUpdateEvent, type TradeEvent,
} from '../../src/model/events.ts';
import type { Level } from '../../src/model/market.ts';

/** Trade Streams sample: BTCUSDT, two trades. */
export const TRADES = [
  { v: '426635153180475392', t: 1565594873508, p: '11369', q: '0.01', m: false },
  { v: '426635153373413376', t: 1565594873531, p: '11369', q: '0.0012', m: false },
] as const;

/** Returns a trade event of the sample trade `i` for `symbol`, received at `recvTs`. */
export function sampleTrade(i: 0 | 1, symbol = 'BTCUSDT', recvTs = TRADES[i].t + 3): TradeEvent {
  const x = TRADES[i];
  // venue-notes §3: `m` true when the buyer was the taker.
  return tradeEvent({ symbol, tradeId: x.v, price: x.p, qty: x.q, takerSide: x.m ? 'BUY' : 'SELL', ts: x.t, recvTs });
}

/** Merged Depth Stream sample (BTCUSDT, version 112801745_18), top 10 bids and asks. */
export const DEPTH_BIDS: Level[] = [
  ['11371.49', '0.0014'], ['11371.12', '0.2'], ['11369.97', '0.3523'], ['11369.96', '0.5'], ['11369.95', '0.0934'],
  ['11369.94', '1.6809'], ['11369.6', '0.0047'], ['11369.17', '0.3'], ['11369.16', '0.2'], ['11369.04', '1.3203'],
];
export const DEPTH_ASKS: Level[] = [
  ['11375.41', '0.0053'], ['11375.42', '0.0043'], ['11375.48', '0.0052'], ['11375.58', '0.0541'], ['11375.7', '0.0386'],
  ['11375.71', '2'], ['11377', '2.0691'], ['11377.01', '0.0167'], ['11377.12', '1.5'], ['11377.61', '0.3'],
];

/** Returns the sample book as a snapshot; `version` and `ts` may be overridden to make a sequence of books. */
export function sampleBook(symbol = 'BTCUSDT', version = '112801745_18', ts = 1565600357643): DepthSnapshotEvent {
  return depthSnapshotEvent({
    symbol, version, ts, recvTs: ts + 2,
    bids: DEPTH_BIDS.map((l) => [l[0], l[1]] as const),
    asks: DEPTH_ASKS.map((l) => [l[0], l[1]] as const),
  });
}

/** Diff. Depth Stream sample (BTCUSDT, version 115277986_18). */
export function sampleDiff(): DepthUpdateEvent {
  return depthUpdateEvent({
    symbol: 'BTCUSDT', version: '115277986_18', ts: 1565687625534, recvTs: 1565687625540,
    bids: [['11316.78', '0.078'], ['11313.16', '0.0052'], ['11312.12', '0'], ['11309.75', '0.0067'], ['11309.58', '0'], ['11306.14', '0.0073']],
    asks: [['11318.96', '0.0041'], ['11318.99', '0.0017'], ['11319.12', '0.0017'], ['11319.22', '0.4516'], ['11319.23', '0.0934'], ['11319.24', '3.0665']],
  });
}

/** The spot executionReport sample (ETHBTC, NEW). */
export function sampleSpotReport(): OrderUpdateEvent {
  return orderUpdateEvent({
    account: 'spot', symbol: 'ETHBTC', clientOrderId: '1000087761', orderId: '4293153', status: 'NEW', side: 'BUY',
    type: 'LIMIT', timeInForce: 'GTC', price: '0.10264410', origQty: '1.00000000', executedQty: '0.00000000',
    cumQuote: '0.00000000', lastQty: '0.00000000', lastPrice: '0.00000000', tradeId: undefined, fee: '0', feeAsset: undefined, maker: false,
    createdTs: 1499405658657, closeOrder: undefined, leverage: undefined, ts: 1499405658658, recvTs: 1499405658700,
  });
}

/** The contractExecutionReport sample (BTC-PERP-BUSDT, FILLED close order). */
export function sampleContractReport(): OrderUpdateEvent {
  return orderUpdateEvent({
    account: 'contract', symbol: 'BTC-PERP-BUSDT', clientOrderId: 'abc123456', orderId: '635999362524162048', status: 'FILLED',
    side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', price: '8839.6', origQty: '2', executedQty: '2', cumQuote: '17679.2',
    lastQty: '2', lastPrice: '8839.6', tradeId: undefined, fee: '0', feeAsset: 'BUSDT', maker: false, createdTs: 1590553032163,
    closeOrder: true, leverage: '3', ts: 1590553032232, recvTs: 1590553032250,
  });
}

/** The outboundContractPositionInfo sample (BTC-SWAP-USDT LONG 269); it carries no event time, so ts is the receive time. */
export function samplePosition(): PositionUpdateEvent {
  return positionUpdateEvent({
    symbol: 'BTC-SWAP-USDT', accountId: '448992579076322903', side: 'LONG', avgPrice: '9851.5', position: '269',
    available: '269', liquidationPrice: '7705.9', margin: '59.7884', realizedPnl: '-0.0139', ts: 1590553040000, recvTs: 1590553040000,
  });
}

/** The outboundAccountInfo sample's one balance (LTC). */
export function sampleBalance(): BalanceUpdateEvent {
  return balanceUpdateEvent({ account: 'spot', asset: 'LTC', free: '17366.18538083', locked: '0.00000000', ts: 1499405658849, recvTs: 1499405658900 });
}

/** A logger whose JSON lines are collected in `lines`; `next()` resolves with the next line written. */
export function capturedLogger(): { logger: Logger; lines: Record<string, unknown>[]; next: () => Promise<Record<string, unknown>> } {
  const lines: Record<string, unknown>[] = [];
  const waiters: ((l: Record<string, unknown>) => void)[] = [];
  const dest = {
    write(s: string): void {
      const line = JSON.parse(s) as Record<string, unknown>;
      lines.push(line);
      waiters.shift()?.(line);
    },
  };
  const logger = createLogger({ destination: dest, level: 'debug' });
  return { logger, lines, next: () => new Promise((r) => waiters.push(r)) };
}

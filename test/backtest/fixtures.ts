/** Shared material for backtest tests: instruments from the published brokerInfo samples and an exchange harness on a VirtualClock. */
import { VirtualClock } from '../../src/core/clock.ts';
import { parseBrokerInfo } from '../../src/model/index.ts';
import { SimInstrument } from '../../src/sim/engine/instruments.ts';
import type { ExchangeAccount } from '../../src/backtest/exchange/account.ts';
import { BacktestExchange } from '../../src/backtest/exchange/exchange.ts';
import { constantLatency, type LatencyModel } from '../../src/backtest/exchange/latency.ts';
import { riskAverse, type QueueModel } from '../../src/backtest/exchange/queue.ts';
import type { ExecutionReport, OrderRequest, RecordedEvent } from '../../src/backtest/exchange/types.ts';
import { loadSample } from '../fixtures/samples.ts';

/**
 * Returns a contract of a published brokerInfo sample as the simulated venue trades it: by default
 * BTC-PERP-REV of the official sample (inverse, tick 0.01, step 1); BTC-PERP-BUSDT of the 2020
 * capture is linear (multiplier 0.0001, tick 0.1, BUSDT margin).
 */
export function contractInstrument(symbol = 'BTC-PERP-REV', sample = 'contract-broker-info.official'): SimInstrument {
  const c = parseBrokerInfo(loadSample(sample).payload).contracts.find((x) => x.symbol === symbol);
  if (!c) throw new Error(`no ${symbol} in the sample`);
  return new SimInstrument({ contract: c });
}

/** Returns a spot symbol of the 2024 brokerInfo capture (ETHUSDT: tick 0.01, step 0.0001, minQty 0.001, minNotional 10). */
export function spotInstrument(symbol = 'ETHUSDT'): SimInstrument {
  const s = parseBrokerInfo(loadSample('broker-info.capture-2024').payload).symbols.find((x) => x.symbol === symbol);
  if (!s) throw new Error(`no ${symbol} in the sample`);
  return new SimInstrument({ spot: s });
}

/** An exchange on a VirtualClock at t = 0 that collects its reports; `at` feeds a recorded event at its exchange time. */
export function harness(opts: { queue?: QueueModel; latency?: LatencyModel; account?: ExchangeAccount; inst?: SimInstrument; clock?: VirtualClock; markFromMid?: boolean } = {}) {
  const clock = opts.clock ?? new VirtualClock(0);
  const reports: ExecutionReport[] = [];
  const ex = new BacktestExchange({
    clock,
    inst: opts.inst ?? contractInstrument(),
    queue: opts.queue ?? riskAverse,
    latency: opts.latency ?? constantLatency(0, 0),
    onReport: (r) => reports.push(r),
    ...(opts.account ? { account: opts.account } : {}),
    ...(opts.markFromMid ? { markFromMid: true } : {}),
  });
  const at = (ev: RecordedEvent): void => {
    clock.advanceToSync(ev.time);
    ex.onRecorded(ev);
    // Reports with no response latency reach the strategy at this same time.
    clock.advanceToSync(ev.time);
  };
  const fills = (): ExecutionReport[] => reports.filter((r) => r.execType === 'TRADE');
  return { clock, ex, reports, at, fills };
}

/** Returns a contract LIMIT order (GTC, leverage 10), fields overridable. */
export function limit(clientOrderId: string, side: OrderRequest['side'], priceTicks: number, lots: number, over: Partial<OrderRequest> = {}): OrderRequest {
  return { clientOrderId, side, type: 'LIMIT', timeInForce: 'GTC', priceTicks, lots, leverage: '10', ...over };
}

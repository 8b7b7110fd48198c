// Shared parts of the strategy tests: instruments from the published brokerInfo capture, a bus on a virtual clock, and a host whose intents are recorded.
import { VirtualClock } from '../../src/core/clock.ts';
import { EventBus } from '../../src/bus/index.ts';
import { instrumentsOf, parseBrokerInfo, type Instrument } from '../../src/model/index.ts';
import { StrategyHost, type PortfolioView, type StrategyIntent, type SubmitResult } from '../../src/strategy/index.ts';
import { loadSample } from '../fixtures/samples.ts';
import { capturedLogger } from '../bus/samples.ts';

/** BTCUSDT, BTC-PERP-REV, BTC-SWAP and BTC-PERP-BUSDT as the 2020 brokerInfo capture describes them. */
export function instruments(): ReadonlyMap<string, Instrument> {
  return instrumentsOf(parseBrokerInfo(loadSample('broker-info.capture-2020').payload));
}

/** An empty account: what a strategy sees before anything is known. */
export const EMPTY_PORTFOLIO: PortfolioView = {
  balance: () => ({ free: '0', locked: '0' }),
  positions: () => [],
  openOrders: () => [],
  pnl: () => ({ realized: '0', unrealized: '0' }),
};

/** Returns a host on a fresh bus and virtual clock; `answer` decides each intent (default: accepted) and every intent is kept in `sent`. */
export function makeHost(answer: (i: StrategyIntent) => SubmitResult = () => ({ ok: true })) {
  const clock = new VirtualClock(1_700_000_000_000);
  const captured = capturedLogger();
  const bus = new EventBus({ logger: captured.logger, clock });
  const sent: StrategyIntent[] = [];
  const host = new StrategyHost({
    bus, clock, log: captured.logger, instruments: instruments(), runTag: 'r1',
    submit: (i) => {
      sent.push(i);
      return answer(i);
    },
    portfolio: () => EMPTY_PORTFOLIO,
  });
  return { host, bus, clock, sent, lines: captured.lines };
}

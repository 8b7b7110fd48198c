// Shared parts of the strategy tests: instruments from the published brokerInfo capture, a bus on a virtual clock, and a host whose intents are recorded.
import { VirtualClock } from '../../src/core/clock.ts';
import { EventBus } from '../../src/bus/index.ts';
import { instrumentsOf, parseBrokerInfo, type Instrument, type OrderFill, type OrderView } from '../../src/model/index.ts';
import { StrategyHost, type OrderSource, type PortfolioView, type StrategyIntent, type SubmitResult } from '../../src/strategy/index.ts';
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
  book: (symbol) => ({ symbol, net: '0', sides: [], asset: 'USDT', realizedGross: '0', fees: '0', funding: '0', realized: '0', unrealized: undefined }),
  openOrders: () => [],
  pnl: () => ({ asset: 'USDT', realizedGross: '0', fees: '0', funding: '0', realized: '0', unrealized: '0', net: '0', unconverted: [] }),
};

/** An order feed a test drives: every view and fill pushed goes to every follower (the host keeps each strategy's own). */
export class PushedOrders implements OrderSource {
  private readonly followers = new Set<{ order(v: OrderView): void; fill(f: OrderFill): void }>();
  readonly views = new Map<string, OrderView>();

  follow(l: { order(v: OrderView): void; fill(f: OrderFill): void }): () => void {
    this.followers.add(l);
    return () => this.followers.delete(l);
  }

  get(id: string): OrderView | undefined {
    return this.views.get(id);
  }

  open(strategyId: string): readonly OrderView[] {
    return [...this.views.values()].filter((v) => v.strategyId === strategyId && (v.status === 'NEW' || v.status === 'PARTIALLY_FILLED'));
  }

  push(v: OrderView): void {
    this.views.set(v.clientOrderId, v);
    for (const l of this.followers) l.order(v);
  }

  pushFill(f: OrderFill): void {
    for (const l of this.followers) l.fill(f);
  }
}

/** Returns an order view of `clientOrderId` (strategy = its prefix) with `over` laid on it. */
export function viewOf(clientOrderId: string, over: Partial<OrderView> = {}): OrderView {
  return {
    clientOrderId, orderId: '1', strategyId: clientOrderId.split('-')[0]!, account: 'spot', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '11369',
    origQty: '0.01', status: 'NEW', cancelPending: false, executedQty: '0', cumQuote: '0', avgPrice: '0', fees: {}, outcome: 'placed', reason: undefined,
    lastFill: undefined, ts: 0, ...over,
  };
}

/** Returns a host on a fresh bus and virtual clock; `answer` decides each intent (default: accepted) and every intent is kept in `sent`. */
export function makeHost(answer: (i: StrategyIntent) => SubmitResult = () => ({ ok: true }), orders = new PushedOrders()) {
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
    orders,
  });
  return { host, bus, clock, sent, orders, lines: captured.lines };
}

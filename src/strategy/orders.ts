/** A strategy's order API: stamps each request with the strategy id and a fresh clientOrderId, hands it to the injected submit function, and returns the id at once. */
import { BhError } from '../core/errors.ts';
import type { ClientOrderIds } from '../core/ids.ts';
import { isContractSide, isSpotSide, type Instrument } from '../model/index.ts';
import type {
  CloseRequest, ContractOrderRequest, DenialNotice, OrderApi, OrderRequest, PlaceOf, SpotOrderRequest, StrategyIntent, SubmitIntent,
} from './types.ts';

export interface OrderApiDeps {
  readonly strategyId: string;
  readonly ids: ClientOrderIds;
  readonly instrument: (symbol: string) => Instrument;
  readonly submit: SubmitIntent;
  /** Called (on a microtask, never inside the strategy's own call) when the gate denies an intent. */
  readonly denied: (notice: DenialNotice) => void;
  /**
   * Where the strategy stands: while it runs, new orders pass; while it winds down after its stop
   * (its orders' events still reach it), each new order is refused through onDenied with
   * STRATEGY_STOPPED, so a strategy that answers a fill with an order does not fail at the stop;
   * once it has ended, a new order throws. Cancels always pass.
   */
  readonly phase: () => 'running' | 'stopping' | 'ended';
  /** Reads the strategy's own orders. */
  readonly lookup: Pick<OrderApi, 'get' | 'open'>;
}

/** Returns the order API of one strategy. */
export function createOrderApi(d: OrderApiDeps): OrderApi {
  const deny = (intent: StrategyIntent, code: string, text: string): void => {
    const id = intent.kind === 'replace' ? intent.order.clientOrderId : intent.kind === 'cancelAll' ? undefined : intent.clientOrderId;
    const notice: DenialNotice = id === undefined ? { intent, code, text } : { intent, code, text, clientOrderId: id };
    queueMicrotask(() => d.denied(notice));
  };
  const send = (intent: StrategyIntent): void => {
    const r = d.submit(intent);
    if (!r.ok) deny(intent, r.code, r.text);
  };
  /** Sends a new order while the strategy runs, refuses it while it winds down; throws once it has ended. */
  const sendNew = (intent: StrategyIntent, what: string): void => {
    const phase = d.phase();
    if (phase === 'ended') throw new BhError('STRATEGY_STOPPED', `${d.strategyId}: ${what} after the strategy stopped`, 'denied', { context: { strategyId: d.strategyId } });
    if (phase === 'stopping') deny(intent, 'STRATEGY_STOPPED', `STRATEGY_STOPPED: strategy=${d.strategyId} call=${what}`);
    else send(intent);
  };
  const placeIntent = (req: OrderRequest, clientOrderId: string): PlaceOf<StrategyIntent> => {
    const inst = d.instrument(req.symbol);
    if (inst.kind === 'spot') {
      if (!isSpotSide(req.side)) throw badSide(req.symbol, req.side, 'BUY or SELL');
      const r = req as SpotOrderRequest;
      return {
        kind: 'placeSpot', strategyId: d.strategyId, clientOrderId, symbol: r.symbol, side: r.side, type: r.type ?? 'LIMIT',
        price: r.price, quantity: r.quantity, timeInForce: r.timeInForce,
      };
    }
    if (!isContractSide(req.side)) throw badSide(req.symbol, req.side, 'BUY_OPEN, SELL_OPEN, BUY_CLOSE or SELL_CLOSE');
    const r = req as ContractOrderRequest;
    return {
      kind: 'placeContract', strategyId: d.strategyId, clientOrderId, symbol: r.symbol, side: r.side, orderType: r.orderType ?? 'LIMIT',
      priceType: r.priceType ?? (r.price === undefined ? 'MARKET' : 'INPUT'), price: r.price, triggerPrice: r.triggerPrice,
      quantity: r.quantity, leverage: r.leverage, timeInForce: r.timeInForce,
    };
  };
  return {
    place(req) {
      const id = d.ids.take();
      sendNew(placeIntent(req, id), 'place');
      return id;
    },
    cancel(symbol, clientOrderId) {
      send({ kind: 'cancel', strategyId: d.strategyId, symbol, clientOrderId });
    },
    replace(replaces, req) {
      const id = d.ids.take();
      sendNew({ kind: 'replace', strategyId: d.strategyId, symbol: req.symbol, replaces, order: placeIntent(req, id) }, 'replace');
      return id;
    },
    cancelAll(symbol) {
      send(symbol === undefined ? { kind: 'cancelAll', strategyId: d.strategyId } : { kind: 'cancelAll', strategyId: d.strategyId, symbol });
    },
    closePosition(req: CloseRequest) {
      d.instrument(req.symbol);
      const id = d.ids.take();
      sendNew({ kind: 'closePosition', strategyId: d.strategyId, clientOrderId: id, symbol: req.symbol, side: req.side, quantity: req.quantity, price: req.price }, 'closePosition');
      return id;
    },
    get: (id) => d.lookup.get(id),
    open: (symbol) => d.lookup.open(symbol),
  };
}

function badSide(symbol: string, side: string, want: string): BhError {
  return new BhError('ORDER_SIDE', `side ${side} does not fit ${symbol}: use ${want}`, 'denied', { context: { symbol, side } });
}

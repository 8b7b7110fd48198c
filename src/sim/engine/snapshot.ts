/** The canonical text of the engine's whole state, so tests can prove that a refused request changed nothing. */
import { ASK, BID } from '../book/order-book.ts';
import type { EngineCore } from './core.ts';
import type { SimOrder } from './order.ts';

function orderRow(o: SimOrder): unknown[] {
  return [
    o.seq, o.orderId, o.clientOrderId, o.accountId, o.inst.symbol, o.side, o.type, o.timeInForce, o.priceType, o.priceTicks,
    o.origLots, o.quoteBudget === Infinity ? 'inf' : o.quoteBudget, o.origQtyText, o.executedLots, o.cumQuoteUnits().toString(),
    o.status, o.time, o.updateTime, o.locked.toString(), o.fee.toString(), o.feeAsset, o.leaves, o.leverage, o.triggerTicks,
    o.waiting, o.triggered,
  ];
}

/** Returns the engine's state and the ledger's snapshot as one canonical JSON string. */
export function snapshotOf(core: EngineCore, ledgerSnapshot: string, extra: unknown = null): string {
  const orders = [...core.orders.values()].sort((a, b) => a.seq - b.seq).map(orderRow);
  const books = [...core.instruments.values()].map((inst) => [
    inst.symbol,
    [...inst.book.entries(BID)].map((e) => (e as SimOrder).orderId),
    [...inst.book.entries(ASK)].map((e) => (e as SimOrder).orderId),
    inst.trades.map((t) => [t.id, t.time, t.price, t.lots, t.isBuyerMaker]),
    inst.klines.klines('1m', 1500).map((b) => [b.openTime, b.open, b.high, b.low, b.close, b.volume, b.trades]),
  ]);
  const trades = [...core.tradesByAccount.keys()].sort().map((acc) => [acc, core.ownTrades(acc).map((t) => [t.tradeId, t.order.orderId, t.lots, t.price, t.fee.toString()])]);
  return JSON.stringify({
    ids: [core.orderIds.peek(), core.tradeIds.peek(), core.log.lastSeq()],
    orders,
    books,
    trades,
    extra,
    ledger: ledgerSnapshot,
  });
}

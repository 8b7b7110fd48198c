/**
 * The venue's state as one canonical JSON document, so a stopped venue starts again with the same
 * balances, positions, open orders (in their queue places), ids and the history its queries answer
 * from. Nothing in it depends on the clock it ran on: times are data, and timers (funding, pending
 * withdrawals) are set again on the new clock.
 */
import type { LedgerData } from '../ledger/ledger.ts';
import type { KlineData } from './klines.ts';
import type { EngineCore } from './core.ts';
import type { ContractDesk } from './contract.ts';
import type { ContractMarket } from './derivatives.ts';
import { PublicTrade, type SimInstrument } from './instruments.ts';
import { SimOrder, type OrderStatus } from './order.ts';
import { ASK, BID } from '../book/order-book.ts';

/** Version of the document; a reader refuses another. */
export const STATE_VERSION = 1;

type OrderRow = [
  number, string, string, string, string, string, string, string, string, number, number, number | null, string, number, number, string,
  string, number, number, string, string, string, number, string, string, number, boolean, boolean, boolean, boolean,
];

/** The exported state (see SimVenue.exportState). */
export interface VenueStateData {
  readonly version: number;
  readonly users: [string, string][];
  readonly ledger: LedgerData;
  readonly ids: { order: [string, number]; trade: [string, number]; logSeq: number };
  readonly counters: ReturnType<EngineCore['counters']>;
  readonly orders: OrderRow[];
  readonly accounts: [string, string[]][];
  readonly trades: [string, ReturnType<import('./trade-log.ts').TradeLog['exportRows']>][];
  readonly books: [string, string[], string[]][];
  readonly publicTrades: [string, [number, number, number, number, boolean][]][];
  readonly klines: [string, KlineData][];
  readonly positions: string[][];
  readonly stops: [string, string[]][];
  readonly marks: [string, string][];
  readonly basis: [string, string][];
  readonly indexes: [string, [number, string][]][];
  readonly funding: [string, number, number, string, string | null][];
}

function orderRow(o: SimOrder, indexed: boolean): OrderRow {
  return [
    o.seq, o.orderId, o.clientOrderId, o.accountId, o.inst.symbol, o.market, o.side, o.type, o.timeInForce, o.priceTicks, o.origLots,
    o.quoteBudget === Infinity ? null : o.quoteBudget, o.origQtyText, o.executedLots, o.cumQuote, o.cumQuoteBig.toString(), o.status, o.time, o.updateTime,
    o.locked.toString(), o.fee.toString(), o.feeAsset, o.leaves, o.leverage, o.priceType, o.triggerTicks, o.waiting, o.triggerUp, o.triggered, indexed,
  ];
}

/** Returns the engine's part of the state (the ledger's comes from Ledger.exportState). */
export function exportEngine(core: EngineCore, desk: ContractDesk, market: ContractMarket, users: ReadonlyMap<string, string>, ledger: LedgerData): VenueStateData {
  // Kept orders, and the orders that kept trades belong to (an order may have been forgotten while its trades are kept).
  const all = new Map<string, [SimOrder, boolean]>();
  for (const o of core.orders.values()) all.set(o.orderId, [o, true]);
  for (const log of core.tradesByAccount.values()) for (const o of log.ordersHeld()) if (!all.has(o.orderId)) all.set(o.orderId, [o, false]);
  const orders = [...all.values()].sort(([a], [b]) => a.seq - b.seq).map(([o, indexed]) => orderRow(o, indexed));
  const insts = [...core.instruments.values()];
  const ids = (side: 0 | 1, inst: SimInstrument): string[] => [...inst.book.entries(side)].map((e) => (e as SimOrder).orderId);
  return {
    version: STATE_VERSION,
    users: [...users.entries()],
    ledger,
    ids: { order: [core.orderIds.start.toString(), core.orderIds.count], trade: [core.tradeIds.start.toString(), core.tradeIds.count], logSeq: core.log.lastSeq() },
    counters: core.counters(),
    orders,
    accounts: [...core.ordersByAccount.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([acc, list]) => [acc, list.map((o) => o.orderId)]),
    trades: [...core.tradesByAccount.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([acc, log]) => [acc, log.exportRows()]),
    books: insts.map((i) => [i.symbol, ids(BID, i), ids(ASK, i)]),
    publicTrades: insts.map((i) => [i.symbol, i.trades.map((t) => [core.tradeIds.offsetOf(t.id), t.time, t.price, t.lots, t.isBuyerMaker])]),
    klines: insts.map((i) => [i.symbol, i.klines.exportData()]),
    positions: desk.positions.snapshotData() as string[][],
    stops: [...desk.stops.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, v.map((o) => o.orderId)]),
    marks: [...desk.marks.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, v.toString()]),
    basis: market.basisData(),
    indexes: market.indexes.exportData(),
    funding: market.funding.records().map((r) => [r.symbol, r.intervalStart, r.intervalEnd, r.rate.toString(), r.index === undefined ? null : r.index.toString()]),
  };
}

/** Loads the engine's part of a state into a new venue's core, desk and market (the ledger is loaded first). */
export function importEngine(d: VenueStateData, core: EngineCore, desk: ContractDesk, market: ContractMarket): void {
  core.orderIds.count = d.ids.order[1];
  core.tradeIds.count = d.ids.trade[1];
  core.restoreCounters(d.counters);
  const byId = new Map<string, SimOrder>();
  const indexed: SimOrder[] = [];
  for (const r of d.orders) {
    const inst = core.instruments.get(r[4]);
    if (!inst) throw new Error(`state: order ${r[1]} is on ${r[4]}, which the configuration does not have`);
    const o = new SimOrder(r[0], r[1], r[2], r[3], inst, r[5] === 'contract' ? 'contract' : 'spot', r[6], r[7], r[8], r[9], r[10], core.ownerOf(r[3]), r[17]);
    if (r[11] !== null) o.quoteBudget = r[11];
    if (r[12] !== '') o.origQtyText = r[12];
    o.executedLots = r[13];
    o.cumQuote = r[14];
    if (r[15] !== '0') o.cumQuoteBig = BigInt(r[15]);
    o.status = r[16] as OrderStatus;
    o.updateTime = r[18];
    o.locked = BigInt(r[19]);
    o.fee = BigInt(r[20]);
    o.leaves = r[22];
    if (r[5] === 'contract') {
      o.leverage = r[23];
      o.priceType = r[24];
      o.triggerTicks = r[25];
      o.waiting = r[26];
      o.triggerUp = r[27];
      o.triggered = r[28];
    }
    byId.set(o.orderId, o);
    if (r[29]) indexed.push(o);
  }
  const order = (id: string): SimOrder => {
    const o = byId.get(id);
    if (!o) throw new Error(`state: order ${id} is referred to but not exported`);
    return o;
  };
  for (const o of indexed) core.orders.add(o);
  for (const o of indexed) if (o.clientOrderId !== o.orderId) {
    let m = core.byClientId.get(o.accountId);
    if (!m) core.byClientId.set(o.accountId, (m = new Map()));
    m.set(o.clientOrderId, o);
  }
  for (const [acc, ids] of d.accounts) core.ordersByAccount.set(acc, ids.map(order));
  for (const [acc, rows] of d.trades) {
    for (const [off, id, time, price, lots, fee, isMaker] of rows) {
      const o = order(id);
      if (o.accountId !== acc) throw new Error(`state: trade of order ${id} filed under account ${acc}`);
      core.addOwnTrade(o, time, price, lots, BigInt(fee), isMaker, off);
    }
  }
  for (const [symbol, bids, asks] of d.books) {
    const inst = core.instruments.get(symbol)!;
    for (const id of [...bids, ...asks]) inst.book.add(order(id));
    inst.book.drainTouched();
  }
  for (const [symbol, list] of d.publicTrades) {
    const inst = core.instruments.get(symbol)!;
    for (const [off, time, price, lots, ibm] of list) inst.trades.push(new PublicTrade(core.tradeIds, off, time, price, lots, ibm));
  }
  for (const [symbol, k] of d.klines) core.instruments.get(symbol)!.klines.importData(k);
  desk.positions.importData(d.positions);
  for (const [symbol, ids] of d.stops) desk.stops.set(symbol, ids.map(order));
  for (const [symbol, v] of d.marks) desk.marks.set(symbol, BigInt(v));
  market.restoreBasis(d.basis);
  market.indexes.importData(d.indexes);
  market.funding.restore(d.funding.map(([symbol, intervalStart, intervalEnd, rate, index]) => ({ symbol, intervalStart, intervalEnd, rate: BigInt(rate), index: index === null ? undefined : BigInt(index) })));
}

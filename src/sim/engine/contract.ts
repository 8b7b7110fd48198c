/** Contract orders: validation, priceType resolution, margin locking and close reservations, matching, STOP triggers, settlement through the positions, liquidation. */
import { isContractOrderType, isContractSide, isContractTimeInForce, isPriceType } from '../../model/enums.ts';
import { BID, type MatchRequest } from '../book/order-book.ts';
import { Positions, contractSpec, checkLeverage, liquidateCrossed, flpOf, type PositionSide } from '../contracts/index.ts';
import { fmtAmount, toAmount, type Amount } from '../ledger/amount.ts';
import type { EngineCore } from './core.ts';
import type { SimInstrument } from './instruments.ts';
import { SimOrder } from './order.ts';
import { emptyParam, invalidParam, reject } from './reject.ts';
import { decimalUnits } from './units.ts';
import type { FeeRates } from '../ledger/types.ts';

/** Parameters of a new contract order, as the REST endpoint takes them. */
export interface ContractOrderParams {
  symbol: string;
  side: string;
  orderType?: string;
  quantity: string;
  leverage?: string;
  price?: string;
  priceType?: string;
  /** OVER: the amount added to (buy) or taken from (sell) the best opposite quote. */
  overPrice?: string;
  triggerPrice?: string;
  timeInForce?: string;
  clientOrderId: string;
}

/** Returns the position side a contract order side opens or closes. */
export function positionSideOf(side: string): PositionSide {
  return side === 'BUY_OPEN' || side === 'SELL_CLOSE' ? 'LONG' : 'SHORT';
}

/** Contract state next to the books: positions and the waiting STOP orders. */
export class ContractDesk {
  readonly positions: Positions;
  /** Waiting STOP orders per symbol, in placement order. */
  readonly stops = new Map<string, SimOrder[]>();
  /** Mark prices set from outside (the index); the last trade price stands in where none is set. */
  readonly marks = new Map<string, Amount>();

  constructor(readonly core: EngineCore, fees: FeeRates | undefined) {
    const specs = [...core.instruments.values()].filter((i) => i.contract).map((i) => {
      const c = i.contract!;
      return contractSpec({
        symbol: c.symbol, inverse: c.inverse, contractMultiplier: c.contractMultiplier, tickSize: i.tick.text,
        marginToken: c.marginToken, marginPrecision: c.marginPrecision, index: c.index, riskLimits: c.riskLimits,
        ...(fees ? { makerFee: fees.maker, takerFee: fees.taker } : {}),
      });
    });
    this.positions = new Positions(core.ledger, specs);
  }

  /** Returns the mark price of a contract: the set mark, else the last trade price. */
  mark(inst: SimInstrument): Amount | undefined {
    const m = this.marks.get(inst.symbol);
    if (m !== undefined) return m;
    const last = inst.klines.lastPrice();
    return last === undefined ? undefined : BigInt(last) * inst.tick.amount;
  }
}

/** A validated contract order; nothing has changed yet. */
interface ContractPlan {
  inst: SimInstrument;
  side: string;
  orderType: 'LIMIT' | 'STOP';
  priceType: string;
  tif: string;
  lots: number;
  priceTicks: number;
  leverage: string;
  triggerTicks: number;
  clientOrderId: string;
  margin: Amount;
}

/** Validates a new contract order; throws the venue's VenueError and changes nothing. */
export function planContractOrder(desk: ContractDesk, accountId: string, p: ContractOrderParams): ContractPlan {
  const core = desk.core;
  const inst = core.instruments.get(p.symbol);
  if (!inst || !inst.contract) throw invalidParam('symbol', 'unknown contract');
  if (!isContractSide(p.side)) throw reject(-1117, [], { side: p.side });
  const orderType = p.orderType === undefined || p.orderType === '' ? 'LIMIT' : p.orderType;
  if (!isContractOrderType(orderType)) throw reject(-1116, [], { orderType: p.orderType });
  const priceType = p.priceType === undefined || p.priceType === '' ? 'INPUT' : p.priceType;
  if (!isPriceType(priceType)) throw reject(-1154, [], { priceType: p.priceType });
  const tif = p.timeInForce === undefined || p.timeInForce === '' ? 'GTC' : p.timeInForce;
  if (!isContractTimeInForce(tif)) throw reject(-1115, [], { timeInForce: p.timeInForce });
  if (!p.clientOrderId) throw emptyParam('clientOrderId');
  if (!p.quantity || zeroOrNeg(p.quantity)) throw emptyParam('quantity');
  const q = inst.checkQty(p.quantity);
  if (q < 0) throw q === -1130 ? invalidParam('quantity', 'must be a decimal number') : reject(q, [], { quantity: p.quantity });
  const lots = q;
  const close = p.side === 'BUY_CLOSE' || p.side === 'SELL_CLOSE';
  if (p.leverage !== undefined && zeroOrNeg(p.leverage)) throw emptyParam('leverage');
  if (!close && (p.leverage === undefined || p.leverage === '')) throw emptyParam('leverage');
  let triggerTicks = 0;
  if (orderType === 'STOP') {
    if (!p.triggerPrice || zeroOrNeg(p.triggerPrice)) throw emptyParam('triggerPrice');
    const t = inst.checkPrice(p.triggerPrice);
    if (t < 0) throw t === -1130 ? invalidParam('triggerPrice', 'must be a decimal number') : reject(t, [], { triggerPrice: p.triggerPrice });
    triggerTicks = t;
  }
  let priceTicks = 0;
  if (priceType === 'INPUT') {
    if (!p.price || zeroOrNeg(p.price)) throw emptyParam('price');
    const pr = inst.checkPrice(p.price);
    if (pr < 0) throw pr === -1130 ? invalidParam('price', 'must be a decimal number') : reject(pr, [], { price: p.price });
    priceTicks = pr;
  } else if (orderType === 'LIMIT') {
    priceTicks = resolvePrice(inst, p.side, priceType, p.overPrice);
  }
  // A close sent without leverage carries its position's, as real servers answer it (views and `v`).
  const leverage = p.leverage ?? (close ? positionLeverage(desk, accountId, inst, p.side) : '');
  const qty = BigInt(lots) * inst.step.amount;
  if (!close) {
    try {
      checkLeverage(desk.positions.spec(inst.symbol), qty, toAmount(leverage, 'leverage'));
    } catch {
      throw invalidParam('leverage', 'must be above 0 and within the risk tier');
    }
  }
  if (p.clientOrderId && core.hasClientId(accountId, p.clientOrderId)) throw reject(-1141, [], { clientOrderId: p.clientOrderId });
  if (!core.ledger.account(accountId)) throw invalidParam('accountId', 'unknown account');
  let margin = 0n;
  if (orderType === 'LIMIT') {
    if (tif === 'LIMIT_MAKER' && inst.book.wouldCross(bookSideOf(p.side), priceTicks)) {
      throw reject(-1158, [], { rule: 'a LIMIT_MAKER order would immediately match and take' });
    }
    if (close) {
      const pos = desk.positions.get(accountId, inst.symbol, positionSideOf(p.side));
      if (!pos || pos.available < qty) throw reject(-1156, [], { rule: 'close quantity above the available position', available: pos ? fmtAmount(pos.available) : '0' });
    } else {
      margin = desk.positions.orderMargin(inst.symbol, qty, BigInt(priceTicks) * inst.tick.amount, toAmount(leverage, 'leverage')).total;
      const free = core.ledger.balance(accountId, inst.contract.marginToken).free;
      if (free < margin) throw reject(-1131, [], { asset: inst.contract.marginToken, free: fmtAmount(free), needed: fmtAmount(margin) });
    }
  }
  return { inst, side: p.side, orderType, priceType, tif, lots, priceTicks, leverage, triggerTicks, clientOrderId: p.clientOrderId, margin };
}

/** Returns the leverage of the position a close order of `side` closes, as text ("" when there is none yet). */
function positionLeverage(desk: ContractDesk, accountId: string, inst: SimInstrument, side: string): string {
  const pos = desk.positions.get(accountId, inst.symbol, positionSideOf(side));
  return pos ? fmtAmount(pos.leverage) : '';
}

function zeroOrNeg(s: string): boolean {
  if (s.startsWith('-')) return true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 48 && c !== 46 && c !== 43) return false;
  }
  return true;
}

function bookSideOf(side: string): 0 | 1 {
  return side === 'BUY_OPEN' || side === 'BUY_CLOSE' ? 0 : 1;
}

/**
 * Returns the limit price of a non-INPUT priceType in ticks: OPPONENT the best opposite quote, QUEUE the
 * best same-side quote, OVER the best opposite ± overPrice, MARKET the last price × 1.05 for buys
 * (rounded down) or × 0.95 for sells (rounded up), so the band is never exceeded. Throws -1149 when
 * the quote it needs does not exist, and the price filter's codes when the result is out of range.
 */
export function resolvePrice(inst: SimInstrument, side: string, priceType: string, overPrice?: string): number {
  const buy = bookSideOf(side) === BID;
  const bid = inst.book.bestBid();
  const ask = inst.book.bestAsk();
  let ticks: number | undefined;
  switch (priceType) {
    case 'OPPONENT':
      ticks = buy ? ask : bid;
      break;
    case 'QUEUE':
      ticks = buy ? bid : ask;
      break;
    case 'OVER': {
      const opp = buy ? ask : bid;
      if (!overPrice) throw emptyParam('overPrice');
      const over = decimalUnits(overPrice, inst.tick);
      if (over < 0) throw invalidParam('overPrice', `must be a non-negative multiple of ${inst.tick.text}`);
      ticks = opp === undefined ? undefined : buy ? opp + over : opp - over;
      break;
    }
    case 'MARKET': {
      const last = inst.klines.lastPrice() ?? (buy ? ask : bid);
      ticks = last === undefined ? undefined : buy ? Math.floor((last * 105) / 100) : Math.ceil((last * 95) / 100);
      break;
    }
    default:
      throw reject(-1154, [], { priceType });
  }
  if (ticks === undefined) throw reject(-1149, [], { rule: `no quote to price a ${priceType} order from` });
  if (ticks > inst.maxPrice) return inst.maxPrice;
  if (ticks < inst.minPrice) return inst.minPrice;
  return ticks;
}

/** Places a validated contract order (a STOP order waits for its trigger); returns it. */
export function placeContractOrder(desk: ContractDesk, accountId: string, plan: ContractPlan): SimOrder {
  const core = desk.core;
  const inst = plan.inst;
  const orderId = core.orderIds.take();
  const o = new SimOrder(
    core.nextSeq(), orderId, plan.clientOrderId, accountId, inst, 'contract', plan.side, plan.orderType,
    plan.tif, plan.priceTicks, plan.lots, core.ownerOf(accountId), core.clock.now(),
  );
  o.leverage = plan.leverage;
  o.priceType = plan.priceType;
  o.triggerTicks = plan.triggerTicks;
  core.register(o);
  if (plan.orderType === 'STOP') {
    o.waiting = true;
    // Trigger direction: toward the trigger from the last price (or by side with no trade yet).
    const last = inst.klines.lastPrice();
    o.triggerUp = last === undefined ? bookSideOf(plan.side) === BID : plan.triggerTicks >= last;
    let list = desk.stops.get(inst.symbol);
    if (!list) {
      list = [];
      desk.stops.set(inst.symbol, list);
    }
    list.push(o);
    core.emitOrder(o, 'NEW');
    core.finish(inst, false);
    return o;
  }
  activate(desk, o, plan.margin);
  runStops(desk, inst);
  return o;
}

/** Locks margin or reserves the close quantity, then matches, rests or cancels the rest. */
function activate(desk: ContractDesk, o: SimOrder, margin: Amount): void {
  const core = desk.core;
  const inst = o.inst;
  const qty = BigInt(o.origLots) * inst.step.amount;
  if (o.isClose) desk.positions.reserveClose(o.accountId, inst.symbol, positionSideOf(o.side), qty);
  else if (margin > 0n) {
    core.ledger.lock(o.accountId, inst.contract!.marginToken, margin);
    core.touch(o.accountId, inst.contract!.marginToken);
    o.locked = margin;
  }
  core.emitOrder(o, o.triggered ? 'TRIGGERED' : 'NEW');
  const req: MatchRequest = { side: o.bookSide, limit: o.priceTicks, maxLots: o.origLots, maxQuote: Infinity, owner: o.owner };
  let traded = false;
  const fok = o.timeInForce === 'FOK';
  if (o.timeInForce !== 'LIMIT_MAKER' && (!fok || inst.book.fillable(req) >= o.origLots)) {
    inst.book.match(
      req,
      (maker, lots, price) => {
        traded = true;
        settleContract(desk, o, maker as SimOrder, lots, price);
      },
      (maker) => endOrder(desk, maker as SimOrder, 'EXPIRED'),
    );
  }
  const remaining = o.origLots - o.executedLots;
  if (o.active && remaining > 0) {
    if (o.timeInForce === 'GTC' || o.timeInForce === 'LIMIT_MAKER') {
      o.leaves = remaining;
      inst.book.add(o);
    } else {
      endOrder(desk, o, 'CANCELED');
    }
  }
  if (traded) afterTrades(desk, inst);
  core.finish(inst, traded);
}

/** Settles one fill of a taker and a maker through the positions and emits its events. */
function settleContract(desk: ContractDesk, t: SimOrder, m: SimOrder, lots: number, price: number): void {
  const core = desk.core;
  const inst = t.inst;
  const qty = BigInt(lots) * inst.step.amount;
  const priceAmt = BigInt(price) * inst.tick.amount;
  const now = core.clock.now();
  const takerBuy = t.bookSide === BID;
  const tradeId = core.publicTrade(inst, price, lots, takerBuy);
  for (const o of [t, m]) {
    const isMaker = o === m;
    const before = o.origLots - o.executedLots;
    let fee: Amount;
    if (o.isClose) {
      fee = desk.positions.closeFill({ accountId: o.accountId, symbol: inst.symbol, side: positionSideOf(o.side), qty, price: priceAmt, isMaker, reserved: true }).fee;
    } else {
      const release = lots === before ? o.locked : (o.locked * BigInt(lots)) / BigInt(before);
      fee = desk.positions.openFill({ accountId: o.accountId, symbol: inst.symbol, side: positionSideOf(o.side), qty, price: priceAmt, leverage: toAmount(o.leverage, 'leverage'), isMaker, release }).fee;
      o.locked -= release;
    }
    o.fee += fee;
    o.addFill(lots, price, now);
    o.status = o.executedLots === o.origLots ? 'FILLED' : 'PARTIALLY_FILLED';
    core.touch(o.accountId, inst.contract!.marginToken);
    core.addOwnTrade(o, now, price, lots, fee, isMaker);
    core.emit({
      type: 'fill', market: 'contract', account: o.accountId, symbol: inst.symbol, orderId: o.orderId, tradeId, side: o.side,
      price: inst.priceText(price), qty: inst.qtyText(lots), fee: fmtAmount(fee), feeAsset: o.feeAsset, isMaker,
    });
    core.emitOrder(o, 'TRADE');
    emitPosition(desk, o.accountId, inst, positionSideOf(o.side));
  }
}

/** Emits a position's state (a zero position when it was closed). */
export function emitPosition(desk: ContractDesk, accountId: string, inst: SimInstrument, side: PositionSide): void {
  if (!desk.core.eventsOn) return;
  const p = desk.positions.get(accountId, inst.symbol, side);
  const spec = desk.positions.spec(inst.symbol);
  const flp = p ? flpOf(desk.positions, p) : undefined;
  desk.core.emit({
    type: 'position', account: accountId, symbol: inst.symbol, side,
    avgPrice: p ? fmtAmount(p.avgPrice, spec.priceDecimals) : '0',
    position: p ? fmtAmount(p.position) : '0',
    available: p ? fmtAmount(p.available) : '0',
    margin: p ? fmtAmount(p.margin, spec.marginDecimals) : '0',
    flp: flp === undefined ? '0' : fmtAmount(flp, spec.priceDecimals),
    realizedPnL: p ? fmtAmount(p.realizedPnl, spec.marginDecimals) : '0',
  });
}

/** Ends an active contract order: takes it off the book, returns its margin or reservation, emits it. */
export function endOrder(desk: ContractDesk, o: SimOrder, execType: string): void {
  const core = desk.core;
  const inst = o.inst;
  inst.book.remove(o);
  const rest = o.origLots - o.executedLots;
  o.leaves = 0;
  o.status = 'CANCELED';
  o.updateTime = core.clock.now();
  if (o.waiting) {
    o.waiting = false;
    const list = desk.stops.get(inst.symbol);
    if (list) list.splice(list.indexOf(o), 1);
  } else if (o.isClose) {
    desk.positions.releaseClose(o.accountId, inst.symbol, positionSideOf(o.side), BigInt(rest) * inst.step.amount);
    emitPosition(desk, o.accountId, inst, positionSideOf(o.side));
  } else if (o.locked > 0n) {
    desk.positions.releaseOrderMargin(o.accountId, inst.symbol, o.locked);
    core.touch(o.accountId, inst.contract!.marginToken);
    o.locked = 0n;
  }
  core.emitOrder(o, execType);
}

/** Cancels a contract order (LIMIT or waiting STOP); -2013 unknown, -1139 filled, -1142 cancelled. */
export function cancelContractOrder(desk: ContractDesk, accountId: string, orderId?: string, clientOrderId?: string): SimOrder {
  if (!orderId && !clientOrderId) throw emptyParam('orderId or clientOrderId');
  const o = desk.core.findOrder(accountId, orderId, clientOrderId);
  if (!o || o.market !== 'contract') throw reject(-2013, [], { orderId, clientOrderId });
  if (o.status === 'FILLED') throw reject(-1139, [], { orderId: o.orderId });
  if (!o.active) throw reject(-1142, [], { orderId: o.orderId });
  endOrder(desk, o, 'CANCELED');
  desk.core.finish(o.inst, false);
  return o;
}

/**
 * Triggers waiting STOP orders of `inst` whose trigger the last price reached, in placement order; a
 * triggered order is checked again (a close needs its quantity available, an open its margin) and is
 * cancelled when it no longer fits. Repeats while triggers fire, since their trades move the price.
 */
export function runStops(desk: ContractDesk, inst: SimInstrument): void {
  for (let round = 0; round < 100; round++) {
    const list = desk.stops.get(inst.symbol);
    const last = inst.klines.lastPrice();
    if (!list || list.length === 0 || last === undefined) return;
    const due = list.find((o) => (o.triggerUp ? last >= o.triggerTicks : last <= o.triggerTicks));
    if (!due) return;
    list.splice(list.indexOf(due), 1);
    due.waiting = false;
    due.triggered = true;
    let margin = 0n;
    try {
      if (due.priceType !== 'INPUT') due.priceTicks = resolvePrice(inst, due.side, due.priceType);
      const qty = BigInt(due.origLots) * inst.step.amount;
      if (due.isClose) {
        const pos = desk.positions.get(due.accountId, inst.symbol, positionSideOf(due.side));
        if (!pos || pos.available < qty) throw reject(-1156);
        if (due.leverage === '') due.leverage = fmtAmount(pos.leverage);
      } else {
        margin = desk.positions.orderMargin(inst.symbol, qty, BigInt(due.priceTicks) * inst.tick.amount, toAmount(due.leverage, 'leverage')).total;
        if (desk.core.ledger.balance(due.accountId, inst.contract!.marginToken).free < margin) throw reject(-1131);
      }
    } catch {
      endOrder(desk, due, 'CANCELED');
      desk.core.finish(inst, false);
      continue;
    }
    activate(desk, due, margin);
  }
}

/** After trades on a contract: liquidate positions the mark crossed and trigger stops. */
function afterTrades(desk: ContractDesk, inst: SimInstrument): void {
  liquidate(desk, inst);
}

/** Liquidates the positions of `inst` whose flp the mark crossed, cancelling their close orders, and emits the changes. */
export function liquidate(desk: ContractDesk, inst: SimInstrument): void {
  const mark = desk.mark(inst);
  if (mark === undefined) return;
  const done = liquidateCrossed(desk.positions, inst.symbol, mark);
  for (const l of done) {
    for (const o of desk.core.ordersByAccount.get(l.accountId) ?? []) {
      if (o.active && o.isClose && o.inst === inst && positionSideOf(o.side) === l.side && !o.waiting) {
        inst.book.remove(o);
        o.leaves = 0;
        o.status = 'CANCELED';
        o.updateTime = desk.core.clock.now();
        desk.core.emitOrder(o, 'CANCELED');
      }
    }
    desk.core.touch(l.accountId, inst.contract!.marginToken);
    if (desk.core.eventsOn) {
      const spec = desk.positions.spec(inst.symbol);
      desk.core.emit({
        type: 'liquidation', account: l.accountId, symbol: inst.symbol, side: l.side, qty: fmtAmount(l.qty), price: fmtAmount(l.price, spec.priceDecimals),
        flp: fmtAmount(l.flp, spec.priceDecimals), margin: fmtAmount(l.margin), pnl: fmtAmount(l.pnl), toInsurance: fmtAmount(l.toInsurance),
        fromInsurance: fmtAmount(l.fromInsurance), asset: spec.marginToken,
      });
    }
    emitPosition(desk, l.accountId, inst, l.side);
  }
}

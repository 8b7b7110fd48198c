/** Spot orders: validation with the venue's codes, funds locking, matching (LIMIT, MARKET, LIMIT_MAKER; GTC, IOC, FOK), settlement and cancel. */
import { parseScaled, scaleOf } from '../../core/fixed.ts';
import { BID, type BookEntry, type MatchRequest } from '../book/order-book.ts';
import { toAmount, type Amount } from '../ledger/amount.ts';
import type { EngineCore } from './core.ts';
import type { SimInstrument } from './instruments.ts';
import { SimOrder } from './order.ts';
import { emptyParam, invalidParam, reject } from './reject.ts';
import { amountText, BAD_PRECISION, decimalUnits } from './units.ts';

/** Parameters of a new spot order, as the REST endpoint takes them. */
export interface SpotOrderParams {
  symbol: string;
  side: string;
  type: string;
  timeInForce?: string;
  /** Base quantity; for a MARKET BUY the quote amount to spend. */
  quantity: string;
  price?: string;
  newClientOrderId?: string;
}

/** A validated spot order, ready to be placed; nothing has changed yet. */
interface SpotPlan {
  inst: SimInstrument;
  side: 'BUY' | 'SELL';
  type: 'LIMIT' | 'MARKET' | 'LIMIT_MAKER';
  tif: 'GTC' | 'IOC' | 'FOK';
  priceTicks: number;
  lots: number;
  /** Quote budget of a MARKET BUY in qunits (Infinity otherwise). */
  budget: number;
  /** Funds to lock and their asset. */
  lockAsset: string;
  lockAmount: Amount;
  clientOrderId: string | undefined;
}

/** Validates a new spot order for `accountId`; throws the venue's VenueError and changes nothing. */
export function planSpotOrder(core: EngineCore, accountId: string, p: SpotOrderParams): SpotPlan {
  const inst = core.instruments.get(p.symbol);
  if (!inst || inst.kind !== 'spot') throw invalidParam('symbol', 'unknown spot symbol');
  const side = upper(p.side);
  if (side !== 'BUY' && side !== 'SELL') throw reject(-1117, [], { side: p.side });
  const type = upper(p.type);
  if (type !== 'LIMIT' && type !== 'MARKET' && type !== 'LIMIT_MAKER') throw reject(-1116, [], { type: p.type });
  const tifIn = p.timeInForce === undefined || p.timeInForce === '' ? 'GTC' : upper(p.timeInForce);
  if (tifIn !== 'GTC' && tifIn !== 'IOC' && tifIn !== 'FOK') throw reject(-1115, [], { timeInForce: p.timeInForce });
  const tif = tifIn;
  if (!p.quantity || isZero(p.quantity)) throw emptyParam('quantity');
  if (p.quantity.startsWith('-')) throw emptyParam('quantity');
  let priceTicks = 0;
  let lots = 0;
  let budget = Infinity;
  let lockAmount: Amount;
  if (type === 'MARKET' && side === 'BUY') {
    // The quantity is the quote amount; it may carry no more decimals than the price tick.
    const ticks = decimalUnits(p.quantity, inst.tick);
    if (ticks === BAD_PRECISION) throw reject(-1148, [], { quantity: p.quantity, tickSize: inst.tick.text });
    if (ticks < 0) throw invalidParam('quantity', 'must be a decimal number');
    const scale = Math.max(scaleOf(p.quantity, 'quantity'), inst.qunit.scale);
    const units = parseScaled(p.quantity, scale, 'quantity') / parseScaled(inst.qunit.text, scale, 'unit');
    // Matching counts the budget in safe integers of qunits: a larger amount than any book could fill is refused, not rounded.
    if (units > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidParam('quantity', 'is larger than the venue accepts');
    budget = Number(units);
    if (budget < inst.minNotional) throw reject(-1140, [], { amount: p.quantity, minNotional: inst.model.minNotional });
    lockAmount = toAmount(p.quantity, 'quantity');
  } else {
    const q = inst.checkQty(p.quantity);
    if (q < 0) throw q === -1130 ? invalidParam('quantity', 'must be a decimal number') : reject(q, [], { quantity: p.quantity });
    lots = q;
    if (type !== 'MARKET') {
      if (!p.price || isZero(p.price) || p.price.startsWith('-')) throw emptyParam('price');
      const pr = inst.checkPrice(p.price);
      if (pr < 0) throw pr === -1130 ? invalidParam('price', 'must be a decimal number') : reject(pr, [], { price: p.price });
      priceTicks = pr;
      if (priceTicks * lots < inst.minNotional) throw reject(-1140, [], { price: p.price, quantity: p.quantity, minNotional: inst.model.minNotional });
    } else {
      const bid = inst.book.bestBid();
      if (bid !== undefined && bid * lots < inst.minNotional) throw reject(-1140, [], { quantity: p.quantity, minNotional: inst.model.minNotional });
    }
    lockAmount = side === 'BUY' ? inst.quoteAmount(priceTicks, lots) : inst.lotsAmount(lots);
  }
  const clientOrderId = p.newClientOrderId === '' ? undefined : p.newClientOrderId;
  if (clientOrderId !== undefined && core.hasClientId(accountId, clientOrderId)) throw reject(-1141, [], { clientOrderId });
  if (type === 'LIMIT_MAKER' && inst.book.wouldCross(side === 'BUY' ? 0 : 1, priceTicks)) {
    throw reject(-1158, [], { price: p.price, rule: 'a LIMIT_MAKER order would immediately match and take' });
  }
  const lockAsset = side === 'BUY' ? inst.quoteAsset : inst.baseAsset;
  if (!core.ledger.account(accountId)) throw invalidParam('accountId', 'unknown account');
  const free = core.ledger.freeOf(accountId, lockAsset);
  if (free < lockAmount) throw reject(-1131, [], { asset: lockAsset, free: free.toString(), needed: lockAmount.toString() });
  return { inst, side, type, tif, priceTicks, lots, budget, lockAsset, lockAmount, clientOrderId };
}

/** Returns `s` in upper case ('' when not a string), without a new string when it already is (the usual case). */
function upper(s: unknown): string {
  if (typeof s !== 'string') return '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) return s.toUpperCase();
  }
  return s;
}

function isZero(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 48 && c !== 46 && c !== 43) return false;
  }
  return true;
}

/** Places a validated spot order: locks funds, matches, rests or cancels the remainder. Returns the order. */
export function placeSpotOrder(core: EngineCore, accountId: string, plan: SpotPlan, origQtyText: string): SimOrder {
  const { inst } = plan;
  const orderId = core.orderIds.take();
  const o = new SimOrder(
    core.nextSeq(), orderId, plan.clientOrderId ?? orderId, accountId, inst, 'spot', plan.side, plan.type,
    plan.tif, plan.priceTicks, plan.lots, core.ownerOf(accountId), core.clock.now(),
  );
  if (plan.budget !== Infinity) {
    o.quoteBudget = plan.budget;
    o.origQtyText = origQtyText;
  }
  core.register(o);
  core.lock(accountId, plan.lockAsset, plan.lockAmount);
  o.locked = plan.lockAmount;
  core.emitOrder(o, 'NEW');
  if (inst.external !== undefined) {
    // An external market's matcher holds the order from here; its fills and end come back through ExternalMarket.
    core.finish(inst, false);
    inst.external.submit(o);
    return o;
  }
  const buy = plan.side === 'BUY';
  // One request object per engine, filled in for each order.
  const h = spotHandlers(core, o);
  const req = h.req;
  req.side = buy ? BID : 1;
  req.limit = plan.type === 'MARKET' ? (buy ? Infinity : 0) : plan.priceTicks;
  req.maxLots = plan.budget !== Infinity ? Infinity : plan.lots;
  req.maxQuote = plan.budget;
  req.owner = o.owner;
  const fok = plan.tif === 'FOK' && plan.type !== 'LIMIT_MAKER';
  let traded = false;
  if (plan.type !== 'LIMIT_MAKER' && (!fok || inst.book.fillable(req) >= (plan.budget !== Infinity ? Infinity : plan.lots))) {
    const fills = core.tradeIds.count;
    h.busy = true;
    try {
      inst.book.match(req, h.fill, h.self);
    } finally {
      h.busy = false;
    }
    traded = fills !== core.tradeIds.count;
  }
  const rests = plan.type !== 'MARKET' && (plan.tif === 'GTC' || plan.type === 'LIMIT_MAKER');
  if (plan.budget !== Infinity && o.executedLots > 0) {
    // A MARKET BUY is done when what is left of its amount cannot buy one more lot.
    const ask = inst.book.bestAsk();
    if (ask !== undefined && o.quoteBudget < ask) {
      o.status = 'FILLED';
      releaseRest(core, o);
      core.emitOrder(o, 'TRADE');
    }
  }
  if (o.status !== 'FILLED') {
    const remaining = plan.budget !== Infinity ? 0 : plan.lots - o.executedLots;
    if (rests && remaining > 0) {
      o.leaves = remaining;
      inst.book.add(o);
    } else {
      o.status = 'CANCELED';
      o.updateTime = core.clock.now();
      releaseRest(core, o);
      core.emitOrder(o, 'CANCELED');
    }
  }
  core.finish(inst, traded);
  return o;
}

interface Handlers {
  taker: SimOrder | undefined;
  /** True while a placement uses these callbacks. */
  busy: boolean;
  req: MatchRequest;
  fill: (maker: BookEntry, lots: number, price: number) => void;
  self: (maker: BookEntry) => void;
}

const handlers = new WeakMap<EngineCore, Handlers>();

/**
 * Returns the match callbacks of `core` pointed at `taker`: made once per engine, not per order. A
 * listener may place an order while another is matching (events are published synchronously); such a
 * nested placement gets callbacks of its own, so the outer one's taker and request stay intact.
 */
function spotHandlers(core: EngineCore, taker: SimOrder): Handlers {
  let h = handlers.get(core);
  if (!h || h.busy) {
    const made: Handlers = {
      taker: undefined,
      busy: false,
      req: { side: BID, limit: 0, maxLots: 0, maxQuote: Infinity, owner: 0 },
      fill: (maker, lots, price) => settleSpot(core, made.taker!, maker as SimOrder, lots, price),
      self: (maker) => expire(core, maker as SimOrder),
    };
    if (!h) handlers.set(core, made);
    h = made;
  }
  h.taker = taker;
  return h;
}

/** Settles one fill between the taker `t` and the resting `m`, and emits its events. */
function settleSpot(core: EngineCore, t: SimOrder, m: SimOrder, lots: number, price: number): void {
  const inst = t.inst;
  const buyerIsTaker = t.bookSide === BID;
  const buyer = buyerIsTaker ? t : m;
  const seller = buyerIsTaker ? m : t;
  const qty = inst.lotsAmount(lots);
  const q = price * lots;
  const paid = inst.quoteAmount(price, lots);
  // A limit buyer locked at its own price; a market buyer locked its budget and is released as it pays.
  const buyerRelease = buyer.quoteBudget !== Infinity || buyer.priceTicks === price ? paid : inst.quoteAmount(buyer.priceTicks, lots);
  // Fees as the ledger's feeOn would charge them (rounded up), from the instrument's per-rate tables.
  const buyerRates = core.ledger.spotFeesOf(buyer.accountId);
  const sellerRates = core.ledger.spotFeesOf(seller.accountId);
  const buyerFee = inst.baseFee(lots, buyer === m ? buyerRates.maker : buyerRates.taker);
  const sellerFee = inst.quoteFee(q, paid, seller === m ? sellerRates.maker : sellerRates.taker);
  core.ledger.settleSpotFees(inst.baseAsset, inst.quoteAsset, qty, paid, buyer.accountId, buyerRelease, seller.accountId, qty, buyerFee, sellerFee);
  buyer.locked -= buyerRelease;
  seller.locked -= qty;
  if (buyerFee !== 0n) buyer.fee += buyerFee;
  if (sellerFee !== 0n) seller.fee += sellerFee;
  core.touch(buyer.accountId, inst.baseAsset);
  core.touch(buyer.accountId, inst.quoteAsset);
  core.touch(seller.accountId, inst.baseAsset);
  core.touch(seller.accountId, inst.quoteAsset);
  const now = core.clock.now();
  t.addFill(lots, price, now);
  m.addFill(lots, price, now);
  if (t.quoteBudget !== Infinity) t.quoteBudget -= price * lots;
  core.publicTradeQuiet(inst, price, lots, buyerIsTaker);
  ownFill(core, t, now, price, lots, buyerIsTaker ? buyerFee : sellerFee, false);
  ownFill(core, m, now, price, lots, buyerIsTaker ? sellerFee : buyerFee, true);
  if (m.leaves === 0) {
    m.status = 'FILLED';
    releaseRest(core, m);
  } else {
    m.status = 'PARTIALLY_FILLED';
  }
  core.emitOrder(m, 'TRADE');
  const takerDone = t.quoteBudget === Infinity ? t.executedLots === t.origLots : false;
  t.status = takerDone ? 'FILLED' : 'PARTIALLY_FILLED';
  if (takerDone) releaseRest(core, t);
  core.emitOrder(t, 'TRADE');
}

/** Records one side of a spot fill for my-trades and emits its fill event. */
export function ownFill(core: EngineCore, o: SimOrder, now: number, price: number, lots: number, fee: Amount, isMaker: boolean): void {
  core.addOwnTrade(o, now, price, lots, fee, isMaker);
  if (!core.eventsOn) return;
  const inst = o.inst;
  core.emit({
    type: 'fill', market: 'spot', account: o.accountId, symbol: inst.symbol, orderId: o.orderId, tradeId: core.tradeIds.idAt(core.tradeIds.count - 1), side: o.side,
    price: inst.priceText(price), qty: inst.qtyText(lots), fee: formatFee(fee), feeAsset: o.feeAsset, isMaker,
  });
}

function formatFee(a: Amount): string {
  return amountText(a);
}

/** Returns an order's remaining locked funds to free. */
export function releaseRest(core: EngineCore, o: SimOrder): void {
  if (o.locked <= 0n) return;
  const asset = o.side === 'BUY' ? o.inst.quoteAsset : o.inst.baseAsset;
  core.unlock(o.accountId, asset, o.locked);
  o.locked = 0n;
}

/** Cancels a resting order met by its own owner's taker (expire-maker self-trade prevention). */
function expire(core: EngineCore, m: SimOrder): void {
  m.status = 'CANCELED';
  m.updateTime = core.clock.now();
  releaseRest(core, m);
  core.emitOrder(m, 'EXPIRED');
}

/** Cancels an active spot order of `accountId`; throws -2013 unknown, -1139 filled, -1142 already cancelled. */
export function cancelSpotOrder(core: EngineCore, accountId: string, orderId?: string, clientOrderId?: string): SimOrder {
  if (!orderId && !clientOrderId) throw emptyParam('orderId or clientOrderId');
  const r = cancelSpotOrderCode(core, accountId, orderId, clientOrderId);
  if (typeof r === 'number') throw reject(r, [], { orderId, clientOrderId });
  return r;
}

/**
 * Cancels an active spot order of `accountId` and returns it, or returns the venue's refusal code
 * (-2013 unknown, -1139 filled, -1142 already cancelled) having changed nothing. A refused cancel is
 * common in a busy run, so the inner path answers with a number and only the API edge throws.
 */
export function cancelSpotOrderCode(core: EngineCore, accountId: string, orderId?: string, clientOrderId?: string): SimOrder | number {
  const o = core.findOrder(accountId, orderId, clientOrderId);
  if (!o || o.market !== 'spot') return -2013;
  if (o.status === 'FILLED') return -1139;
  if (o.status === 'CANCELED' || o.status === 'REJECTED') return -1142;
  o.inst.book.remove(o as BookEntry);
  o.leaves = 0;
  o.status = 'CANCELED';
  o.updateTime = core.clock.now();
  releaseRest(core, o);
  core.emitOrder(o, 'CANCELED');
  core.finish(o.inst, false);
  o.inst.external?.cancel(o);
  return o;
}

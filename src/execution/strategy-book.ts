/**
 * Each strategy's own book, kept from its own fills only (the order feed's, once each, in the order
 * they were delivered): per symbol the net position (spot: base received less sold by this strategy, a
 * buy's fee paid in the base asset charged to realized PnL at the fill price and never held;
 * contracts: long and short sides), average entry, realized PnL before fees, fees, funding, and
 * unrealized PnL at the current mark (contracts) or last price (spot). Amounts are exact inside and
 * rounded at the edge: quantities to the step, prices to the tick, PnL to the instrument's margin
 * precision (spot: 8 decimals). `pnl()` adds every symbol's PnL in one accounting asset, converting
 * other assets at the current price of a pair that links them.
 */
import { addScaled, Decimal, divideRounded, formatDown, mulScaled, negScaled, roundToDecimal, scaled, SCALED_ZERO, scaledText, subScaled, type Scaled } from '../core/fixed.ts';
import type { BookPnl, BookSide, FillReport, Instrument, OrderFill, PositionSide, SymbolBook } from '../model/index.ts';
import { EMPTY_ACCOUNT, foldFills, positionKey, type AccountState } from './portfolio/accounting.ts';
import { sidePnl } from './portfolio/pnl.ts';

/** Prices the book values positions at. */
export interface PriceSource {
  price(symbol: string): { readonly last?: string; readonly mark?: string } | undefined;
}

interface Book {
  state: AccountState;
  /** Fills delivered and not folded yet, in delivery order (folded on the next read, or by settle() after the delivery). */
  readonly pending: OrderFill[];
  readonly fees: Map<string, Scaled>;
  fills: number;
  /** Folds so far: the views below were made at one of them. */
  version: number;
  readonly views: Map<string, HeldView>;
}

/** A side held, exact, for its unrealized PnL (texts: decimal.js only when that is read). */
interface Held {
  readonly side: PositionSide;
  readonly qty: string;
  readonly avg: string;
}

/**
 * A symbol's book as of one fold, and its views at the last two reference prices read: the last trade's
 * price mostly goes back and forth between the best bid and ask, so the view before is often the one
 * wanted again (it is frozen, and its unrealized PnL is at its own price).
 */
interface HeldView {
  readonly version: number;
  readonly held: readonly Held[];
  readonly dp: number;
  readonly base: Omit<SymbolBook, 'unrealized'>;
  ref: string | undefined;
  view: SymbolBook | undefined;
  prevRef: string | undefined;
  prevView: SymbolBook | undefined;
}

const SPOT_PNL_DECIMALS = 8;
const ONE: Scaled = { units: 1n, scale: 0 };
/** Most fills a book notes before it folds them without waiting for settle() or a read. */
const MAX_PENDING = 256;

/** Returns the asset a symbol's PnL is counted in. */
export function pnlAsset(inst: Instrument): string {
  return inst.kind === 'spot' ? inst.quoteAsset : inst.marginToken ?? inst.quoteAsset;
}

function pnlDecimals(inst: Instrument): number {
  return inst.kind === 'spot' ? SPOT_PNL_DECIMALS : inst.marginPrecision ?? SPOT_PNL_DECIMALS;
}

/** The books of every strategy; see the module comment. */
export class StrategyBooks {
  private readonly books = new Map<string, Book>();
  /** The views of strategies without a fill yet (by symbol: all alike). */
  private readonly flat = new Map<string, HeldView>();

  constructor(private readonly instruments: ReadonlyMap<string, Instrument>, private readonly prices: PriceSource) {}

  /**
   * Counts one of a strategy's fills (the feed delivers each once). The fill is only noted here, on the
   * way to the strategy's onFill; the exact fold runs after the delivery (settle) or at the first read,
   * whichever comes first, so whatever reads the book sees every fill delivered before.
   */
  apply(f: OrderFill): void {
    if (!this.instruments.has(f.symbol)) return;
    let b = this.books.get(f.strategyId);
    if (b === undefined) this.books.set(f.strategyId, (b = { state: EMPTY_ACCOUNT, pending: [], fees: new Map(), fills: 0, version: 0, views: new Map() }));
    b.pending.push(f);
    b.fills += 1;
    // Bounded even when nothing settles or reads (a fill adopted by reconciliation outside the stream path).
    if (b.pending.length >= MAX_PENDING) this.fold(b);
  }

  /** Folds every fill noted and not folded yet (the executor calls it once the fill was delivered). */
  settle(): void {
    for (const b of this.books.values()) if (b.pending.length > 0) this.fold(b);
  }

  private fold(b: Book): void {
    for (const f of b.pending) {
      const inst = this.instruments.get(f.symbol)!;
      const report: FillReport = {
        account: f.account, symbol: f.symbol, tradeId: f.tradeId, orderId: f.orderId, side: f.side, price: f.price, qty: f.qty, fee: f.fee,
        feeAsset: f.feeAsset, maker: f.maker, time: f.time,
      };
      b.state = foldFills(b.state, [report], this.instruments).state;
      b.fees.set(f.symbol, addScaled(b.fees.get(f.symbol) ?? SCALED_ZERO, feeValue(f, inst)));
    }
    b.pending.length = 0;
    b.version += 1;
  }

  /**
   * Returns a strategy's book of one symbol (flat and zero when it has no fills there). Read on every
   * quote: what only fills change is kept per fold, and the view is made again only when a fill or the
   * reference price moved (it is frozen, as every reader gets the same one until then); its unrealized
   * PnL, at the price it was made at, is figured on first read.
   */
  symbol(strategyId: string, symbol: string): SymbolBook {
    const inst = this.instruments.get(symbol);
    if (inst === undefined) throw new RangeError(`unknown symbol ${symbol}`);
    const b = this.books.get(strategyId);
    if (b !== undefined && b.pending.length > 0) this.fold(b);
    const views = b?.views ?? this.flat;
    let v = views.get(symbol);
    const version = b?.version ?? 0;
    if (v === undefined || v.version !== version) views.set(symbol, (v = this.held(b, inst, version)));
    const ref = this.refPrice(inst);
    if (v.view === undefined || v.ref !== ref) {
      const next = v.prevView !== undefined && v.prevRef === ref ? v.prevView : viewAt(v, inst, ref);
      v.prevRef = v.ref;
      v.prevView = v.view;
      v.ref = ref;
      v.view = next;
    }
    return v.view;
  }

  /** Returns what a book's fills give a symbol, priced at nothing yet. */
  private held(b: Book | undefined, inst: Instrument, version: number): HeldView {
    const symbol = inst.symbol;
    const s = b?.state ?? EMPTY_ACCOUNT;
    const dp = pnlDecimals(inst);
    // In scaled integers (made again after every fill), each sum rounded as decimal.js rounds it (roundToDecimal), then half up to the decimals shown.
    const acc: HeldSides = { sides: [], held: [], net: SCALED_ZERO };
    if (inst.kind === 'spot') {
      const inv = s.inventory[symbol];
      const q = scaled(inv?.qty ?? '0', 'qty');
      if (inv !== undefined) addSide(acc, inst, q.units < 0n ? 'SHORT' : 'LONG', q.units < 0n ? negScaled(q) : q, inv.avgPrice);
    } else {
      for (const side of ['LONG', 'SHORT'] as const) {
        const p = s.positions[positionKey(symbol, side)];
        if (p !== undefined) addSide(acc, inst, side, scaled(p.qty, 'qty'), p.avgPrice);
      }
    }
    const fees = b?.fees.get(symbol) ?? SCALED_ZERO;
    const realized = scaled(s.realized[symbol] ?? '0', 'realized');
    const gross = divideRounded(roundToDecimal(addScaled(realized, fees)), ONE, dp);
    const feesShown = divideRounded(fees, ONE, dp);
    return {
      version, held: acc.held, dp, ref: undefined, view: undefined, prevRef: undefined, prevView: undefined,
      base: {
        symbol, net: scaledText(acc.net), sides: Object.freeze(acc.sides), asset: pnlAsset(inst), realizedGross: gross, fees: feesShown, funding: '0',
        // Gross less fees as shown, so the figures a reader sees add up (rounding the exact difference alone can land one unit off).
        realized: scaledText(subScaled(scaled(gross, 'realizedGross'), scaled(feesShown, 'fees'))),
      },
    };
  }


  /** Returns a strategy's PnL over `symbols` in `asset` (default: the PnL asset of its first symbol). */
  pnl(strategyId: string, symbols: readonly string[], asset?: string): BookPnl {
    const first = symbols[0] === undefined ? undefined : this.instruments.get(symbols[0]);
    const into = asset ?? (first === undefined ? 'USDT' : pnlAsset(first));
    const sum = { realizedGross: new Decimal(0), fees: new Decimal(0), realized: new Decimal(0), unrealized: new Decimal(0) };
    const unconverted = new Set<string>();
    for (const symbol of symbols) {
      const sb = this.symbol(strategyId, symbol);
      const rate = this.rate(sb.asset, into);
      if (rate === undefined) {
        unconverted.add(sb.asset);
        continue;
      }
      sum.realizedGross = sum.realizedGross.plus(new Decimal(sb.realizedGross).mul(rate));
      sum.fees = sum.fees.plus(new Decimal(sb.fees).mul(rate));
      sum.realized = sum.realized.plus(new Decimal(sb.realized).mul(rate));
      if (sb.unrealized !== undefined) sum.unrealized = sum.unrealized.plus(new Decimal(sb.unrealized).mul(rate));
    }
    const r = (d: Decimal): string => d.toDecimalPlaces(SPOT_PNL_DECIMALS, Decimal.ROUND_HALF_UP).toFixed();
    return {
      asset: into, realizedGross: r(sum.realizedGross), fees: r(sum.fees), funding: '0', realized: r(sum.realized), unrealized: r(sum.unrealized),
      net: r(sum.realized.plus(sum.unrealized)), unconverted: [...unconverted].sort(),
    };
  }

  /**
   * Returns a strategy's unrealized PnL now over every symbol it holds, each in its own PnL asset and
   * added as it is (as the realized PnL of the day is); a symbol without a price yet counts 0.
   */
  unrealized(strategyId: string): Decimal {
    const b = this.books.get(strategyId);
    if (b === undefined) return new Decimal(0);
    if (b.pending.length > 0) this.fold(b);
    const held = new Set<string>(Object.keys(b.state.inventory));
    for (const p of Object.values(b.state.positions)) held.add(p.symbol);
    let sum = new Decimal(0);
    for (const symbol of held) {
      if (!this.instruments.has(symbol)) continue;
      const u = this.symbol(strategyId, symbol).unrealized;
      if (u !== undefined) sum = sum.plus(u);
    }
    return sum;
  }

  /** Returns the strategies with a fill. */
  strategies(): string[] {
    return [...this.books.keys()];
  }

  /** Returns what each strategy's book holds on one side of a contract (strategies holding nothing there are left out). */
  heldOn(symbol: string, side: PositionSide): Map<string, string> {
    const out = new Map<string, string>();
    for (const [id, b] of this.books) {
      if (b.pending.length > 0) this.fold(b);
      const qty = b.state.positions[positionKey(symbol, side)]?.qty;
      if (qty !== undefined && new Decimal(qty).gt(0)) out.set(id, qty);
    }
    return out;
  }

  /**
   * Closes `qty` of one strategy's side that the venue closed without an order of the bot's (a
   * liquidation): the quantity leaves the book at its own average (no trading PnL), and `loss` (the
   * share of the position's margin the account lost) is charged to its realized PnL.
   */
  closeOutside(strategyId: string, symbol: string, side: PositionSide, qty: string, loss: string, time: number): void {
    const b = this.books.get(strategyId);
    const inst = this.instruments.get(symbol);
    if (b === undefined || inst === undefined) return;
    if (b.pending.length > 0) this.fold(b);
    const held = b.state.positions[positionKey(symbol, side)];
    if (held === undefined) return;
    const close: FillReport = {
      account: 'contract', symbol, tradeId: `outside:${symbol}:${side}:${time}`, orderId: '', side: side === 'LONG' ? 'SELL_CLOSE' : 'BUY_CLOSE',
      price: held.avgPrice, qty, fee: '0', feeAsset: pnlAsset(inst), maker: false, time,
    };
    const state = foldFills(b.state, [close], this.instruments).state;
    b.state = { ...state, realized: { ...state.realized, [symbol]: new Decimal(state.realized[symbol] ?? '0').minus(loss).toFixed() } };
    // The views were made before: they are made again at the next read.
    b.version += 1;
  }

  /** Returns how many fills a strategy's book holds. */
  fills(strategyId: string): number {
    return this.books.get(strategyId)?.fills ?? 0;
  }

  private refPrice(inst: Instrument): string | undefined {
    const p = this.prices.price(inst.symbol);
    return inst.kind === 'spot' ? p?.last : p?.mark ?? p?.last;
  }

  /** Returns how many `to` one `from` is worth now, from a pair whose base and quote are the two assets. */
  private rate(from: string, to: string): Decimal | undefined {
    if (from === to) return new Decimal(1);
    for (const inst of this.instruments.values()) {
      const ref = this.refPrice(inst);
      if (ref === undefined || new Decimal(ref).isZero()) continue;
      const base = inst.baseAsset;
      const quote = inst.quoteAsset;
      if (base === from && quote === to) return new Decimal(ref);
      if (base === to && quote === from) return new Decimal(1).div(ref);
    }
    return undefined;
  }
}

/** What held() gathers of a symbol's sides: what the view shows of each, what unrealized PnL needs, and the net. */
interface HeldSides {
  readonly sides: BookSide[];
  readonly held: Held[];
  net: Scaled;
}

/** Adds a side of `qty` (not negative) at `avg` to `acc`; nothing for none. */
function addSide(acc: HeldSides, inst: Instrument, side: PositionSide, qty: Scaled, avg: string): void {
  if (qty.units === 0n) return;
  const q = scaledText(qty);
  // Down to the tick, as the venue shows a position's average entry (a strategy compares the two).
  acc.sides.push(Object.freeze({ side, qty: q, avgPrice: formatDown(new Decimal(avg), inst.pricePrecision) }));
  acc.held.push({ side, qty: q, avg });
  acc.net = roundToDecimal(side === 'LONG' ? addScaled(acc.net, qty) : subScaled(acc.net, qty));
}

/** Returns the quantity a book holds on one side ("0" when none): what the strategy may close there (spot holdings are its LONG). */
export function ownSide(book: SymbolBook, side: PositionSide): string {
  return book.sides.find((s) => s.side === side)?.qty ?? '0';
}

/** Returns the frozen view of `v` at `ref`; its unrealized PnL is figured when first read (most reads want the position only). */
function viewAt(v: HeldView, inst: Instrument, ref: string | undefined): SymbolBook {
  let unrealized: string | undefined | null = null;
  const b = v.base;
  // Written out, not spread: a literal of one fixed shape is made fast (one is made whenever the price moved).
  return Object.freeze({
    symbol: b.symbol, net: b.net, sides: b.sides, asset: b.asset, realizedGross: b.realizedGross, fees: b.fees, funding: b.funding, realized: b.realized,
    get unrealized(): string | undefined {
      if (unrealized === null) unrealized = unrealizedOf(v, inst, ref);
      return unrealized;
    },
  });
}

/** Returns the unrealized PnL of what is held at `ref`, rounded (0 when nothing is held; undefined without a price). */
function unrealizedOf(v: HeldView, inst: Instrument, ref: string | undefined): string | undefined {
  let u = new Decimal(0);
  if (v.held.length > 0) {
    if (ref === undefined) return undefined;
    const price = new Decimal(ref);
    const multiplier = new Decimal(inst.multiplier);
    for (const h of v.held) u = u.plus(sidePnl(inst.kind, h.side, new Decimal(h.qty), new Decimal(h.avg), price, multiplier));
  }
  return u.toDecimalPlaces(v.dp, Decimal.ROUND_HALF_UP).toFixed();
}

/** Returns a fill's fee valued in its symbol's PnL asset (a fee in the base asset at the fill price; another asset counts 0 here). */
function feeValue(f: OrderFill, inst: Instrument): Scaled {
  const fee = scaled(f.fee, 'fee');
  if (fee.units === 0n) return fee;
  if (inst.kind !== 'spot') return fee;
  if (f.feeAsset === inst.quoteAsset) return fee;
  if (f.feeAsset === inst.baseAsset) return mulScaled(fee, scaled(f.price, 'price'));
  return SCALED_ZERO;
}

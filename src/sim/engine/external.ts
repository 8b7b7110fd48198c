/** A spot market driven from outside the engine (a replayed recording): its book and trades are set by the driver, its orders matched by an injected matcher, settled here. */
import type { BookEntry, BookSide } from '../book/order-book.ts';
import { fmtAmount, toAmount } from '../ledger/amount.ts';
import type { AccountId } from '../ledger/types.ts';
import type { EngineCore } from './core.ts';
import type { SimInstrument } from './instruments.ts';
import type { ExternalMatcher } from './matcher.ts';
import { ownFill, releaseRest } from './spot.ts';

/** One recorded price level shown on the engine's book: not an order of anyone, only its size. */
class RecordedLevel implements BookEntry {
  prev: BookEntry | null = null;
  next: BookEntry | null = null;
  level: BookEntry['level'] = null;
  /** No account has owner 0, so no order of the venue ever self-trades with a recorded level. */
  readonly owner = 0;

  constructor(readonly priceTicks: number, readonly bookSide: BookSide, public leaves: number) {}
}

/** What the counterparty of every fill holds of each asset: more than any run can take. */
const MARKET_FUNDS = toAmount('1000000000000000');

/** Terminal ends the matcher may give an order. */
export type ExternalEnd = 'EXPIRED' | 'FILLED';

/**
 * The external market of one spot symbol. Its book holds only the recorded levels, so depth, book
 * tickers, diffs and the LIMIT_MAKER check read the recording; the venue's own orders never rest on
 * it (the matcher holds them), so the public book is the recording level by level. Every fill is
 * settled against one counterparty account, funded without limit and charged no fee, so the
 * ledger stays balanced; the order's own account pays its maker or taker fee as on any fill.
 */
export class ExternalMarket {
  private readonly levels: [Map<number, RecordedLevel>, Map<number, RecordedLevel>] = [new Map(), new Map()];
  private readonly counterparty: AccountId;

  constructor(private readonly core: EngineCore, readonly inst: SimInstrument, matcher: ExternalMatcher) {
    if (inst.kind !== 'spot' || inst.external !== undefined) throw new Error(`${inst.symbol}: only a spot symbol without an external market can take one`);
    const ledger = core.ledger;
    const user = ledger.createUser({ name: `recorded-market-${inst.symbol}` });
    for (const asset of [inst.baseAsset, inst.quoteAsset]) ledger.deposit(user, asset, MARKET_FUNDS);
    this.counterparty = ledger.accountId(user, 1, 0);
    ledger.setSpotFees({ maker: '0', taker: '0' }, this.counterparty);
    inst.external = matcher;
  }

  /** Sets a recorded level's size (0 removes it) and publishes the change. */
  setLevel(side: BookSide, priceTicks: number, lots: number): void {
    const book = this.inst.book;
    const map = this.levels[side];
    const e = map.get(priceTicks);
    if (e !== undefined) {
      if (e.leaves === lots) return;
      book.remove(e);
      if (lots > 0) {
        e.leaves = lots;
        book.add(e);
      } else {
        map.delete(priceTicks);
      }
    } else if (lots > 0) {
      const made = new RecordedLevel(priceTicks, side, lots);
      map.set(priceTicks, made);
      book.add(made);
    }
    this.core.finish(this.inst, false);
  }

  /** Removes every recorded level (a recording starting again). */
  clear(): void {
    for (const side of [0, 1] as const) for (const p of [...this.levels[side].keys()]) this.setLevel(side, p, 0);
  }

  /** Records a public trade of the recording: trades list, klines, ticker and their events. */
  trade(priceTicks: number, lots: number, takerBuy: boolean): void {
    this.core.publicTradeQuiet(this.inst, priceTicks, lots, takerBuy);
    this.core.finish(this.inst, true);
  }

  /**
   * Settles one fill of the venue's order `orderId` at `priceTicks` and returns its fee; an order the
   * engine no longer holds active (cancelled meanwhile) gets nothing and pays nothing.
   */
  fill(orderId: string, priceTicks: number, lots: number, isMaker: boolean): { fee: string; feeAsset: string } {
    const o = this.core.orders.get(orderId);
    if (o === undefined || !o.active || o.inst !== this.inst || lots <= 0) return { fee: '0', feeAsset: '' };
    const core = this.core;
    const inst = this.inst;
    const buy = o.side === 'BUY';
    const qty = inst.lotsAmount(lots);
    const paid = inst.quoteAmount(priceTicks, lots);
    const rates = core.ledger.spotFeesOf(o.accountId);
    const rate = isMaker ? rates.maker : rates.taker;
    // A limit buy locked at its own price; a market buy locked its amount and is released as it pays; a sell locked its base.
    const release = !buy ? qty : o.quoteBudget !== Infinity || o.priceTicks === priceTicks ? paid : inst.quoteAmount(o.priceTicks, lots);
    const fee = buy ? inst.baseFee(lots, rate) : inst.quoteFee(priceTicks * lots, paid, rate);
    core.ledger.lock(this.counterparty, buy ? inst.baseAsset : inst.quoteAsset, buy ? qty : paid);
    if (buy) core.ledger.settleSpotFees(inst.baseAsset, inst.quoteAsset, qty, paid, o.accountId, release, this.counterparty, qty, fee, 0n);
    else core.ledger.settleSpotFees(inst.baseAsset, inst.quoteAsset, qty, paid, this.counterparty, paid, o.accountId, release, 0n, fee);
    o.locked -= release;
    if (fee !== 0n) o.fee += fee;
    core.touch(o.accountId, inst.baseAsset);
    core.touch(o.accountId, inst.quoteAsset);
    const now = core.clock.now();
    o.addFill(lots, priceTicks, now);
    if (o.quoteBudget !== Infinity) o.quoteBudget -= priceTicks * lots;
    // The fill's trade id; the recording's own trades are the public ones, so this fill is not published as one.
    core.tradeIds.take();
    ownFill(core, o, now, priceTicks, lots, fee, isMaker);
    const done = o.quoteBudget === Infinity && o.executedLots >= o.origLots;
    o.status = done ? 'FILLED' : 'PARTIALLY_FILLED';
    if (done) releaseRest(core, o);
    core.emitOrder(o, 'TRADE');
    core.finish(inst, false);
    return { fee: fmtAmount(fee), feeAsset: o.feeAsset };
  }

  /** Ends an order the matcher is done with: FILLED for a market buy whose amount is spent, EXPIRED for a remainder it will not rest; an inactive order is left as it is. */
  end(orderId: string, how: ExternalEnd): void {
    const o = this.core.orders.get(orderId);
    if (o === undefined || !o.active || o.inst !== this.inst) return;
    const core = this.core;
    o.status = how === 'FILLED' ? 'FILLED' : 'CANCELED';
    o.updateTime = core.clock.now();
    releaseRest(core, o);
    core.emitOrder(o, how === 'FILLED' ? 'TRADE' : 'EXPIRED');
    core.finish(this.inst, false);
  }
}


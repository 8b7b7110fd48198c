/**
 * A spot account of the backtest exchange on the simulated venue's ledger: an order locks quote
 * (buy) or base (sell) as the venue does, and each fill is settled by the ledger's spot settlement
 * with the venue's maker/taker fees (charged in the asset received). The other side of every fill
 * is the recorded market, held in the same ledger as one well-funded counterparty account without
 * fees, so the ledger stays balanced.
 */
import type { Clock } from '../../core/clock.ts';
import { EngineCore } from '../../sim/engine/core.ts';
import type { SimInstrument } from '../../sim/engine/instruments.ts';
import { fmtAmount, ledgerAmount, toAmount, type Amount } from '../../sim/ledger/amount.ts';
import { Ledger } from '../../sim/ledger/ledger.ts';
import { RoundTrips } from '../trades.ts';
import { BACKTEST_FLOWS, type AccountOrder, type ExchangeAccount, type FillSettlement } from './account.ts';
import { checkSpot } from './venue-check.ts';

/** How the account starts. */
export interface SpotAccountOptions {
  readonly clock: Clock;
  readonly inst: SimInstrument;
  /** Starting balances by asset, decimal texts. */
  readonly balances: Readonly<Record<string, string>>;
  readonly makerFee?: string;
  readonly takerFee?: string;
}

/** What the market counterparty holds of each asset: more than any run can take. */
const MARKET_FUNDS = toAmount('1000000000000000');

/** The backtest's spot account for one symbol. */
export class SpotAccount implements ExchangeAccount {
  readonly ledger: Ledger;
  readonly accountId: string;
  private readonly market: string;
  private readonly base: string;
  private readonly quote: string;
  /** Round trips of the base bought and sold here (flat to flat in base received), their PnL: the quote flows, net of fees. */
  readonly trips = new RoundTrips();
  /** Base bought less sold through this account's fills. */
  private net = 0n;
  /** Funds still locked per open order. */
  private readonly held = new Map<string, Amount>();
  /** The venue engine's state its order validation reads: this instrument and this ledger. */
  private readonly core: EngineCore;

  constructor(private readonly o: SpotAccountOptions) {
    const inst = o.inst;
    if (!inst.spot) throw new Error(`${inst.symbol} is not a spot symbol`);
    this.base = inst.baseAsset;
    this.quote = inst.quoteAsset;
    this.ledger = new Ledger({ clock: o.clock, spotFees: { maker: o.makerFee ?? '0.001', taker: o.takerFee ?? '0.001' }, maxFlowsPerAccount: BACKTEST_FLOWS });
    const user = this.ledger.createUser();
    for (const [asset, text] of Object.entries(o.balances)) {
      const a = toAmount(text, `balances.${asset}`);
      if (a > 0n) this.ledger.deposit(user, asset, a);
    }
    this.accountId = this.ledger.accountId(user, 1, 0);
    const market = this.ledger.createUser();
    for (const asset of [this.base, this.quote]) this.ledger.deposit(market, asset, MARKET_FUNDS);
    this.market = this.ledger.accountId(market, 1, 0);
    this.ledger.setSpotFees({ maker: '0', taker: '0' }, this.market);
    this.core = new EngineCore(o.clock, this.ledger, 'backtest', false);
    this.core.instruments.set(inst.symbol, inst);
  }

  check(x: AccountOrder): number {
    return checkSpot(this.core, this.o.inst, this.accountId, x);
  }

  reserve(x: AccountOrder): number {
    const buy = x.req.side === 'BUY';
    const asset = buy ? this.quote : this.base;
    const free = this.ledger.balance(this.accountId, asset).free;
    const inst = this.o.inst;
    // A buy locks its limit's worth, a MARKET BUY its amount; a sell its base.
    const need = !buy ? inst.lotsAmount(x.req.lots) : x.budget >= 0 ? BigInt(x.budget) * inst.qunit.amount : inst.quoteAmount(x.limitTicks, x.req.lots);
    if (need <= 0n || free < need) return -1131;
    this.ledger.lock(this.accountId, asset, need);
    this.held.set(x.orderId, need);
    return 0;
  }

  fill(x: AccountOrder, priceTicks: number, lots: number, isMaker: boolean): FillSettlement {
    const inst = this.o.inst;
    const buy = x.req.side === 'BUY';
    const qty = inst.lotsAmount(lots);
    const price = BigInt(priceTicks) * inst.tick.amount;
    const paid = inst.quoteAmount(priceTicks, lots);
    const held = this.held.get(x.orderId) ?? 0n;
    // A limit buy locked at its own price; a market buy releases what it pays.
    const release = buy ? (Number.isFinite(x.limitTicks) ? inst.quoteAmount(x.limitTicks, lots) : paid) : qty;
    this.ledger.lock(this.market, buy ? this.base : this.quote, buy ? qty : paid);
    const mine = { accountId: this.accountId, isMaker, release };
    const theirs = { accountId: this.market, isMaker: !isMaker };
    const r = this.ledger.settleSpotFill({ base: this.base, quote: this.quote, price, qty, buyer: buy ? mine : theirs, seller: buy ? theirs : mine });
    this.held.set(x.orderId, held - release);
    // A buyer's base fee is already in the trip: it has that much less base to sell.
    this.net += buy ? qty - r.buyerFee : -qty;
    this.trips.fill(ledgerAmount(buy ? -r.quoteQty : r.quoteQty - r.sellerFee), ledgerAmount(this.net));
    return buy ? { fee: fmtAmount(r.buyerFee), feeAsset: this.base } : { fee: fmtAmount(r.sellerFee), feeAsset: this.quote };
  }

  release(x: AccountOrder): void {
    const h = this.held.get(x.orderId);
    if (h === undefined) return;
    this.held.delete(x.orderId);
    if (h > 0n) this.ledger.unlock(this.accountId, x.req.side === 'BUY' ? this.quote : this.base, h);
  }

  /** Returns an asset's balance (free and locked). */
  balance(asset: string): { free: Amount; locked: Amount } {
    return this.ledger.balance(this.accountId, asset);
  }

  /** Returns mark-to-market equity in the quote asset at `markTicks`. */
  equity(markTicks: number): Amount {
    const b = this.balance(this.base);
    const q = this.balance(this.quote);
    const price = BigInt(markTicks) * this.o.inst.tick.amount;
    return q.free + q.locked + ((b.free + b.locked) * price) / 10n ** 18n;
  }
}

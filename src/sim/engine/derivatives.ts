/** The contract market around the books: index prices and EDP, mark prices (index plus a decaying basis), funding every 8 hours on the clock, and the contract-info, funding-rate, insurance and index views. */
import { divRound, fmtAmount, ONE, roundToStep, toAmount, type Amount } from '../ledger/amount.ts';
import { FundingSchedule, IndexPrices, type FundingRecord, type FundingResult } from '../contracts/index.ts';
import { emitPosition, liquidate, type ContractDesk } from './contract.ts';
import type { SimInstrument } from './instruments.ts';
import { clampLimit, needInstrument } from './market.ts';
import { invalidParam } from './reject.ts';

/** Decimals of a published EDP (the venue's samples: 8258.98505556); the exact mean of the samples would print 18. */
const EDP_DECIMALS = 8;

/** How funding behaves. */
export interface FundingConfig {
  /** A fixed rate per contract symbol (decimal string); other contracts pay the premium rate. */
  rates?: Readonly<Record<string, string>>;
  /** Largest premium rate in either direction (default "0.0075"). */
  maxRate?: string;
  /** Settlement interval (default 8 h) and offset of the boundaries from the epoch (default 4 h: 04:00, 12:00, 20:00 UTC). */
  intervalMs?: number;
  offsetMs?: number;
}

/** Share of the gap between the current premium and the basis that one index update closes: 1/10. */
const BASIS_STEP_DEN = 10n;

/** One entry of /openapi/v1/contracts. */
export interface ContractInfoView {
  symbol: string;
  symbolName: string;
  baseToken: string;
  quoteToken: string;
  lastPrice: string;
  baseVolume: string;
  quoteVolume: string;
  bid: string;
  ask: string;
  high: string;
  low: string;
  productType: string;
  openInterest: string;
  indexPrice: string;
  index: string;
  indexBaseToken: string;
  startTs: string;
  endTs: string;
  fundingRate: string;
  nextFundingRate: string;
  /** Seconds (venue-notes.md §5). */
  nextFundingRateTs: number;
}

/** One funding-rate entry (ids and times as strings, as the published sample). */
export interface FundingRateView {
  symbol: string;
  intervalStart: string;
  intervalEnd: string;
  rate: string;
  index: string;
}

/** One insurance record. */
export interface InsuranceView {
  id: string;
  timestamp: number;
  value: string;
  unit: string;
}

/**
 * Index, mark and funding of every contract. The mark of a contract is its index plus a basis that
 * moves a tenth of the way toward the current premium (book mid − index; 0 while a side of the book
 * is empty, so the basis decays) at every index update: a lasting premium shows in the mark while a
 * single wild quote or trade does not; the mark is rounded down to the tick. The premium funding rate
 * is basis / index, clamped to ±maxRate. Every mark change checks liquidations.
 */
export class ContractMarket {
  readonly indexes: IndexPrices;
  readonly funding: FundingSchedule;
  private readonly basis = new Map<string, Amount>();
  private readonly fixedRates = new Map<string, Amount>();
  private readonly maxRate: Amount;

  constructor(private readonly desk: ContractDesk, cfg: FundingConfig = {}) {
    const core = desk.core;
    this.indexes = new IndexPrices(core.clock);
    for (const [symbol, r] of Object.entries(cfg.rates ?? {})) this.fixedRates.set(symbol, toAmount(r, `funding.rates.${symbol}`));
    this.maxRate = toAmount(cfg.maxRate ?? '0.0075', 'funding.maxRate');
    this.funding = new FundingSchedule(core.clock, desk.positions, this.indexes, {
      rate: (symbol) => this.rateOf(symbol),
      mark: (symbol) => {
        const inst = core.instruments.get(symbol);
        return inst ? desk.mark(inst) : undefined;
      },
    }, {
      ...(cfg.intervalMs !== undefined ? { intervalMs: cfg.intervalMs } : {}),
      ...(cfg.offsetMs !== undefined ? { offsetMs: cfg.offsetMs } : {}),
      onSettled: (symbol, result, record) => this.settled(symbol, result, record),
    });
  }

  /** Returns the contracts on an index symbol. */
  private onIndex(index: string): SimInstrument[] {
    return [...this.desk.core.instruments.values()].filter((i) => i.contract?.index === index);
  }

  /** Returns the index symbols of the configured contracts, sorted. */
  indexSymbols(): string[] {
    return [...new Set([...this.desk.core.instruments.values()].flatMap((i) => (i.contract ? [i.contract.index] : [])))].sort();
  }

  /** Records a new index price, moves the marks of its contracts and liquidates the positions they cross. */
  setIndex(index: string, price: Amount): void {
    if (!this.indexSymbols().includes(index)) throw invalidParam('index', 'no contract is on this index');
    if (price <= 0n) throw invalidParam('price', 'an index price must be positive');
    this.indexes.set(index, price);
    const core = this.desk.core;
    for (const inst of this.onIndex(index)) {
      const spec = this.desk.positions.spec(inst.symbol);
      const premium = this.fairOf(inst, price) - price;
      const b = this.basis.get(inst.symbol) ?? 0n;
      const next = b + divRound(premium - b, BASIS_STEP_DEN, 'trunc');
      this.basis.set(inst.symbol, next);
      let mark = roundToStep(price + next, spec.tickSize, 'floor');
      if (mark <= 0n) mark = spec.tickSize;
      this.desk.marks.set(inst.symbol, mark);
      if (core.eventsOn) {
        core.emit({ type: 'mark', symbol: inst.symbol, index, indexPrice: fmtAmount(price), markPrice: fmtAmount(mark, spec.priceDecimals) });
      }
      liquidate(this.desk, inst);
      core.finish(inst, false);
    }
  }

  /** Returns the price the book says the contract is worth: its mid, or the index itself when a side is empty (no premium). */
  private fairOf(inst: SimInstrument, index: Amount): Amount {
    const bid = inst.book.bestBid();
    const ask = inst.book.bestAsk();
    if (bid !== undefined && ask !== undefined) return ((BigInt(bid) + BigInt(ask)) * inst.tick.amount) / 2n;
    return index;
  }

  /** Returns the funding rate of `symbol` for the running interval: the fixed rate, else basis / index clamped to ±maxRate. */
  rateOf(symbol: string): Amount {
    const fixed = this.fixedRates.get(symbol);
    if (fixed !== undefined) return fixed;
    const inst = this.desk.core.instruments.get(symbol);
    const index = inst?.contract ? this.indexes.index(inst.contract.index) : undefined;
    const b = this.basis.get(symbol) ?? 0n;
    if (index === undefined || b === 0n) return 0n;
    const r = divRound(b * ONE, index, 'trunc');
    return r > this.maxRate ? this.maxRate : r < -this.maxRate ? -this.maxRate : r;
  }

  /** Emits the payments of a settlement as balance, funding and position events. */
  private settled(symbol: string, result: FundingResult, record: FundingRecord): void {
    const core = this.desk.core;
    const inst = core.instruments.get(symbol)!;
    const spec = this.desk.positions.spec(symbol);
    for (const p of result.payments) {
      core.touch(p.accountId, spec.marginToken);
      if (core.eventsOn) {
        core.emit({ type: 'funding', account: p.accountId, symbol, side: p.side, rate: fmtAmount(record.rate), amount: fmtAmount(p.amount), asset: spec.marginToken, intervalEnd: record.intervalEnd });
      }
      emitPosition(this.desk, p.accountId, inst, p.side);
    }
    core.finish(inst, false);
  }

  /** Returns the basis of every contract (for state export), sorted by symbol. */
  basisData(): [string, string][] {
    return [...this.basis.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, v.toString()]);
  }

  /** Restores the basis of contracts. */
  restoreBasis(data: readonly [string, string][]): void {
    for (const [k, v] of data) this.basis.set(k, BigInt(v));
  }

  // ---- views -------------------------------------------------------------------------------------------

  /** Returns the open interest of a contract: the contracts held long (equal to those held short). */
  openInterest(symbol: string): Amount {
    return this.desk.positions.ofSymbol(symbol).reduce((sum, p) => (p.side === 'LONG' ? sum + p.position : sum), 0n);
  }

  /** Returns the funding-rate entries: state "current" (default) the predicted rate of the running interval, "past" settled ones newest first. */
  fundingRates(q: { symbol?: string; state?: string; from?: number; endTime?: number; limit?: number } = {}): FundingRateView[] {
    const symbols = this.contractSymbols(q.symbol);
    const state = q.state ?? 'current';
    if (state !== 'current' && state !== 'past') throw invalidParam('state', 'must be current or past');
    const view = (r: FundingRecord): FundingRateView => ({
      symbol: r.symbol, intervalStart: String(r.intervalStart), intervalEnd: String(r.intervalEnd), rate: fmtAmount(r.rate), index: r.index === undefined ? '0' : fmtAmount(r.index),
    });
    if (state === 'current') return symbols.map((s) => view(this.funding.currentRate(s)));
    const list = this.funding.records().filter((r) => symbols.includes(r.symbol) && (q.from === undefined || r.intervalEnd >= q.from) && (q.endTime === undefined || r.intervalEnd <= q.endTime));
    return list.slice(-clampLimit(q.limit, 20, 1000)).reverse().map(view);
  }

  /** Returns the insurance records keyed by margin token, newest first (fromId: ids below it; toId: ids above it). */
  insurance(q: { symbol?: string; fromId?: string; toId?: string; limit?: number } = {}): Record<string, InsuranceView[]> {
    const tokens = [...new Set(this.contractSymbols(q.symbol).map((s) => this.desk.positions.spec(s).marginToken))].sort();
    const from = q.fromId ? BigInt(q.fromId) : undefined;
    const to = q.toId ? BigInt(q.toId) : undefined;
    const limit = clampLimit(q.limit, 20, 1000);
    const out: Record<string, InsuranceView[]> = {};
    for (const t of tokens) {
      const recs = this.desk.core.ledger.insuranceRecords(t).filter((r) => (from === undefined || BigInt(r.id) < from) && (to === undefined || BigInt(r.id) > to));
      out[t] = recs.slice(-limit).reverse().map((r) => ({ id: r.id, timestamp: r.timestamp, value: fmtAmount(r.value), unit: r.unit }));
    }
    return out;
  }

  /** Returns the index and EDP (a mean, cut to EDP_DECIMALS) of index symbols (all when `symbols` is absent; a comma-separated list otherwise). */
  indexView(symbols?: string): { index: Record<string, string>; edp: Record<string, string> } {
    const wanted = symbols ? symbols.split(',').map((s) => s.trim()).filter((s) => s !== '') : this.indexSymbols();
    const index: Record<string, string> = {};
    const edp: Record<string, string> = {};
    for (const s of wanted) {
      const i = this.indexes.index(s);
      const e = this.indexes.edp(s);
      if (i !== undefined) index[s] = fmtAmount(i);
      if (e !== undefined) edp[s] = fmtAmount(e, EDP_DECIMALS);
    }
    return { index, edp };
  }

  /** Returns the contract-info entries of /openapi/v1/contracts. */
  contractInfo(now: number): ContractInfoView[] {
    return this.contractSymbols().map((symbol) => {
      const inst = this.desk.core.instruments.get(symbol)!;
      const c = inst.contract!;
      const t = inst.klines.ticker(now);
      const bid = inst.book.bestBid();
      const ask = inst.book.bestAsk();
      const index = this.indexes.index(c.index);
      const last = this.funding.records(symbol).at(-1);
      const nextTs = this.funding.nextFundingTime();
      return {
        symbol, symbolName: symbol, baseToken: symbol, quoteToken: c.marginToken,
        lastPrice: t ? inst.priceText(t.close) : '0',
        baseVolume: t ? inst.qtyText(t.volume) : '0',
        quoteVolume: t ? fmtAmount(t.quote * inst.qunit.amount) : '0',
        bid: bid === undefined ? '0' : inst.priceText(bid),
        ask: ask === undefined ? '0' : inst.priceText(ask),
        high: t ? inst.priceText(t.high) : '0',
        low: t ? inst.priceText(t.low) : '0',
        productType: 'futures',
        openInterest: fmtAmount(this.openInterest(symbol)),
        indexPrice: index === undefined ? '0' : fmtAmount(index),
        index: c.index,
        indexBaseToken: inst.quoteAsset,
        startTs: String(Math.floor((now - 86_400_000) / 1000)),
        endTs: String(Math.floor(now / 1000)),
        fundingRate: last ? fmtAmount(last.rate) : '0',
        nextFundingRate: fmtAmount(this.rateOf(symbol)),
        nextFundingRateTs: Math.floor(nextTs / 1000),
      };
    });
  }

  private contractSymbols(symbol?: string): string[] {
    if (symbol !== undefined) return [needInstrument(this.desk.core.instruments, symbol, 'contract').symbol];
    return [...this.desk.core.instruments.values()].filter((i) => i.contract).map((i) => i.symbol);
  }
}

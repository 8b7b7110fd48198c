/**
 * Funding every 8 hours of clock time: each position pays or receives position value × rate
 * (positive rate: longs pay shorts). Payments go through the clearing pool in one balanced step;
 * payers are charged the amount rounded up, receivers get it rounded down, and the residue
 * (collected − paid, which rounding makes ≥ 0 when open interest is matched) moves to the
 * insurance fund; a negative residue (payers who could not pay, unmatched interest) is drawn from the fund.
 */
import type { Clock, TimerHandle } from '../../core/clock.ts';
import { FUNDING_INTERVAL_MS } from '../../model/market.ts';
import { divRound, type Amount } from '../ledger/amount.ts';
import type { PoolPosting, Posting } from '../ledger/types.ts';
import type { IndexPrices } from './index-price.ts';
import { positionValue } from './math.ts';
import type { Positions } from './positions.ts';

export { FUNDING_INTERVAL_MS };

/** One settled funding interval, as the fundingRate endpoint lists it. */
export interface FundingRecord {
  readonly symbol: string;
  readonly intervalStart: number;
  readonly intervalEnd: number;
  readonly rate: Amount;
  /** Index price at settlement (undefined when the symbol's index has none yet). */
  readonly index: Amount | undefined;
}

/** What one position paid (negative) or received (positive) at a funding settlement. */
export interface FundingPayment {
  readonly accountId: string;
  readonly side: 'LONG' | 'SHORT';
  readonly amount: Amount;
}

/** What one funding settlement moved. */
export interface FundingResult {
  /** Per position, in account then side order. */
  readonly payments: readonly FundingPayment[];
  readonly collected: Amount;
  readonly paid: Amount;
  /** collected − paid, moved to the insurance fund (negative: drawn from it). */
  readonly residue: Amount;
  /** Payments that payers could not make. */
  readonly unpaid: Amount;
}

/**
 * Settles funding of `symbol` at `rate` with position values at `markPrice`. A payer pays from free
 * funds first, then from the position's margin; what it cannot pay is unpaid.
 */
export function settleFunding(positions: Positions, symbol: string, rate: Amount, markPrice: Amount): FundingResult {
  const spec = positions.spec(symbol);
  const token = spec.marginToken;
  const ledger = positions.ledger;
  const legs: Posting[] = [];
  const marginChanges: { accountId: string; side: 'LONG' | 'SHORT'; margin: Amount; realized: Amount }[] = [];
  let collected = 0n;
  let paid = 0n;
  let unpaid = 0n;
  const freeLeft = new Map<string, Amount>();
  const payments: FundingPayment[] = [];
  if (rate !== 0n) {
    for (const p of positions.ofSymbol(symbol)) {
      const value = positionValue(spec, p.position, markPrice, 'floor');
      const pays = (p.side === 'LONG') === rate > 0n;
      const absRate = rate < 0n ? -rate : rate;
      if (pays) {
        const due = divRound(value * absRate, 10n ** 18n, 'ceil');
        const free = freeLeft.get(p.accountId) ?? ledger.balance(p.accountId, token).free;
        const fromFree = free < due ? free : due;
        const fromMargin = p.margin < due - fromFree ? p.margin : due - fromFree;
        freeLeft.set(p.accountId, free - fromFree);
        unpaid += due - fromFree - fromMargin;
        collected += fromFree + fromMargin;
        legs.push({ accountId: p.accountId, asset: token, free: -fromFree, locked: -fromMargin, flow: 'FUNDING_SETTLEMENT' });
        marginChanges.push({ accountId: p.accountId, side: p.side, margin: -fromMargin, realized: -(fromFree + fromMargin) });
        payments.push({ accountId: p.accountId, side: p.side, amount: -(fromFree + fromMargin) });
      } else {
        const gets = divRound(value * absRate, 10n ** 18n, 'floor');
        paid += gets;
        freeLeft.set(p.accountId, (freeLeft.get(p.accountId) ?? ledger.balance(p.accountId, token).free) + gets);
        legs.push({ accountId: p.accountId, asset: token, free: gets, flow: 'FUNDING_SETTLEMENT' });
        marginChanges.push({ accountId: p.accountId, side: p.side, margin: 0n, realized: gets });
        payments.push({ accountId: p.accountId, side: p.side, amount: gets });
      }
    }
  }
  let residue = collected - paid;
  const pools: PoolPosting[] = [{ pool: 'clearing', asset: token, delta: collected - paid }];
  if (residue < 0n) {
    const fund = ledger.insuranceFund(token);
    const draw = fund >= -residue ? -residue : fund > 0n ? fund : 0n;
    residue = -draw;
  }
  pools.push({ pool: 'clearing', asset: token, delta: -residue }, { pool: 'insurance', asset: token, delta: residue });
  ledger.post(legs, pools);
  for (const c of marginChanges) positions.adjust(c.accountId, symbol, c.side, c.margin, c.realized);
  return { payments, collected, paid, residue, unpaid };
}

/** Where funding rates and mark prices come from. */
export interface FundingSources {
  /** Returns the rate of `symbol` for the interval starting at `intervalStart`. */
  rate(symbol: string, intervalStart: number): Amount;
  /** Returns the mark price positions are valued at. */
  mark(symbol: string): Amount | undefined;
}

/**
 * Offset of the funding boundaries from multiples of 8 h since the epoch: the published fundingRate
 * sample runs 1570708800000 → 1570737600000 (12:00 → 20:00 UTC), so boundaries fall at 04:00, 12:00, 20:00 UTC.
 */
export const FUNDING_OFFSET_MS = 4 * 3600_000;

/** Runs funding of every contract at each 8-hour boundary of the clock and keeps the records. */
export class FundingSchedule {
  private readonly recs: FundingRecord[] = [];
  private timer: TimerHandle | undefined;
  private readonly intervalMs: number;
  private readonly offsetMs: number;
  private readonly onSettled: ((symbol: string, result: FundingResult, record: FundingRecord) => void) | undefined;
  private readonly afterInstant: boolean;

  constructor(
    private readonly clock: Clock,
    private readonly positions: Positions,
    private readonly indexes: IndexPrices,
    private readonly sources: FundingSources,
    opts: {
      intervalMs?: number;
      offsetMs?: number;
      onSettled?: (symbol: string, result: FundingResult, record: FundingRecord) => void;
      /** Settle after whatever else the clock runs at the boundary's instant (a bar's close there moves the mark first). */
      afterInstant?: boolean;
    } = {},
  ) {
    this.onSettled = opts.onSettled;
    this.afterInstant = opts.afterInstant ?? false;
    this.intervalMs = opts.intervalMs ?? FUNDING_INTERVAL_MS;
    this.offsetMs = opts.offsetMs ?? FUNDING_OFFSET_MS;
  }

  /** Returns the start of the interval running at the clock's time. */
  private intervalStart(): number {
    return Math.floor((this.clock.now() - this.offsetMs) / this.intervalMs) * this.intervalMs + this.offsetMs;
  }

  /** Returns the time of the next funding settlement. */
  nextFundingTime(): number {
    return this.intervalStart() + this.intervalMs;
  }

  /** Starts settling at each boundary. */
  start(): void {
    if (this.timer) return;
    const first = this.nextFundingTime() - this.clock.now();
    // A timer set at the instant runs after the ones already due then (the clock keeps their order).
    const settle = this.afterInstant ? (): void => void this.clock.setTimeout(() => this.settleAll(), 0) : (): void => void this.settleAll();
    this.timer = this.clock.setTimeout(() => {
      settle();
      this.timer = this.clock.setInterval(settle, this.intervalMs);
    }, first);
  }

  /** Stops the schedule. */
  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Settles every contract for the interval that ends now; returns the results by symbol. */
  settleAll(): Map<string, FundingResult> {
    const end = this.intervalStart();
    const start = end - this.intervalMs;
    const out = new Map<string, FundingResult>();
    for (const spec of this.positions.allSpecs()) {
      const mark = this.sources.mark(spec.symbol);
      if (mark === undefined) continue;
      const rate = this.sources.rate(spec.symbol, start);
      const result = settleFunding(this.positions, spec.symbol, rate, mark);
      const record: FundingRecord = { symbol: spec.symbol, intervalStart: start, intervalEnd: end, rate, index: this.indexes.index(spec.index) };
      out.set(spec.symbol, result);
      this.recs.push(record);
      this.onSettled?.(spec.symbol, result, record);
    }
    return out;
  }

  /** Returns the predicted rate of the running interval (state "current"). */
  currentRate(symbol: string): FundingRecord {
    const start = this.intervalStart();
    const spec = this.positions.spec(symbol);
    return { symbol, intervalStart: start, intervalEnd: start + this.intervalMs, rate: this.sources.rate(symbol, start), index: this.indexes.index(spec.index) };
  }

  /** Adds settled records (a restored state's history), oldest first. */
  restore(records: readonly FundingRecord[]): void {
    this.recs.push(...records);
  }

  /** Returns settled records (state "past"), oldest first, optionally of one symbol. */
  records(symbol?: string): FundingRecord[] {
    return this.recs.filter((r) => symbol === undefined || r.symbol === symbol);
  }
}

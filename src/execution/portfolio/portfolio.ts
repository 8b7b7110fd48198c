/**
 * The portfolio: balances, positions and realized and unrealized PnL for spot, inverse and linear
 * instruments, fed by fills (counted once by trade id), by venue snapshots, and between snapshots by
 * the user stream's balance and position events newer than what it holds (overlay.ts); read through
 * `view()` and `snapshot()` (the PortfolioSnapshot the risk gate judges against). Only the executor writes to it.
 */
import { compareDecimal, Decimal, DecimalSum, formatDown, scaleOf } from '../../core/fixed.ts';
import type { BalanceUpdateEvent, Balances, FillReport, Instrument, Position, PositionUpdateEvent } from '../../model/index.ts';
import type { PortfolioSnapshot, SnapshotPosition, SymbolPrices } from '../../risk/index.ts';
import { foldFills, positionKey, aboveWatermark, withParts, EMPTY_ACCOUNT, type AccountState, type ContractPosition, type FillEffect, type Holding } from './accounting.ts';
import { applyOverlays, balanceKey, isNewer, spotHolding, type BalanceOverlay, type PositionOverlay } from './overlay.ts';
import { positionValue, sidePnl } from './pnl.ts';
import { compareIds } from '../reconcile/fills.ts';
import { DAY_MS, type AccountKind } from '../../model/index.ts';

/** What a reader sees. */
export interface PortfolioView {
  readonly spot: Readonly<Record<string, Holding>>;
  readonly contract: AccountState['contract'];
  /** Each contract position with its unrealized PnL and its value (in the margin token), both at the mark (else the last price); undefined without a price. */
  readonly positions: readonly (ContractPosition & { readonly unrealizedPnl: string | undefined; readonly value: string | undefined })[];
  readonly inventory: readonly { symbol: string; qty: string; avgPrice: string; unrealizedPnl: string | undefined }[];
  /** Realized PnL by symbol (fees included). */
  readonly realized: Readonly<Record<string, string>>;
}

/** A venue snapshot to adopt: what the venue reported and the trade ids it includes. */
export interface VenueSnapshot {
  readonly balances?: Balances;
  readonly positions?: readonly Position[];
  /** The largest trade id per account the snapshot includes (the fill ledger's lastId when it was stable across the reads). */
  readonly watermark: Readonly<Partial<Record<AccountKind, string>>>;
  /**
   * Venue time of the snapshot (the REST answers carry none: when its reads were sent, by the clock the
   * venue's times are compared with). Stream events not before it stay laid over it; without a time the
   * snapshot replaces every stream value of what it holds.
   */
  readonly time?: number;
}

/** Balances, positions and PnL; see the module comment. */
export class Portfolio {
  private base: AccountState = EMPTY_ACCOUNT;
  private pending: FillReport[] = [];
  private state: AccountState = EMPTY_ACCOUNT;
  /** The fold of base and pending before the overlays. */
  private folded: AccountState = EMPTY_ACCOUNT;
  /** The largest pending trade id per account. */
  private newest: Partial<Record<AccountKind, string>> = {};
  private effects: FillEffect[] = [];
  /** The time of the latest fill in `effects` (a balance event not before it needs no walk over them). */
  private effectsLatest = -Infinity;
  /** Realized PnL baked in at snapshot adoption: `${day}|${strategy}` → amount (added as decimal.js adds). */
  private baked = new Map<string, DecimalSum>();
  private readonly prices = new Map<string, SymbolPrices>();
  private readonly balanceOverlays = new Map<string, BalanceOverlay>();
  private readonly positionOverlays = new Map<string, PositionOverlay>();
  /** Realized PnL of the last UTC day asked for, by strategy, kept up to date as fills are counted. */
  private today: DaySums | undefined;
  /** Venue time of the balances and of the positions the base holds. */
  private balancesAt = -Infinity;
  private positionsAt = -Infinity;

  constructor(
    private readonly instruments: ReadonlyMap<string, Instrument>,
    /** Returns the strategy an order belongs to (undefined for orders the bot does not know). */
    private readonly strategyOf: (orderId: string) => string | undefined = () => undefined,
  ) {}

  /**
   * Counts fills not counted before (the caller dedupes by trade id; the fold skips what a snapshot
   * already holds). Fills that come after every pending one of their account (the stream's usual order)
   * are folded onto the state held, so a fill costs the same however many came since the last snapshot.
   */
  applyFills(fills: readonly FillReport[]): void {
    const fresh = fills.filter((f) => aboveWatermark(this.base, f));
    if (fresh.length === 0) return;
    const inOrder = fresh.every((f, i) => {
      const prev = i > 0 && fresh[i - 1]!.account === f.account ? fresh[i - 1]!.tradeId : this.newest[f.account];
      return prev === undefined || compareIds(f.tradeId, prev) > 0;
    });
    this.pending.push(...fresh);
    for (const f of fresh) {
      const n = this.newest[f.account];
      if (n === undefined || compareIds(f.tradeId, n) > 0) this.newest[f.account] = f.tradeId;
    }
    if (!inOrder) {
      this.recompute();
      return;
    }
    const r = foldFills(this.folded, fresh, this.instruments);
    this.folded = r.state;
    this.effects.push(...r.effects);
    this.effectsLatest = latestFill(r.effects, this.effectsLatest);
    // The day's sums follow the fills one by one instead of being summed again at every risk check.
    if (this.today !== undefined) for (const e of r.effects) addToDay(this.today, e, this.strategyOf);
    this.overlay();
  }

  /** Lays a stream balance event over the held balances when it is newer than they are (by venue time); returns whether it was taken. */
  applyBalance(ev: BalanceUpdateEvent): boolean {
    const key = balanceKey(ev.account, ev.asset);
    if (!isNewer(ev.ts, this.balancesAt, this.balanceOverlays.get(key))) return false;
    const o: BalanceOverlay = { account: ev.account, asset: ev.asset, free: ev.free, locked: ev.locked, ts: ev.ts };
    this.balanceOverlays.set(key, o);
    // A spot balance changes its own asset's holding only: the others, laid over the same fold, stay as they are.
    if (o.account === 'spot') this.state = withParts(this.state, { spot: { ...this.state.spot, [o.asset]: spotHolding(o, this.effects, this.instruments, this.effectsLatest) } });
    else this.overlay();
    return true;
  }

  /** Lays a stream position event over the held position when it is newer (by venue time); returns whether it was taken. */
  applyPosition(ev: PositionUpdateEvent): boolean {
    const key = positionKey(ev.symbol, ev.side);
    if (!isNewer(ev.ts, this.positionsAt, this.positionOverlays.get(key))) return false;
    this.positionOverlays.set(key, { symbol: ev.symbol, side: ev.side, qty: ev.position, avgPrice: ev.avgPrice, margin: ev.margin, ts: ev.ts });
    this.overlay();
    return true;
  }

  /**
   * Returns true when the newest stream event of some position shows another quantity than the fills
   * imply. A stale event does (until its successor arrives), and so does a change no own fill explains,
   * such as a liquidation: only a venue snapshot can tell which.
   */
  positionsDisagree(): boolean {
    for (const [key, o] of this.positionOverlays) {
      if (compareDecimal(o.qty, this.state.positions[key]?.qty ?? '0') !== 0) return true;
    }
    return false;
  }

  /** Adopts a venue snapshot: balances and positions as the venue reports them, fills up to the watermark folded in; stream values newer than it stay. */
  adopt(s: VenueSnapshot): void {
    if (s.balances !== undefined) this.balancesAt = laterOverlaysOnly(this.balanceOverlays, this.balancesAt, s.time);
    if (s.positions !== undefined) this.positionsAt = laterOverlaysOnly(this.positionOverlays, this.positionsAt, s.time);
    const watermark = { ...this.base.watermark, ...s.watermark };
    const marked = withParts(this.base, { watermark });
    const included = this.pending.filter((f) => !aboveWatermark(marked, f));
    const { state: folded, effects } = foldFills(this.base, included, this.instruments);
    this.bake(effects);
    const positions: Record<string, ContractPosition> = s.positions === undefined ? { ...folded.positions } : {};
    for (const p of s.positions ?? []) {
      if (compareDecimal(p.position, '0') === 0) continue;
      const key = positionKey(p.symbol, p.side);
      const mine = folded.positions[key];
      const inst = this.instruments.get(p.symbol);
      // Keep the exact average when it is what the venue shows rounded down to the tick; else the venue's.
      const keepExact = mine !== undefined && inst !== undefined && compareDecimal(mine.qty, p.position) === 0
        && compareDecimal(formatDown(new Decimal(mine.avgPrice), scaleOf(inst.tickSize)), p.avgPrice) === 0;
      positions[key] = { symbol: p.symbol, side: p.side, qty: p.position, avgPrice: keepExact ? mine.avgPrice : p.avgPrice, margin: p.margin, leverage: p.leverage };
    }
    const spot: Record<string, Holding> = s.balances === undefined ? { ...folded.spot } : {};
    for (const b of s.balances?.spot ?? []) spot[b.asset] = { free: b.free, locked: b.locked };
    this.base = {
      spot, contract: s.balances?.contract ?? folded.contract, positions, inventory: folded.inventory, realized: folded.realized, watermark,
    };
    this.pending = this.pending.filter((f) => aboveWatermark(this.base, f));
    this.recompute();
  }

  /** Sets the last and/or mark price of a symbol (unrealized PnL, the risk gate's price band and margin). */
  setPrice(symbol: string, p: SymbolPrices): void {
    const old = this.prices.get(symbol) ?? {};
    this.prices.set(symbol, { last: p.last ?? old.last, mark: p.mark ?? old.mark, mid: p.mid ?? old.mid });
  }

  /** Returns how many fills are counted above the last snapshot (adopting a snapshot folds them in). */
  pendingFills(): number {
    return this.pending.length;
  }

  /** Returns the last and mark price known of a symbol. */
  price(symbol: string): SymbolPrices | undefined {
    return this.prices.get(symbol);
  }

  /** Returns balances, positions, inventory and PnL. */
  view(): PortfolioView {
    const s = this.state;
    return {
      spot: s.spot,
      contract: s.contract,
      positions: Object.values(s.positions).sort(byKey).map((p) => Object.assign({}, p, { unrealizedPnl: this.unrealized(p.symbol, p.side, p.qty, p.avgPrice), value: this.value(p.symbol, p.qty) })),
      inventory: Object.values(s.inventory).filter((i) => compareDecimal(i.qty, '0') !== 0).sort((a, b) => (a.symbol < b.symbol ? -1 : 1)).map((i) => Object.assign({}, i, {
        unrealizedPnl: compareDecimal(i.qty, '0') > 0
          ? this.unrealized(i.symbol, 'LONG', i.qty, i.avgPrice)
          : this.unrealized(i.symbol, 'SHORT', new Decimal(i.qty).neg().toFixed(), i.avgPrice),
      })),
      realized: s.realized,
    };
  }

  /** Returns realized PnL since the start of the UTC day of `now`, by strategy (fills of unknown orders under "unattributed"). */
  realizedToday(now: number): Record<string, string> {
    const day = Math.floor(now / DAY_MS);
    if (this.today?.day !== day) this.today = this.sumDay(day);
    this.today.text ??= Object.fromEntries([...this.today.sums].map(([k, v]) => [k, v.text()]));
    return this.today.text;
  }

  /** Sums the realized PnL of one UTC day by strategy: what snapshots baked in, then the fills counted since. */
  private sumDay(day: number): DaySums {
    const sums = new Map<string, DecimalSum>();
    for (const [k, v] of this.baked) {
      const [d, strategy] = k.split('|') as [string, string];
      if (Number(d) === day) sumOf(sums, strategy).addText(v.text(), 'realized');
    }
    const out: DaySums = { day, sums, text: undefined };
    for (const e of this.effects) addToDay(out, e, this.strategyOf);
    return out;
  }

  /** Returns the PortfolioSnapshot of this instant for the risk gate (`openOrders`: symbol → strategy → count, from the executor). */
  snapshot(now: number, openOrders: PortfolioSnapshot['openOrders']): PortfolioSnapshot {
    const s = this.state;
    const positions: SnapshotPosition[] = Object.values(s.positions).sort(byKey).map((p) => ({
      symbol: p.symbol, side: p.side, quantity: p.qty, avgPrice: p.avgPrice, margin: p.margin, ...(p.leverage === undefined ? {} : { leverage: p.leverage }),
    }));
    return {
      now,
      spot: s.spot,
      contract: s.contract,
      positions,
      openOrders,
      prices: Object.fromEntries(this.prices),
      pnlToday: this.realizedToday(now),
    };
  }

  private unrealized(symbol: string, side: 'LONG' | 'SHORT', qty: string, avg: string): string | undefined {
    const inst = this.instruments.get(symbol);
    const ref = this.valuationPrice(symbol);
    if (inst === undefined || ref === undefined || compareDecimal(avg, '0') === 0) return undefined;
    return sidePnl(inst.kind, side, new Decimal(qty), new Decimal(avg), new Decimal(ref), new Decimal(inst.multiplier)).toFixed();
  }

  /** Returns a contract position's value at the mark (else the last price), as the venue's positions endpoint figures positionValue. */
  private value(symbol: string, qty: string): string | undefined {
    const inst = this.instruments.get(symbol);
    const ref = this.valuationPrice(symbol);
    if (inst === undefined || ref === undefined || compareDecimal(ref, '0') <= 0) return undefined;
    return positionValue(inst.kind, new Decimal(qty), new Decimal(ref), new Decimal(inst.multiplier)).toFixed();
  }

  /** Returns the price positions are valued at: the last price for spot, the mark (else the last price) for contracts. */
  private valuationPrice(symbol: string): string | undefined {
    const p = this.prices.get(symbol);
    return this.instruments.get(symbol)?.kind === 'spot' ? p?.last : p?.mark ?? p?.last;
  }

  /**
   * Lays the stream overlays over the fold held. The fold only changes with fills and snapshots, so a
   * stream event costs the overlays, not a refold of every fill pending since the last snapshot.
   */
  private overlay(): void {
    this.state = applyOverlays(this.folded, this.effects, this.balanceOverlays, this.positionOverlays, this.instruments, this.effectsLatest);
  }

  private recompute(): void {
    this.today = undefined;
    const r = foldFills(this.base, this.pending, this.instruments);
    this.folded = r.state;
    this.effects = r.effects;
    this.effectsLatest = latestFill(r.effects, -Infinity);
    this.state = applyOverlays(r.state, r.effects, this.balanceOverlays, this.positionOverlays, this.instruments, this.effectsLatest);
    this.newest = {};
    for (const f of this.pending) {
      const n = this.newest[f.account];
      if (n === undefined || compareIds(f.tradeId, n) > 0) this.newest[f.account] = f.tradeId;
    }
  }

  /** Adds the PnL of fills about to leave `pending` (a snapshot now holds them) to the baked sums. */
  private bake(effects: readonly FillEffect[]): void {
    for (const e of effects) {
      const key = `${Math.floor(e.fill.time / DAY_MS)}|${this.strategyOf(e.fill.orderId) ?? 'unattributed'}`;
      sumOf(this.baked, key).addText(e.realized, 'realized');
    }
  }
}

/** Realized PnL of one UTC day by strategy, and its texts once asked for. */
interface DaySums {
  readonly day: number;
  /** As decimal.js adds them (DecimalSum: a fill adds to one on every fill). */
  readonly sums: Map<string, DecimalSum>;
  text: Record<string, string> | undefined;
}

/** Returns the latest fill time among `effects`, or `since` when none is later. */
function latestFill(effects: readonly FillEffect[], since: number): number {
  let t = since;
  for (const e of effects) if (e.fill.time > t) t = e.fill.time;
  return t;
}

/** Returns the sum of `key`, a new one (zero) the first time. */
function sumOf(sums: Map<string, DecimalSum>, key: string): DecimalSum {
  let s = sums.get(key);
  if (s === undefined) sums.set(key, (s = new DecimalSum()));
  return s;
}

/** Adds one fill's realized PnL to the day's sums when the fill is of that day. */
function addToDay(d: DaySums, e: FillEffect, strategyOf: (orderId: string) => string | undefined): void {
  if (Math.floor(e.fill.time / DAY_MS) !== d.day) return;
  const strategy = strategyOf(e.fill.orderId) ?? 'unattributed';
  sumOf(d.sums, strategy).addText(e.realized, 'realized');
  d.text = undefined;
}

/** Drops the overlays older than a snapshot at `time` and returns the time stream events must reach from now on (with no time: drops all, returns the newest seen + 1). */
function laterOverlaysOnly(overlays: Map<string, { readonly ts: number }>, since: number, time: number | undefined): number {
  let newest = since;
  for (const [k, o] of overlays) {
    if (time === undefined || o.ts < time) {
      overlays.delete(k);
      newest = Math.max(newest, o.ts);
    }
  }
  return time ?? newest + 1;
}

function byKey(a: ContractPosition, b: ContractPosition): number {
  const x = positionKey(a.symbol, a.side);
  const y = positionKey(b.symbol, b.side);
  return x < y ? -1 : x > y ? 1 : 0;
}

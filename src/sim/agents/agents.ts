/** Seeded market agents that keep the simulated venue alive: a liquidity provider quoting around a reference price process and noise takers, on Clock timers. */
import type { TimerHandle } from '../../core/clock.ts';
import { VenueError } from '../../core/errors.ts';
import { Rng } from '../../core/random.ts';
import { ContractAgents } from './contract-agents.ts';
import { ReferencePrice } from './reference.ts';
import { agentUser, cancelOpenOrders, runSalt, runTag } from './takeover.ts';
import type { AgentsConfig } from '../engine/config.ts';
import type { SimInstrument } from '../engine/instruments.ts';
import { decimalUnits } from '../engine/units.ts';
import type { SimVenue } from '../engine/venue.ts';

interface Quoted {
  inst: SimInstrument;
  ref: ReferencePrice;
  orders: string[];
}

/**
 * The agents of one venue. The liquidity provider and the noise taker are ordinary users of the
 * ledger, funded by deposits at start, so every coin they trade is accounted for. Order sizes and
 * prices are integer lots and ticks turned into venue strings, so the engine sees what a client sends.
 * On a restored venue (SimVenue.fromState) they take over the users an earlier run saved, by name,
 * without funding them again: their references start at the last trade, their clientOrderIds carry a
 * tag of this run, and `start` cancels the quotes the earlier run left resting.
 */
export class MarketAgents {
  private readonly rng: Rng;
  private quoteTimer: TimerHandle | undefined;
  private takeTimer: TimerHandle | undefined;
  private readonly quoted: Quoted[] = [];
  /** The contract agents, when `contractFunds` is configured. */
  readonly contracts: ContractAgents | undefined;
  readonly makerAccount: string;
  readonly takerAccount: string;
  /** Run tag carried by every clientOrderId, so ids never repeat an earlier run's. */
  readonly tag: string;
  /** True when the spot agents took over users saved by an earlier run. */
  readonly tookOver: boolean;
  private n = 0;

  constructor(private readonly venue: SimVenue, private readonly cfg: AgentsConfig, seed: number) {
    const maker = agentUser(venue, 'agent-maker');
    const taker = agentUser(venue, 'agent-taker');
    this.tookOver = maker.found || taker.found;
    const restored = this.tookOver || venue.findUser('agent-contract-maker') !== undefined || venue.findUser('agent-contract-taker') !== undefined;
    this.rng = new Rng(seed ^ 0x5eed ^ (restored ? runSalt(venue) : 0));
    this.tag = runTag(venue, seed);
    for (const [asset, amount] of Object.entries(cfg.funds)) {
      if (!maker.found) venue.deposit(maker.userId, asset, amount);
      if (!taker.found) venue.deposit(taker.userId, asset, amount);
    }
    this.makerAccount = venue.accountOf(maker.userId, 1);
    this.takerAccount = venue.accountOf(taker.userId, 1);
    const symbols = cfg.symbols ?? venue.instrumentsOf('spot').map((i) => i.symbol);
    for (const symbol of symbols) {
      const inst = venue.instrument(symbol);
      if (!inst || inst.kind !== 'spot') throw new Error(`agents: ${symbol} is not a spot symbol of the venue`);
      const ref = cfg.referencePrice[symbol];
      if (ref === undefined) throw new Error(`agents: no referencePrice for ${symbol}`);
      const ticks = decimalUnits(ref, inst.tick);
      if (ticks <= 0) throw new Error(`agents: referencePrice of ${symbol} must be a positive multiple of ${inst.tick.text}`);
      // A taken-over market goes on from where it traded last, not from the configured start.
      const start = (this.tookOver ? inst.klines.lastPrice() : undefined) ?? ticks;
      this.quoted.push({ inst, ref: new ReferencePrice(this.rng, start, cfg.volatility ?? 0.0005, cfg.meanReversion ?? 0.02), orders: [] });
    }
    this.contracts = cfg.contractFunds ? new ContractAgents(venue, cfg, this.rng, this.tag) : undefined;
  }

  /** Starts quoting and taking on the venue's clock (first cancelling what taken-over users left resting). */
  start(): void {
    if (this.quoteTimer) return;
    if (this.tookOver) {
      cancelOpenOrders(this.venue, this.makerAccount);
      cancelOpenOrders(this.venue, this.takerAccount);
    }
    for (const q of this.quoted) this.requote(q);
    this.quoteTimer = this.venue.clock.setInterval(() => this.quoted.forEach((q) => this.requote(q)), this.cfg.quoteEveryMs ?? 1000);
    if (this.quoted.length > 0) this.scheduleTake();
    this.contracts?.start();
  }

  /** Stops every timer (resting quotes stay on the books). */
  stop(): void {
    this.quoteTimer?.cancel();
    this.takeTimer?.cancel();
    this.quoteTimer = undefined;
    this.takeTimer = undefined;
    this.contracts?.stop();
  }

  /** Moves the reference one step and replaces the provider's quotes around it. */
  private requote(q: Quoted): void {
    const mid = q.ref.step();
    for (const orderId of q.orders.splice(0)) this.venue.tryCancelSpotOrder(this.makerAccount, { orderId });
    const levels = this.cfg.levels ?? 5;
    const spread = this.cfg.spreadTicks ?? 2;
    const gap = this.cfg.levelGapTicks ?? 1;
    const lots = this.cfg.levelLots ?? Math.max(q.inst.minQty * 10, 2 * minLotsAt(q.inst, mid));
    for (let i = 0; i < levels; i++) {
      const size = lots + this.rng.int(0, lots);
      for (const side of ['BUY', 'SELL'] as const) {
        const ticks = side === 'BUY' ? mid - spread - i * gap : mid + spread + i * gap;
        if (ticks < q.inst.minPrice) continue;
        const r = this.quietly(() =>
          this.venue.newSpotOrder(this.makerAccount, {
            symbol: q.inst.symbol, side, type: 'LIMIT_MAKER', quantity: q.inst.qtyText(size), price: q.inst.priceText(ticks), newClientOrderId: `lp.${this.tag}.${++this.n}`,
          }),
        );
        if (r && r.status === 'NEW') q.orders.push(r.orderId);
      }
    }
  }

  /** Sends one noise order on a random symbol and schedules the next after an exponential wait. */
  private scheduleTake(): void {
    const mean = this.cfg.takerEveryMs ?? 700;
    const wait = Math.max(1, Math.round(this.rng.exponential(mean)));
    this.takeTimer = this.venue.clock.setTimeout(() => {
        const q = this.rng.pick(this.quoted);
        const lots = Math.max(q.inst.minQty, minLotsAt(q.inst, q.ref.ticks())) * this.rng.int(1, 20);
        const side = this.rng.chance(0.5) ? 'BUY' : 'SELL';
        const ref = q.ref.ticks();
        // A marketable limit IOC a few ticks through the reference, so a taker never sweeps an empty book.
        const ticks = side === 'BUY' ? ref + 10 : Math.max(q.inst.minPrice, ref - 10);
        this.quietly(() =>
          this.venue.newSpotOrder(this.takerAccount, {
            symbol: q.inst.symbol, side, type: 'LIMIT', timeInForce: 'IOC', quantity: q.inst.qtyText(lots), price: q.inst.priceText(ticks), newClientOrderId: `nt.${this.tag}.${++this.n}`,
          }),
        );
        this.scheduleTake();
      }, wait);
  }

  /** Runs a venue call, ignoring the venue's refusals (an agent short of funds simply skips a turn). */
  private quietly<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (e) {
      if (e instanceof VenueError) return undefined;
      throw e;
    }
  }
}

/** Returns the fewest lots whose notional at `ticks` meets the symbol's MIN_NOTIONAL. */
function minLotsAt(inst: SimInstrument, ticks: number): number {
  return Math.ceil(inst.minNotional / Math.max(1, ticks));
}

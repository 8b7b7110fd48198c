/** Seeded contract agents: a reference price per index symbol that drives the venue's index, a liquidity provider quoting each contract around it, and a noise taker, all with their own funded contract accounts. */
import type { TimerHandle } from '../../core/clock.ts';
import { VenueError } from '../../core/errors.ts';
import type { Rng } from '../../core/random.ts';
import type { AgentsConfig } from '../engine/config.ts';
import type { SimInstrument } from '../engine/instruments.ts';
import { decimalUnits, nearestUnits } from '../engine/units.ts';
import type { SimVenue } from '../engine/venue.ts';
import { toAmount } from '../ledger/amount.ts';
import { ReferencePrice } from './reference.ts';
import { agentUser, cancelOpenOrders } from './takeover.ts';

interface Quoted {
  inst: SimInstrument;
  index: string;
  orders: string[];
}

/**
 * The contract side of the market agents. Each index symbol has one reference process (in the ticks of
 * its first contract); every quote beat steps it, sets it as the venue's index (so marks, EDP, funding
 * and liquidations follow it), then the provider replaces its LIMIT_MAKER quotes around it, each
 * contract in its own ticks (the index price carried to the nearest tick of the contract, so a linear
 * swap with a coarser tick than the inverse contract is quoted at the same price, not at a multiple). The provider
 * and the taker close what they hold before opening the other way, so their margin stays bounded.
 * Users saved by an earlier run are taken over like the spot agents' (MarketAgents): not funded again,
 * references from the venue's index, old orders cancelled at start.
 */
export class ContractAgents {
  private beatTimer: TimerHandle | undefined;
  private takeTimer: TimerHandle | undefined;
  private readonly quoted: Quoted[] = [];
  private readonly refs = new Map<string, { ref: ReferencePrice; inst: SimInstrument; price: string }>();
  readonly makerAccount: string;
  readonly takerAccount: string;
  /** True when these agents took over users saved by an earlier run. */
  readonly tookOver: boolean;
  private n = 0;

  /** `tag` goes into every clientOrderId so that ids never repeat an earlier run's (MarketAgents passes its run tag). */
  constructor(private readonly venue: SimVenue, private readonly cfg: AgentsConfig, private readonly rng: Rng, private readonly tag = '') {
    const funds = cfg.contractFunds ?? {};
    const maker = agentUser(venue, 'agent-contract-maker');
    const taker = agentUser(venue, 'agent-contract-taker');
    this.tookOver = maker.found || taker.found;
    for (const { userId, found } of [maker, taker]) {
      if (found) continue;
      for (const [asset, amount] of Object.entries(funds)) {
        venue.deposit(userId, asset, amount);
        venue.transfer({ userId, accountIndex: 0 }, { fromAccountType: 1, fromAccountIndex: 0, toAccountType: 3, toAccountIndex: 0, tokenId: asset, amount: toAmount(amount, `contractFunds.${asset}`) });
      }
    }
    this.makerAccount = venue.accountOf(maker.userId, 3);
    this.takerAccount = venue.accountOf(taker.userId, 3);
    const symbols = cfg.contracts ?? venue.instrumentsOf('contract').map((i) => i.symbol);
    for (const symbol of symbols) {
      const inst = venue.instrument(symbol);
      if (!inst || !inst.contract) throw new Error(`agents: ${symbol} is not a contract of the venue`);
      const index = inst.contract.index;
      if (!this.refs.has(index)) {
        const start = cfg.referencePrice[index] ?? cfg.referencePrice[symbol];
        if (start === undefined) throw new Error(`agents: no referencePrice for index ${index} (or ${symbol})`);
        const ticks = decimalUnits(start, inst.tick);
        if (ticks <= 0) throw new Error(`agents: referencePrice of ${index} must be a positive multiple of ${inst.tick.text}`);
        const saved = this.tookOver ? venue.indexPrices(index).index[index] : undefined;
        const savedTicks = saved === undefined ? -1 : decimalUnits(saved, inst.tick);
        const startTicks = savedTicks > 0 ? savedTicks : ticks;
        this.refs.set(index, { ref: new ReferencePrice(rng, startTicks, cfg.volatility ?? 0.0005, cfg.meanReversion ?? 0.02), inst, price: inst.priceText(startTicks) });
      }
      this.quoted.push({ inst, index, orders: [] });
    }
  }

  /** Starts the index beat, quoting and taking on the venue's clock. */
  start(): void {
    if (this.beatTimer || this.quoted.length === 0) return;
    if (this.tookOver) {
      cancelOpenOrders(this.venue, this.makerAccount);
      cancelOpenOrders(this.venue, this.takerAccount);
    }
    this.beat();
    this.beatTimer = this.venue.clock.setInterval(() => this.beat(), this.cfg.quoteEveryMs ?? 1000);
    this.scheduleTake();
  }

  /** Stops every timer (resting quotes stay on the books). */
  stop(): void {
    this.beatTimer?.cancel();
    this.takeTimer?.cancel();
    this.beatTimer = undefined;
    this.takeTimer = undefined;
  }

  /** Steps every index, publishes it, and requotes every contract. */
  private beat(): void {
    for (const [index, r] of this.refs) {
      r.price = r.inst.priceText(r.ref.step());
      this.venue.setIndexPrice(index, r.price);
    }
    for (const q of this.quoted) this.requote(q);
  }

  /** Returns the available quantity of an agent's position in lots (0 when none). */
  private availableLots(account: string, inst: SimInstrument, side: 'LONG' | 'SHORT'): number {
    const p = this.venue.positions(account, { symbol: inst.symbol, side })[0];
    return p ? decimalUnits(p.available, inst.step) : 0;
  }

  /** Returns the reference price of a contract's index in the contract's own ticks. */
  private referenceTicks(q: Quoted): number {
    return nearestUnits(this.refs.get(q.index)!.price, q.inst.tick);
  }

  private requote(q: Quoted): void {
    for (const orderId of q.orders.splice(0)) this.quietly(() => this.venue.cancelContractOrder(this.makerAccount, { orderId }));
    const mid = this.referenceTicks(q);
    const levels = this.cfg.levels ?? 5;
    const spread = this.cfg.spreadTicks ?? 2;
    const gap = this.cfg.levelGapTicks ?? 1;
    const lots = this.cfg.levelLots ?? q.inst.minQty * 10;
    for (let i = 0; i < levels; i++) {
      const size = lots + this.rng.int(0, lots);
      for (const buy of [true, false]) {
        const ticks = buy ? mid - spread - i * gap : mid + spread + i * gap;
        if (ticks < q.inst.minPrice) continue;
        const close = this.availableLots(this.makerAccount, q.inst, buy ? 'SHORT' : 'LONG') >= size;
        const side = buy ? (close ? 'BUY_CLOSE' : 'BUY_OPEN') : close ? 'SELL_CLOSE' : 'SELL_OPEN';
        const r = this.quietly(() => this.venue.newContractOrder(this.makerAccount, {
          symbol: q.inst.symbol, side, quantity: q.inst.qtyText(size), price: q.inst.priceText(ticks), timeInForce: 'LIMIT_MAKER',
          leverage: this.cfg.leverage ?? '10', clientOrderId: `clp.${this.tag}.${++this.n}`,
        }));
        if (r && r.status === 'NEW') q.orders.push(r.orderId);
      }
    }
  }

  /** Sends one noise order on a random contract and schedules the next after an exponential wait. */
  private scheduleTake(): void {
    const mean = this.cfg.takerEveryMs ?? 700;
    const wait = Math.max(1, Math.round(this.rng.exponential(mean)));
    this.takeTimer = this.venue.clock.setTimeout(() => {
      const q = this.rng.pick(this.quoted);
      const lots = q.inst.minQty * this.rng.int(1, 20);
      const buy = this.rng.chance(0.5);
      const ref = this.referenceTicks(q);
      const close = this.availableLots(this.takerAccount, q.inst, buy ? 'SHORT' : 'LONG') >= lots;
      const side = buy ? (close ? 'BUY_CLOSE' : 'BUY_OPEN') : close ? 'SELL_CLOSE' : 'SELL_OPEN';
      const ticks = buy ? ref + 10 : Math.max(q.inst.minPrice, ref - 10);
      this.quietly(() => this.venue.newContractOrder(this.takerAccount, {
        symbol: q.inst.symbol, side, quantity: q.inst.qtyText(lots), price: q.inst.priceText(ticks), timeInForce: 'IOC',
        leverage: this.cfg.leverage ?? '10', clientOrderId: `cnt.${this.tag}.${++this.n}`,
      }));
      this.scheduleTake();
    }, wait);
  }

  /** Runs a venue call, ignoring the venue's refusals (an agent short of margin simply skips a turn). */
  private quietly<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (e) {
      if (e instanceof VenueError) return undefined;
      throw e;
    }
  }
}

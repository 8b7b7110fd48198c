/** The engine behind the server: a SimVenue built from config/venue.yaml, its routes, key owners, user events and market source. */
import type { Clock } from '../../core/clock.ts';
import { startAgents, type RunningAgents } from './agents.ts';
import { toAmount } from '../ledger/amount.ts';
import type { SimVenueConfig } from '../engine/config.ts';
import { SimVenue } from '../engine/venue.ts';
import type { VenueConfig } from './config.ts';
import { engineMarketSource } from './market-adapter.ts';
import { MarketStreams } from './market-stream.ts';
import { accountRoutes } from './routes-account.ts';
import { marketRoutes } from './routes-market.ts';
import { contractRoutes } from './routes-contract.ts';
import { spotRoutes } from './routes-spot.ts';
import { contractEntry, spotSymbolEntry } from './routes-public.ts';
import type { Backend } from './server.ts';
import type { Faults } from './faults.ts';
import { UserEventMapper } from './user-events.ts';

/** Returns the SimVenue configuration of a venue config (instruments in brokerInfo shape, users and their spot funds). */
export function simConfigOf(c: VenueConfig, seed: number): SimVenueConfig {
  return {
    seed,
    exchangeId: c.venue.exchangeId,
    instruments: {
      symbols: c.instruments.spot.map((s) => spotSymbolEntry(s, c.venue.exchangeId)),
      contracts: c.instruments.contracts.map((k) => contractEntry(k, c.venue.exchangeId)),
    },
    spotFees: c.fees.spot,
    contractFees: c.fees.contract,
    accounts: c.accounts.map((a) => ({ name: a.name, subAccounts: a.subAccounts.reduce((m, s) => Math.max(m, s.index), 0) })),
    keepEventLog: false,
    // A contract with a fundingRate in the config pays that fixed rate; the others pay the premium rate of their mark.
    funding: { rates: Object.fromEntries(c.instruments.contracts.flatMap((k) => (k.fundingRate === undefined ? [] : [[k.symbol, k.fundingRate]]))) },
  };
}

/** A SimVenue served over the wire. */
export class EngineBackend implements Backend {
  readonly venue: SimVenue;
  readonly market: MarketStreams;
  readonly routes;
  private readonly owners = new Map<string, { userId: string; accountIndex: number }>();
  private readonly agents: RunningAgents;

  constructor(private readonly c: VenueConfig, clock: Clock, faults: Faults, seed = c.server.seed, venue?: SimVenue) {
    this.venue = venue ?? new SimVenue(simConfigOf(c, seed), clock);
    if (!venue) {
      this.fund();
      this.openIndexes();
    }
    for (const a of c.accounts) {
      const userId = this.venue.user(a.name);
      for (const k of a.keys) this.owners.set(k.apiKey, { userId, accountIndex: 0 });
      for (const s of a.subAccounts) for (const k of s.keys) this.owners.set(k.apiKey, { userId, accountIndex: s.index });
    }
    const src = engineMarketSource(this.venue, c);
    this.market = new MarketStreams(clock, src, faults, { cadences: c.server.depthPushMs, idleTimeoutMs: c.server.marketStream.idleTimeoutMs });
    this.routes = [
      ...marketRoutes(this.venue, c),
      ...spotRoutes(this.venue),
      ...accountRoutes(this.venue, c),
      ...contractRoutes(this.venue),
    ];
    this.agents = startAgents(this.venue, c, seed);
  }

  /** Stops the market agents and the venue's own timers (funding, withdrawals). */
  stop(): void {
    this.agents.stop();
    this.venue.close();
  }

  /** Opens each index at the initialPrice of the spot symbol of its name, else of the first contract on it, so marks exist before any agent moves them. */
  private openIndexes(): void {
    for (const index of new Set(this.c.instruments.contracts.map((k) => k.index))) {
      const price = this.c.instruments.spot.find((s) => s.symbol === index)?.initialPrice
        ?? this.c.instruments.contracts.find((k) => k.index === index && k.initialPrice !== undefined)?.initialPrice;
      if (price !== undefined) this.venue.setIndexPrice(index, price);
    }
  }

  keyOwner(apiKey: string): { userId: string; accountIndex: number } {
    const o = this.owners.get(apiKey);
    if (!o) throw new Error(`no account holds apiKey ${apiKey.slice(0, 6)}…`);
    return o;
  }

  subscribeUser(fn: (owner: string, payload: unknown) => void): () => void {
    const mapper = new UserEventMapper(this.venue, fn);
    return this.venue.subscribe((ev) => mapper.onEvent(ev));
  }

  /** Deposits the configured balances: spot funds to each token account, contract funds moved on to the contract accounts. */
  private fund(): void {
    for (const a of this.c.accounts) {
      const userId = this.venue.user(a.name);
      const parts = [{ index: 0, balances: a.balances }, ...a.subAccounts.map((s) => ({ index: s.index, balances: s.balances }))];
      for (const { index, balances } of parts) {
        for (const [asset, amount] of [...Object.entries(balances.spot), ...Object.entries(balances.contract)]) {
          if (toAmount(amount) > 0n) this.venue.deposit(userId, asset, amount);
        }
        const actor = { userId, accountIndex: 0 };
        for (const [asset, amount] of Object.entries(balances.spot)) {
          if (index > 0 && toAmount(amount) > 0n) {
            this.venue.transfer(actor, { fromAccountType: 1, fromAccountIndex: 0, toAccountType: 1, toAccountIndex: index, tokenId: asset, amount: toAmount(amount) });
          }
        }
        for (const [asset, amount] of Object.entries(balances.contract)) {
          if (toAmount(amount) > 0n) {
            this.venue.transfer(actor, { fromAccountType: 1, fromAccountIndex: 0, toAccountType: 3, toAccountIndex: index, tokenId: asset, amount: toAmount(amount) });
          }
        }
      }
    }
  }
}

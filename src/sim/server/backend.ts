/** The engine behind the server: a SimVenue built from config/venue.yaml (or restored from its state file), its routes, key owners, agents, user events and market source. */
import { auditUser, auditVenue, type UserOrders, type VenueAudit } from './audit.ts';
import type { Clock, TimerHandle } from '../../core/clock.ts';
import { silentLogger, type Logger } from '../../core/logger.ts';
import { HeldClock, Journal, journaled, replayJournal } from './journal.ts';
import { StateFile } from './state-file.ts';
import { startAgents, type RunningAgents } from './agents.ts';
import { toAmount } from '../ledger/amount.ts';
import type { SimVenueConfig } from '../engine/config.ts';
import { SimVenue } from '../engine/venue.ts';
import type { VenueConfig } from './config.ts';
import { engineMarketSource } from './market-adapter.ts';
import type { MarketFeed, MarketFeedFactory } from './market-feed.ts';
import { MarketStreams } from './market-stream.ts';
import { accountRoutes } from './routes-account.ts';
import { marketRoutes } from './routes-market.ts';
import { contractRoutes } from './routes-contract.ts';
import { spotRoutes } from './routes-spot.ts';
import { contractEntry, spotSymbolEntry } from './routes-public.ts';
import type { Ctx, Route } from './route.ts';
import type { Backend } from './server.ts';
import type { Faults } from './faults.ts';
import { UserEventMapper } from './user-events.ts';

/** Returns how many sub-accounts an account needs: its highest sub-account index. */
function subAccountsOf(a: VenueConfig['accounts'][number]): number {
  return a.subAccounts.reduce((m, s) => Math.max(m, s.index), 0);
}

/** Returns the configured name of each sub-account, index 1 first; an index the config skips is named as its user. */
function subNamesOf(a: VenueConfig['accounts'][number]): string[] {
  return Array.from({ length: subAccountsOf(a) }, (_, i) => a.subAccounts.find((s) => s.index === i + 1)?.name ?? a.name);
}

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
    accounts: c.accounts.map((a) => ({ name: a.name, subAccounts: subAccountsOf(a), subAccountNames: subNamesOf(a) })),
    keepEventLog: false,
    // A contract with a fundingRate in the config pays that fixed rate; the others pay the premium rate of their mark.
    funding: { rates: Object.fromEntries(c.instruments.contracts.flatMap((k) => (k.fundingRate === undefined ? [] : [[k.symbol, k.fundingRate]]))) },
  };
}

/** A SimVenue served over the wire, restored from and saved to the config's state file when it names one. */
export class EngineBackend implements Backend {
  /** The engine as routes and agents see it: with a state file, every state-changing call is journaled before it runs. */
  readonly venue: SimVenue;
  readonly market: MarketStreams;
  readonly routes;
  /** True when the venue was started from a saved state. */
  readonly restored: boolean;
  private readonly owners = new Map<string, { userId: string; accountIndex: number }>();
  private readonly agents: RunningAgents;
  private readonly stateFile: StateFile | undefined;
  private readonly journal: Journal | undefined;
  /** The engine itself, for snapshots (not journaled). */
  private readonly engine: SimVenue;
  private readonly saver: TimerHandle | undefined;
  /** The outside market (a replayed recording) that replaces the agents, when one was injected. */
  readonly feed: MarketFeed | undefined;

  constructor(
    private readonly c: VenueConfig, private readonly clock: Clock, faults: Faults, seed = c.server.seed, private readonly log: Logger = silentLogger(),
    feed?: MarketFeedFactory,
  ) {
    this.stateFile = c.server.stateFile === undefined ? undefined : new StateFile(c.server.stateFile);
    const sim = simConfigOf(c, seed);
    const loaded = this.stateFile?.loadSaved();
    let saved = loaded?.state;
    let lastSeq = loaded?.journalSeq ?? 0;
    const journalPath = `${c.server.stateFile}.journal`;
    if (this.stateFile) {
      // Calls journaled after the last snapshot (acknowledged or not yet answered when the venue died) are run again over it.
      const entries = Journal.read(journalPath).filter((e) => e.seq > lastSeq);
      if (entries.length > 0 && loaded !== undefined) {
        saved = replayJournal(sim, loaded.state, loaded.savedAt, entries);
        lastSeq = entries[entries.length - 1]!.seq;
        this.log.info({ entries: entries.length, journal: journalPath }, 'venue journal replayed over the state file');
      } else if (entries.length > 0) {
        this.log.warn({ journal: journalPath }, 'venue journal without a state file: ignored');
      }
    }
    this.restored = saved !== undefined;
    const engineClock = new HeldClock(clock);
    const engine = saved === undefined ? new SimVenue(sim, engineClock) : SimVenue.fromState(sim, engineClock, saved);
    this.engine = engine;
    this.venue = engine;
    // Accounts added to the config after the state was saved are created and funded; saved ones keep their state.
    for (const a of c.accounts) {
      if (!this.restored) this.fund(a);
      else if (!this.hasUser(a.name)) {
        this.venue.createUser(a.name, subAccountsOf(a), subNamesOf(a));
        this.fund(a);
      }
    }
    if (!this.restored) this.openIndexes();
    for (const a of c.accounts) {
      const userId = this.venue.user(a.name);
      for (const k of a.keys) this.owners.set(k.apiKey, { userId, accountIndex: 0 });
      for (const s of a.subAccounts) for (const k of s.keys) this.owners.set(k.apiKey, { userId, accountIndex: s.index });
      // A fee tier is configuration, not state: applied at every start, restored or not.
      if (a.spotFees) for (const index of [0, ...a.subAccounts.map((s) => s.index)]) this.venue.ledger.setSpotFees(a.spotFees, this.venue.accountOf(userId, 1, index));
    }
    if (this.stateFile) {
      const j = c.server.journal;
      this.journal = new Journal(journalPath, lastSeq, j.fsync, j.fsyncEveryMs, clock);
      // The journal's base: what was replayed and what start-up funded is in the state file before any entry is written.
      this.save();
      this.venue = journaled(engine, engineClock, this.journal, j.maxEntries, () => this.saveQuietly());
    }
    this.feed = feed?.(this.venue);
    const f = this.feed;
    const src = f === undefined ? engineMarketSource(this.venue, c) : { ...engineMarketSource(this.venue, c), sync: () => f.catchUp() };
    const ms = c.server.marketStream;
    this.market = new MarketStreams(clock, src, faults, {
      cadences: c.server.depthPushMs, idleTimeoutMs: ms.idleTimeoutMs,
      sendLimits: { conflateAboveBytes: ms.conflateAboveBytes, closeAboveBytes: ms.closeAboveBytes },
    });
    const routes: Route[] = [
      ...marketRoutes(this.venue, c),
      ...spotRoutes(this.venue),
      ...accountRoutes(this.venue, c),
      ...contractRoutes(this.venue),
    ];
    // Every request sees the outside market brought up to the clock first.
    this.routes = f === undefined ? routes : routes.map((r) => ({
      ...r,
      handle: (x: Ctx): unknown => {
        f.catchUp();
        return r.handle(x);
      },
    }));
    // On a restored venue the agents take over their saved users and cancel the quotes those left resting; an outside market replaces them.
    this.agents = f === undefined ? startAgents(this.venue, c, seed) : { stop: () => undefined };
    if (this.stateFile) this.saver = clock.setInterval(() => this.saveQuietly(), c.server.stateEveryMs);
    this.log.info({ stateFile: c.server.stateFile, restored: this.restored }, 'venue engine ready');
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

  audit(): VenueAudit {
    return auditVenue(this.engine);
  }

  auditUser(name: string): UserOrders | undefined {
    return auditUser(this.engine, name);
  }

  /** Stops the market agents and the venue's own timers (funding, withdrawals), then writes the state file. */
  stop(): void {
    this.saver?.cancel();
    this.feed?.stop();
    this.agents.stop();
    this.engine.close();
    this.save();
    this.journal?.close();
  }

  /** Writes the venue's state to the state file now (atomically), then empties the journal it holds; does nothing without one. */
  save(): void {
    if (!this.stateFile) return;
    this.stateFile.save(this.engine.exportState(), this.clock.now(), this.journal?.lastSeq ?? 0);
    this.journal?.reset();
  }

  private saveQuietly(): void {
    try {
      this.save();
    } catch (e) {
      this.log.error({ err: e, stateFile: this.c.server.stateFile }, 'could not write the venue state; the last good file is kept');
    }
  }

  private hasUser(name: string): boolean {
    try {
      this.venue.user(name);
      return true;
    } catch {
      return false;
    }
  }

  /** Opens each index at the initialPrice of the spot symbol of its name, else of the first contract on it, so marks exist before any agent moves them. */
  private openIndexes(): void {
    for (const index of new Set(this.c.instruments.contracts.map((k) => k.index))) {
      const price = this.c.instruments.spot.find((s) => s.symbol === index)?.initialPrice
        ?? this.c.instruments.contracts.find((k) => k.index === index && k.initialPrice !== undefined)?.initialPrice;
      if (price !== undefined) this.venue.setIndexPrice(index, price);
    }
  }

  /** Deposits an account's configured balances: spot funds to each token account, contract funds moved on to the contract accounts. */
  private fund(a: VenueConfig['accounts'][number]): void {
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

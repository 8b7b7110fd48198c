/**
 * Keeps the embedded venue's contract books alive for paper trading: each contract with a maker in
 * the `agents` list of its config gets a quoter that re-quotes levels around a seeded reference walk,
 * trading through the engine as an ordinary funded account. (The venue's server runs the spot agents
 * itself; its agents cover spot only.)
 */
import type { Clock, TimerHandle } from '../core/clock.ts';
import { fromUnits, toUnits } from '../core/fixed.ts';
import { Rng } from '../core/random.ts';
import { ReferencePrice } from '../sim/agents/index.ts';
import type { SimVenue } from '../sim/engine/venue.ts';
import type { VenueConfig } from '../sim/server/config.ts';

/** The account the contract quoter trades from; added to the venue config before the venue starts. */
export const PERP_AGENT_ACCOUNT = 'agent-perp';

/** Returns the venue config with the contract quoter's funded account added (when a contract has a maker agent). */
export function withAgentAccounts(c: VenueConfig): VenueConfig {
  const contracts = new Set(c.instruments.contracts.map((k) => k.symbol));
  if (!c.agents.some((a) => a.kind === 'maker' && contracts.has(a.symbol)) || c.accounts.some((a) => a.name === PERP_AGENT_ACCOUNT)) return c;
  const contract: Record<string, string> = {};
  for (const k of c.instruments.contracts) contract[k.marginToken] = k.marginToken === 'BTC' || k.marginToken === 'ETH' ? '100000' : '1000000000';
  // The key is never used over the wire (the quoter calls the engine), but the schema wants one.
  const key = { apiKey: 'A'.repeat(64), secret: 'agent-perp-secret-not-used', permissions: 'all', enabled: false, ipWhitelist: [] };
  return { ...c, accounts: [...c.accounts, { name: PERP_AGENT_ACCOUNT, keys: [key], balances: { spot: {}, contract }, subAccounts: [], withdrawAddresses: [] }] };
}

/** Starts the contract quoters of `c` on `venue`; returns a handle that stops them. */
export function startMarketLife(venue: SimVenue, c: VenueConfig, clock: Clock, seed: number): { stop(): void } {
  const stops: (() => void)[] = [];
  const rng = new Rng(seed ^ 0xbe1f);
  for (const a of c.agents) {
    const k = c.instruments.contracts.find((x) => x.symbol === a.symbol);
    if (a.kind !== 'maker' || k === undefined) continue;
    const tick = k.filters.find((f) => f.filterType === 'PRICE_FILTER')?.tickSize ?? k.quoteAssetPrecision;
    const start = toUnits(k.initialPrice ?? '1', tick);
    const ref = new ReferencePrice(rng, start, 0.0005, 0.02);
    const account = venue.accountOf(venue.user(PERP_AGENT_ACCOUNT), 3);
    let n = 0;
    const requote = (): void => {
      const mid = ref.step();
      try {
        venue.batchCancel(account, k.symbol);
      } catch {
        // Nothing to cancel yet.
      }
      for (let i = 1; i <= a.levels; i++) {
        for (const [side, ticks] of [['BUY_OPEN', mid - i * a.spreadTicks], ['SELL_OPEN', mid + i * a.spreadTicks]] as const) {
          if (ticks <= 0) continue;
          try {
            venue.newContractOrder(account, {
              symbol: k.symbol, side, orderType: 'LIMIT', priceType: 'INPUT', price: fromUnits(ticks, tick), quantity: a.qty ?? '100',
              leverage: '10', timeInForce: 'GTC', clientOrderId: `perp-lp-${++n}`,
            });
          } catch {
            // A refused quote (margin, band) only thins the book; the next refresh tries again.
          }
        }
      }
    };
    requote();
    const t: TimerHandle = clock.setInterval(requote, a.everyMs);
    stops.push(() => t.cancel());
  }
  return { stop: () => stops.forEach((s) => s()) };
}

// Runs one example strategy through `startApp` against the embedded simulated venue's real server over loopback, then compares the bot's orders, balances and positions with the venue's REST answers.
import { join, resolve } from 'node:path';
import { Decimal } from '../../src/core/fixed.ts';
import { createLogger, type Logger } from '../../src/core/logger.ts';
import { parseRunConfig, type RunConfigInput } from '../../src/app/config.ts';
import { startApp, type RunningApp } from '../../src/app/run.ts';
import { loadVenueConfig, type VenueConfig } from '../../src/sim/server/config.ts';
import type { FaultSettingsInput } from '../../src/sim/server/faults.ts';
import { isWorking } from '../../src/execution/order-state.ts';

export const ROOT = resolve(import.meta.dirname, '../..');

/** config/venue.yaml with markets that move faster, so a few seconds of real time hold several trades. */
export function fastVenue(): VenueConfig {
  const c = loadVenueConfig(join(ROOT, 'config/venue.yaml'));
  return {
    ...c,
    server: { ...c.server, depthPushMs: { spotDepth: 100, spotMergedDepth: 100, contractDepth: 200, contractMergedDepth: 100 } },
    agents: c.agents.map((a) => ({ ...a, everyMs: a.kind === 'maker' ? 300 : 250 })),
  };
}

/** A logger whose JSON lines are kept, to look for failures afterwards. */
export function keptLogger(): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ level: process.env['LVL'] ?? 'info', destination: { write: (s: string) => { lines.push(JSON.parse(s) as Record<string, unknown>); } } });
  return { log, lines };
}

/** What the comparison found: each list holds the differences (empty when the bot and the venue agree). */
export interface Comparison {
  readonly orders: number;
  readonly filled: number;
  readonly openDiff: string[];
  readonly orderDiff: string[];
  readonly balanceDiff: string[];
  readonly positionDiff: string[];
  readonly duplicateClientIds: string[];
}

/** Returns a started app for one strategy entry on the fast embedded venue. */
export async function startStrategy(entry: RunConfigInput['strategies'][number], extra: Partial<RunConfigInput> = {}): Promise<{ app: RunningApp; lines: Record<string, unknown>[] }> {
  const { log, lines } = keptLogger();
  // Periodic reconciliation off: what the bot ends with must come from its streams and fills, not from adopting the venue's numbers.
  // Strategies read nil fees: these runs test the bot's machinery and need the market maker's quotes near the mid, where fills come within seconds
  // (with the venue's 0.1% maker fee it quotes that far from the mid; strategies/market-maker-fee.test.ts checks that).
  const fees = { spot: { maker: '0', taker: '0' }, contract: { maker: '0', taker: '0' } };
  const config = parseRunConfig({ venue: 'embedded', strategies: [entry], reconcile: { every: '1h' }, status: { every: '1s' }, fees, ...extra });
  const app = await startApp({ config, baseDir: join(ROOT, 'config') }, { log, venueConfig: fastVenue() });
  return { app, lines };
}

/** Switches faults on in the running venue. */
export function setFaults(app: RunningApp, f: FaultSettingsInput): void {
  app.embedded!.venue.server.faults.set(f);
}

/** Stops the strategies (they cancel their orders), cancels what is left, lets the executor and fill sync finish, and compares with the venue. */
export async function settleAndCompare(app: RunningApp): Promise<Comparison> {
  await app.host.stop();
  for (const s of app.host.status()) app.executor.submit({ kind: 'cancelAll', strategyId: s.id });
  await app.executor.idle();
  // Orders whose outcome was unknown are settled by queries on the clock: wait on the executor's events until none is left.
  await settled(app, 15_000);
  await app.executor.idle();
  await app.executor.syncFills();
  const rest = app.rest;
  const local = app.executor.orders().filter((o) => !o.adopted);
  const venueOpen = [...await rest.openSpotOrders({}), ...await rest.openContractOrders({ orderType: 'LIMIT' })];
  const localOpen = local.filter(isWorking).map((o) => o.clientOrderId).sort();
  const openDiff = symmetricDiff(localOpen, venueOpen.map((o) => o.clientOrderId).sort());
  const orderDiff: string[] = [];
  let filled = 0;
  for (const o of local) {
    if (o.outcome === 'not-placed' || o.outcome === 'rejected') continue;
    const v = o.account === 'spot'
      ? await rest.getSpotOrder({ origClientOrderId: o.clientOrderId })
      : await rest.getContractOrder({ clientOrderId: o.clientOrderId });
    if (new Decimal(v.executedQty).gt(0)) filled += 1;
    if (v.status !== o.phase || !new Decimal(v.executedQty).eq(o.executedQty)) orderDiff.push(`${o.clientOrderId}: local ${o.phase} ${o.executedQty}, venue ${v.status} ${v.executedQty}`);
  }
  const view = app.portfolio.view();
  const balanceDiff: string[] = [];
  for (const b of (await rest.spotAccount()).balances) {
    const mine = view.spot[b.asset];
    const theirs = new Decimal(b.free).plus(b.locked);
    const ours = mine === undefined ? new Decimal(0) : new Decimal(mine.free).plus(mine.locked);
    if (!ours.eq(theirs)) balanceDiff.push(`spot ${b.asset}: local ${ours.toFixed()}, venue ${theirs.toFixed()}`);
  }
  for (const [token, b] of Object.entries(await rest.contractAccount())) {
    const mine = view.contract[token];
    // The venue shows margin amounts at the token's margin precision (8 decimals for BTC) while the portfolio keeps inverse PnL exact: compare at the venue's precision.
    const scale = Math.max(0, ...[...app.instruments.values()].filter((i) => i.marginToken === token).map((i) => i.marginPrecision ?? 0));
    const ours = mine === undefined ? undefined : new Decimal(mine.total).toDecimalPlaces(scale, Decimal.ROUND_DOWN);
    if (ours === undefined || !ours.eq(b.total)) balanceDiff.push(`contract ${token}: local ${mine?.total}, venue ${b.total}`);
  }
  const positionDiff = symmetricDiff(
    view.positions.map((p) => `${p.symbol} ${p.side} ${new Decimal(p.qty).toFixed()}`).sort(),
    (await rest.contractPositions({})).filter((p) => !new Decimal(p.position).isZero()).map((p) => `${p.symbol} ${p.side} ${new Decimal(p.position).toFixed()}`).sort(),
  );
  const history = [...await rest.spotHistoryOrders({ limit: 1000 }), ...await rest.contractHistoryOrders({ orderType: 'LIMIT', limit: 1000 })];
  const seen = new Map<string, number>();
  for (const h of [...history, ...venueOpen]) seen.set(h.clientOrderId, (seen.get(h.clientOrderId) ?? 0) + 1);
  const duplicateClientIds = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  return { orders: local.length, filled, openDiff, orderDiff, balanceDiff, positionDiff, duplicateClientIds };
}

const unsettled = (app: RunningApp): boolean => app.executor.orders().some((o) => o.phase === 'UNKNOWN' || o.phase === 'PENDING_NEW' || (o.cancelPending && isWorking(o)));

/** Resolves once no order is unknown, unsent or waiting for its cancel; rejects after `ms` naming the orders still open. */
function settled(app: RunningApp, ms: number): Promise<void> {
  if (!unsettled(app)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`orders still unsettled after ${ms} ms: ${app.executor.orders().filter((o) => o.phase === 'UNKNOWN' || o.phase === 'PENDING_NEW' || o.cancelPending).map((o) => `${o.clientOrderId} ${o.phase}`).join(', ')}`));
    }, ms);
    const off = app.executor.on(() => {
      if (unsettled(app)) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

function symmetricDiff(a: readonly string[], b: readonly string[]): string[] {
  const A = new Set(a);
  const B = new Set(b);
  return [...a.filter((x) => !B.has(x)).map((x) => `local only: ${x}`), ...b.filter((x) => !A.has(x)).map((x) => `venue only: ${x}`)];
}

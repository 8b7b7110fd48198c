// Runs one example strategy through `startApp` against the embedded simulated venue's real server over loopback, moving the market with another account's orders, then compares the bot's orders, balances and positions with the venue's REST answers.
import { join, resolve } from 'node:path';
import { Decimal } from '../../src/core/fixed.ts';
import { toAmount } from '../../src/sim/ledger/amount.ts';
import { createLogger, type Logger } from '../../src/core/logger.ts';
import { parseRunConfig, type RunConfigInput } from '../../src/app/config.ts';
import { startApp, type RunningApp } from '../../src/app/run.ts';
import { loadVenueConfig, type VenueConfig } from '../../src/sim/server/config.ts';
import type { FaultSettingsInput } from '../../src/sim/server/faults.ts';
import { isWorking } from '../../src/execution/order-state.ts';
import { toTicks } from '../../src/strategy/index.ts';

export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * config/venue.yaml without its market agents and with quick depth pushes: the books move only when
 * a test's `OtherTrader` moves them, so no outcome depends on a random market or the machine's speed.
 */
export function quietVenue(): VenueConfig {
  const c = loadVenueConfig(join(ROOT, 'config/venue.yaml'));
  return { ...c, server: { ...c.server, depthPushMs: { spotDepth: 100, spotMergedDepth: 100, contractDepth: 200, contractMergedDepth: 100 } }, agents: [] };
}

/**
 * The longest a wait on the bot's events may take: it only catches a hang, never measures speed (CI is
 * a loaded 2-core machine). HANG_MS in the environment shortens it while looking into a hang.
 */
export const HANG_MS = Number(process.env['HANG_MS'] ?? 90_000);

/**
 * Resolves once `pred` holds, checked now and after every bus event of the bot (and every executor
 * change); rejects after `ms` (a hang) with the status line and the bot's orders.
 */
export function until(app: RunningApp, pred: () => boolean, what: string, ms = HANG_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    const offs: (() => void)[] = [];
    const done = (err?: Error): void => { clearTimeout(timer); offs.forEach((off) => off()); if (err) reject(err); else resolve(); };
    const orders = (): string => app.executor.orders().map((o) => `${o.clientOrderId} ${o.side} ${o.price} ${o.phase}${o.cancelPending ? '+cancel' : ''} ${o.executedQty}`).join(', ');
    const timer = setTimeout(() => done(new Error(`${what}: not after ${ms} ms; status: ${app.status()}; orders: ${orders()}`)), ms);
    const check = (): void => { if (pred()) done(); };
    offs.push(app.executor.on(check));
    for (const type of ['order', 'depthSnapshot', 'trade', 'balance', 'position'] as const) offs.push(app.bus.subscribe(type, check));
    check();
  });
}

/** Returns a counter of the fill reports of the bot's orders on its bus (`n()`), and `off` to stop counting. */
export function fillCounter(app: RunningApp): { n: () => number; off: () => void } {
  let seen = 0;
  const off = app.bus.subscribe('order', (ev) => {
    if ((ev.status === 'PARTIALLY_FILLED' || ev.status === 'FILLED') && new Decimal(ev.lastQty).gt(0)) seen += 1;
  });
  return { n: () => seen, off };
}

/**
 * Resolves once the bot has reported `n` more fills of its orders: the other trader gives the spot
 * book a bid and an ask around 30000 and takes each order the bot rests on `symbol`, whole, as it appears.
 */
export async function fillSpot(app: RunningApp, other: OtherTrader, symbol: string, n: number): Promise<void> {
  const fills = fillCounter(app);
  try {
    await other.show(symbol, '29999.00', '30001.00', '1');
    await until(app, () => fills.n() >= n || (other.takeBot(symbol), false), `${n} fills`);
  } finally {
    fills.off();
  }
}

/**
 * Resolves once the bot's trend follower on the contract `symbol` has reported `n` more fills. The
 * other trader quotes its book and, after each fill, moves the whole book 200 ticks up or back down:
 * the fast average crosses the slow one, so the strategy trades against those quotes again.
 */
export async function fillTrend(app: RunningApp, other: OtherTrader, symbol: string, n: number): Promise<void> {
  const fills = fillCounter(app);
  try {
    let up = false;
    for (let seen = 0; seen < n; seen = fills.n()) {
      await other.show(symbol, up ? '30002.00' : '30000.00', up ? '30002.20' : '30000.20', '1000');
      await until(app, () => fills.n() > seen, `fill ${seen + 1} of ${n}`);
      up = !up;
    }
  } finally {
    fills.off();
  }
}

let traders = 0;

/**
 * Another user of the embedded venue, trading in-process on its engine: it sets the book the bot's
 * strategies price off (a bid and an ask of its own) and takes the bot's resting orders, so a test
 * makes every quote move and every fill it waits for.
 */
export class OtherTrader {
  private readonly venue;
  private readonly spot: string;
  private readonly contract: string;
  private readonly bot: { spot: string; contract: string };
  private readonly resting = new Map<string, string[]>();
  private n = 0;

  constructor(private readonly app: RunningApp, account = 'demo') {
    this.venue = app.embedded!.venue.backend.venue;
    const userId = this.venue.createUser(`other-trader-${++traders}`);
    for (const [asset, amount] of [['BTC', '1000'], ['ETH', '10000'], ['USDT', '100000000']] as const) this.venue.deposit(userId, asset, amount);
    this.venue.transfer({ userId, accountIndex: 0 }, { fromAccountType: 1, fromAccountIndex: 0, toAccountType: 3, toAccountIndex: 0, tokenId: 'BTC', amount: toAmount('500') });
    this.spot = this.venue.accountOf(userId, 1);
    this.contract = this.venue.accountOf(userId, 3);
    const botUser = this.venue.user(account);
    this.bot = { spot: this.venue.accountOf(botUser, 1), contract: this.venue.accountOf(botUser, 3) };
  }

  /** Replaces this trader's quotes on `symbol` with one bid and one ask of `qty` (a spot or a contract book). */
  quote(symbol: string, bid: string, ask: string, qty: string): void {
    const contract = this.isContract(symbol);
    for (const orderId of this.resting.get(symbol) ?? []) {
      if (contract) this.venue.cancelContractOrder(this.contract, { orderId });
      else this.venue.tryCancelSpotOrder(this.spot, { orderId });
    }
    const ids = [this.place(symbol, 'BUY', bid, qty, 'GTC'), this.place(symbol, 'SELL', ask, qty, 'GTC')];
    this.resting.set(symbol, ids);
  }

  /**
   * Quotes like `quote` and resolves once the bot has a book with both quotes pushed after they were
   * placed; until then the same quotes are placed again now and then, so a depth push the venue skipped
   * is made up by the next one.
   */
  async show(symbol: string, bid: string, ask: string, qty: string): Promise<void> {
    const inst = this.app.instruments.get(symbol)!;
    const [b, a] = [toTicks(inst, bid), toTicks(inst, ask)];
    const since = this.venue.clock.now();
    let seen = false;
    const off = this.app.bus.subscribe('depthSnapshot', (ev) => {
      if (ev.symbol !== symbol || ev.ts <= since) return;
      if (ev.bids.some(([p]) => toTicks(inst, p) === b) && ev.asks.some(([p]) => toTicks(inst, p) === a)) seen = true;
    });
    const show = (): void => this.quote(symbol, bid, ask, qty);
    show();
    const again = setInterval(show, 250);
    try {
      await until(this.app, () => seen, `the ${symbol} book at ${bid} / ${ask}`);
    } finally {
      clearInterval(again);
      off();
    }
  }

  /** Rests one GTC order of this trader's on `symbol` (a one-sided book, say); returns its orderId. */
  rest(symbol: string, side: 'BUY' | 'SELL', price: string, qty: string): string {
    return this.place(symbol, side, price, qty, 'GTC');
  }

  /** Takes the bot's best resting `side` order on `symbol` whole with an IOC order at its price; returns false when none rests. */
  takeBot(symbol: string, side: 'BUY' | 'SELL' = 'BUY'): boolean {
    const contract = this.isContract(symbol);
    const open = contract
      ? this.venue.openContractOrders(this.bot.contract, { symbol }).filter((o) => o.side.startsWith(side))
      : this.venue.openSpotOrders(this.bot.spot, { symbol }).filter((o) => o.side === side);
    const best = open.sort((a, b) => (side === 'BUY' ? 1 : -1) * new Decimal(b.price).cmp(a.price))[0];
    if (best === undefined) return false;
    const left = new Decimal(best.origQty).minus(best.executedQty).toFixed();
    this.place(symbol, side === 'BUY' ? 'SELL' : 'BUY', best.price, left, 'IOC');
    return true;
  }

  private place(symbol: string, side: 'BUY' | 'SELL', price: string, qty: string, tif: 'GTC' | 'IOC'): string {
    const id = `other-${++this.n}`;
    if (this.isContract(symbol)) {
      return this.venue.newContractOrder(this.contract, { symbol, side: `${side}_OPEN`, orderType: 'LIMIT', priceType: 'INPUT', timeInForce: tif, price, quantity: qty, leverage: '5', clientOrderId: id }).orderId;
    }
    return this.venue.newSpotOrder(this.spot, { symbol, side, type: 'LIMIT', timeInForce: tif, price, quantity: qty, newClientOrderId: id }).orderId;
  }

  private isContract(symbol: string): boolean {
    return this.venue.instrument(symbol)?.kind !== 'spot';
  }
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

/** Returns a started app for one strategy entry on the quiet embedded venue (no agents: see `OtherTrader`). */
export async function startStrategy(entry: RunConfigInput['strategies'][number], extra: Partial<RunConfigInput> = {}): Promise<{ app: RunningApp; lines: Record<string, unknown>[] }> {
  const { log, lines } = keptLogger();
  // Periodic reconciliation off: what the bot ends with must come from its streams and fills, not from adopting the venue's numbers.
  // Strategies read nil fees: these runs test the bot's machinery and need the market maker's quotes near the mid, where fills come within seconds
  // (with the venue's 0.1% maker fee it quotes that far from the mid; strategies/market-maker-fee.test.ts checks that).
  const fees = { spot: { maker: '0', taker: '0' }, contract: { maker: '0', taker: '0' } };
  const config = parseRunConfig({ venue: 'embedded', strategies: [entry], reconcile: { every: '1h' }, status: { every: '1s' }, fees, ...extra });
  const app = await startApp({ config, baseDir: join(ROOT, 'config') }, { log, venueConfig: quietVenue() });
  return { app, lines };
}

/** Switches faults on in the running venue. */
export function setFaults(app: RunningApp, f: FaultSettingsInput): void {
  app.embedded!.venue.server.faults.set(f);
}

/** True when [local, local + u) and [shown, shown + u) meet, u being one unit at `decimals`. */
export function withinOneUnit(local: Decimal, shown: Decimal, decimals: number): boolean {
  const u = new Decimal(1).dividedBy(new Decimal(10).pow(decimals));
  return local.lt(shown.plus(u)) && shown.lt(local.plus(u));
}

/** Stops the strategies (they cancel their orders), cancels what is left, lets the executor and fill sync finish, and compares with the venue. */
export async function settleAndCompare(app: RunningApp): Promise<Comparison> {
  await app.host.stop();
  for (const s of app.host.status()) app.executor.submit({ kind: 'cancelAll', strategyId: s.id });
  await app.executor.idle();
  // Orders whose outcome was unknown are settled by queries on the clock: wait on the executor's events until none is left.
  await settled(app, HANG_MS);
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
    // The venue keeps margin amounts finer than it shows them (it truncates to the token's margin precision, 8 decimals for BTC), and the bot
    // starts from such a shown figure, then adds exact inverse PnL and fees. So each side knows the true balance only within one unit u of
    // that precision: the venue's lies in [shown, shown + u), the bot's in [local, local + u). They agree when those ranges meet.
    const scale = Math.max(0, ...[...app.instruments.values()].filter((i) => i.marginToken === token).map((i) => i.marginPrecision ?? 0));
    if (mine === undefined || !withinOneUnit(new Decimal(mine.total), new Decimal(b.total), scale)) balanceDiff.push(`contract ${token}: local ${mine?.total}, venue ${b.total}`);
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

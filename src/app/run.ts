/**
 * A run: wires a validated config into a working bot. The venue (embedded or real) is reached only
 * through the signed REST client and the market and user stream clients; their events go onto one
 * bus; strategies read the bus and submit intents to the executor, which checks them with the risk
 * gate, sends them, and reconciles; a status line is logged on the clock. `stop` ends it gracefully.
 */
import { LiveClock, withinTime, type Clock, type TimerHandle } from '../core/clock.ts';
import { ConfigError } from '../core/errors.ts';
import { createLogger, type Logger } from '../core/logger.ts';
import { ClientOrderIds } from '../core/ids.ts';
import { EventBus } from '../bus/index.ts';
import { instrumentsOf, type BusEvent, type Instrument } from '../model/index.ts';
import { RiskGate } from '../risk/index.ts';
import { OrderExecutor } from '../execution/executor.ts';
import { isWorking } from '../execution/order-state.ts';
import { Portfolio } from '../execution/portfolio/portfolio.ts';
import { VenueRestClient } from '../venue/rest-client.ts';
import { RestGateway } from '../venue/gateway.ts';
import { MarketWsClient } from '../venue/market-ws.ts';
import { UserStreamClient } from '../venue/user-stream.ts';
import type { VenueConfig } from '../sim/server/config.ts';
import { loadStrategy, parseParams, StrategyHost } from '../strategy/index.ts';
import type { LoadedConfig } from './config.ts';
import { startEmbeddedVenue, type EmbeddedVenue, type VenueEndpoint } from './embedded.ts';
import { formatStatus } from './status.ts';
import { followPrices, seedPrices } from './prices.ts';
import { startRunRecording } from '../data/capture/run-recording.ts';
import { feedSource, makeSubmit } from './submit.ts';
import { restHistory } from './history.ts';
import { subscribeStreams } from './market-streams.ts';
import { formatSummary, type StrategySummary } from './summary.ts';
import { strategySummaries, tallyRun } from './run-summary.ts';
import { statusLines, strategyView } from './views.ts';

/** How a caller (the CLI or a test) runs a config. */
export interface StartOptions {
  readonly clock?: Clock;
  readonly log?: Logger;
  /** The embedded venue's config itself, instead of the file `embedded.config` names (tests). */
  readonly venueConfig?: VenueConfig;
  /** Run tag of clientOrderIds (default: from the clock, base 36). */
  readonly runTag?: string;
  /** The clock the strategies get (default: `clock`; a parity check's live run tells their timers apart). */
  readonly strategyClock?: Clock;
}

/** A running bot. */
export interface RunningApp {
  readonly bus: EventBus;
  readonly executor: OrderExecutor;
  readonly portfolio: Portfolio;
  readonly host: StrategyHost;
  readonly instruments: ReadonlyMap<string, Instrument>;
  readonly rest: VenueRestClient;
  readonly market: MarketWsClient;
  readonly user: UserStreamClient;
  /** The in-process venue when the config says `venue: embedded`. */
  readonly embedded: EmbeddedVenue | undefined;
  /** Resolves when the run has stopped. */
  readonly done: Promise<void>;
  /** The exit code the run ends with: 1 when a strategy failed (unless `onStrategyFailure: continue`), else 0. */
  exitCode(): number;
  /** Returns the current status line. */
  status(): string;
  /** Returns the run's summary so far: per strategy its orders, fills, volume, fees, PnL and open positions (logged when the run stops). */
  summary(): readonly StrategySummary[];
  /** Stops strategies, cancels open orders when configured, waits for the executor and closes every link. */
  stop(reason: string): Promise<void>;
}

/** Returns a started bot for a loaded config; throws a ConfigError (exit 2) for a bad plugin, params or symbol. */
export async function startApp(loaded: LoadedConfig, opts: StartOptions = {}): Promise<RunningApp> {
  const { config: cfg, baseDir } = loaded;
  const clock = opts.clock ?? new LiveClock();
  const pretty = cfg.log.pretty === 'auto' ? undefined : cfg.log.pretty === 'on';
  const log = opts.log ?? createLogger({ level: cfg.log.level, ...(pretty === undefined ? {} : { pretty }) });
  const runTag = opts.runTag ?? clock.now().toString(36).slice(-8);
  // Plugins load before any connection: a bad reference or params stops the run at once.
  const definitions = await Promise.all(cfg.strategies.map((s, i) => loadStrategy(s.use, baseDir, `strategies[${i}].use`)));
  definitions.forEach((d, i) => parseParams(d, cfg.strategies[i]!.params, `strategies[${i}].params`));

  const embedded = cfg.venue === 'embedded'
    ? await startEmbeddedVenue(cfg.embedded, baseDir, clock, log.child({ component: 'venue' }), opts.venueConfig)
    : undefined;
  const endpoint: VenueEndpoint = embedded?.endpoint ?? (cfg.venue as VenueEndpoint);
  const closers: (() => Promise<void> | void)[] = [];
  if (embedded) closers.push(() => embedded.venue.stop());
  try {
    const bus = new EventBus({ logger: log.child({ component: 'bus' }), clock });
    closers.unshift(() => bus.close());
    const rest = new VenueRestClient({ baseUrl: endpoint.rest, apiKey: endpoint.apiKey, secret: endpoint.secret, clock, logger: log.child({ component: 'rest' }) });
    // `record:` captures the market on its own socket and the order calls and reports beside it (src/data/capture).
    const recording = cfg.record && await startRunRecording(cfg.record, { baseDir, clock, log: log.child({ component: 'record' }), rest: endpoint.rest, ws: endpoint.ws, bus, symbols: cfg.strategies.flatMap((s) => s.symbols) });
    if (recording) closers.unshift(() => recording.stop());
    const direct = new RestGateway(rest, () => clock.now());
    const gateway = recording ? recording.gateway(direct) : direct;
    const instruments = instrumentsOf(await gateway.exchangeInfo());
    checkSymbols(cfg, instruments);
    const gate = new RiskGate({ instruments, config: cfg.risk });
    // The portfolio attributes fills to strategies through the executor's orders, built just after it.
    const late: { executor?: OrderExecutor } = {};
    const portfolio = new Portfolio(instruments, (orderId) => late.executor?.store.byVenueId(orderId)?.strategyId);
    const exec = new OrderExecutor({
      gateway, bus, clock, gate, portfolio, instruments, ids: new ClientOrderIds('bh', runTag), logger: log.child({ component: 'executor' }),
      reconcile: { everyMs: cfg.reconcile.every, unknownOrders: cfg.reconcile.unknownOrders },
      history: { maxOrders: cfg.orderHistory.maxOrders, maxAgeMs: cfg.orderHistory.maxAge },
    });
    late.executor = exec;
    const views = { portfolio, feed: exec.feed, books: exec.books, instruments };
    const tally = tallyRun(exec);
    const sink = (ev: BusEvent): void => bus.publish(ev);
    const ticks = Object.fromEntries([...instruments.values()].map((i) => [i.symbol, i.tickSize]));
    const market = new MarketWsClient({ wsUrl: endpoint.ws, clock, sink, log: log.child({ component: 'market' }), ticks });
    const user = new UserStreamClient({ rest, wsUrl: endpoint.ws, clock, sink, log: log.child({ component: 'user' }) });
    const failed: string[] = [];
    const lifecycle: { stop?: (reason: string) => Promise<void> } = {};
    const host = new StrategyHost({
      bus, clock: opts.strategyClock ?? clock, log, instruments, runTag,
      onFailed: (id) => {
        failed.push(id);
        // With no strategy left running the run has nothing to do: it stops (at once, or as soon as it can once started).
        if (!host.status().some((st) => st.state === 'running' || st.state === 'created')) void lifecycle.stop?.(`strategy ${id} failed and none is left running`);
      },
      submit: makeSubmit(exec),
      history: restHistory(rest, instruments),
      portfolio: (id) => strategyView(views, id, symbolsOf(id)),
      orders: feedSource(exec),
      fees: (symbol) => {
        const kind = instruments.get(symbol)?.kind === 'spot' ? 'spot' : 'contract';
        return cfg.fees[kind] ?? embedded?.fees[kind];
      },
    });
    const symbolsOf = (id: string): readonly string[] => cfg.strategies.find((s) => s.id === id)?.symbols ?? [];
    cfg.strategies.forEach((s, i) => host.add({ id: s.id, definition: definitions[i]!, symbols: s.symbols, params: s.params, paramsPath: `strategies[${i}].params`, streams: s.streams }));

    followPrices(bus, portfolio, instruments);
    await seedPrices(rest, portfolio, cfg.strategies.flatMap((s) => s.symbols), instruments, log);
    await user.start();
    closers.unshift(() => user.stop());
    await exec.start();
    closers.unshift(() => exec.stop());
    market.start();
    closers.unshift(() => market.stop());
    const funding = subscribeStreams({ market, rest, clock, sink, log: log.child({ component: 'funding' }), instruments }, host.streams());
    if (funding) closers.unshift(() => funding.stop());
    await host.start();

    const lines = () => statusLines(views, host.status(), symbolsOf);
    const status = (): string => formatStatus(lines());
    const summary = (): readonly StrategySummary[] => strategySummaries(tally, views, host.status(), symbolsOf, instruments);
    const statusTimer: TimerHandle = clock.setInterval(() => log.info(status()), cfg.status.every);
    let resolveDone!: () => void;
    const done = new Promise<void>((r) => { resolveDone = r; });
    let stopping: Promise<void> | undefined;
    const stop = (reason: string): Promise<void> => {
      stopping ??= (async () => {
        // The clock's timers are unref'd: without a ref'd handle, a stop waiting out a 429 pause would let Node exit mid-stop.
        const keepAlive = setInterval(() => undefined, 1 << 30);
        try {
          log.info({ reason }, 'stopping');
          statusTimer.cancel();
          await host.stop(cfg.stop.timeout);
          // An order a stop() handler placed (a closing order) may still wait in the executor's queue: cancelled there it would never be sent.
          // Each step has its own stop.timeout: a venue that answers late (down, or 429s) must not leave the cancels no time.
          if (cfg.stop.cancelAll) await withinTime(clock, answeredOwn(exec), cfg.stop.timeout);
          if (cfg.stop.cancelAll) for (const s of cfg.strategies) exec.submit({ kind: 'cancelAll', strategyId: s.id });
          await withinTime(clock, cfg.stop.cancelAll ? settledOwn(exec) : exec.idle(), cfg.stop.timeout);
          const adopted = exec.orders().filter((o) => o.adopted && isWorking(o)).map((o) => o.clientOrderId);
          if (adopted.length > 0) log.warn({ adopted }, `left ${adopted.length} adopted order(s) working on the venue: the run did not place them, so its stop does not cancel them`);
          // The last fills reach the summary and the status before the links close.
          await withinTime(clock, exec.syncFills().catch((err: unknown) => log.warn({ err }, 'final fill sync failed')), cfg.stop.timeout);
          // Until here the stopped strategies still got their orders' last events (the cancels above, the wind-down's fills).
          host.finish();
          log.info(status());
          const final = summary();
          for (const [n, line] of formatSummary(final).entries()) log.info({ summary: final[n] }, line);
          for (const close of closers.splice(0)) await close();
          log.info('stopped');
          resolveDone();
        } finally {
          clearInterval(keepAlive);
        }
      })();
      return stopping;
    };
    lifecycle.stop = stop;
    log.info({ venue: embedded ? `embedded ${endpoint.rest}` : endpoint.rest, strategies: cfg.strategies.map((s) => s.id) }, 'running');
    if (!host.status().some((st) => st.state === 'running')) void stop(`strategies failed at start: ${failed.join(', ')}`);
    const exitCode = (): number => (failed.length > 0 && cfg.onStrategyFailure !== 'continue' ? 1 : 0);
    return { bus, executor: exec, portfolio, host, instruments, rest, market, user, embedded, done, status, summary, stop, exitCode };
  } catch (e) {
    for (const close of closers.splice(0)) await close();
    throw e;
  }
}

/** Throws a ConfigError (exit 2) naming the key of the first symbol the venue does not list, and the valid symbols. */
export function checkSymbols(cfg: LoadedConfig['config'], instruments: ReadonlyMap<string, Instrument>): void {
  const valid = (): string => [...instruments.keys()].sort().join(', ');
  cfg.strategies.forEach((s, i) => s.symbols.forEach((symbol, j) => {
    if (!instruments.has(symbol)) throw new ConfigError(`strategies[${i}].symbols[${j}]`, `unknown symbol ${symbol}; the venue lists: ${valid()}`);
  }));
  for (const symbol of Object.keys(cfg.risk.symbols ?? {})) {
    if (!instruments.has(symbol)) throw new ConfigError(`risk.symbols.${symbol}`, `unknown symbol ${symbol}; the venue lists: ${valid()}`);
  }
}

/** Resolves once the venue has answered every order the run placed (none is still queued or in flight unanswered). */
function answeredOwn(exec: OrderExecutor): Promise<void> {
  return whenNone(exec, () => exec.placing());
}

function whenNone(exec: OrderExecutor, open: () => boolean): Promise<void> {
  if (!open()) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const off = exec.on(() => {
      if (open()) return;
      off();
      resolve();
    });
  });
}

/** Resolves once no order the run placed is still working (cancels retried through 429 pauses included) and the executor is idle. */
async function settledOwn(exec: OrderExecutor): Promise<void> {
  await whenNone(exec, () => exec.store.working().some((o) => !o.adopted));
  await exec.idle();
}

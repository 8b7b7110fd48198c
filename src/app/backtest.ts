/**
 * A backtest: the config's strategies, risk gate, executor and portfolio (the code `bhtrade run` uses)
 * on a VirtualClock, trading through a Gateway into backtest exchanges fed by the catalog's replay;
 * returns what the results writer takes.
 */
import { createHash } from 'node:crypto';
import { sha256 } from '../backtest/report/hash.ts';
import { readFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { VirtualClock, type Clock } from '../core/clock.ts';
import { ConfigError } from '../core/errors.ts';
import { compareDecimal } from '../core/fixed.ts';
import { ClientOrderIds } from '../core/ids.ts';
import { createLogger, silentLogger, type Logger } from '../core/logger.ts';
import type { DestinationStream } from 'pino';
import { EventBus } from '../bus/index.ts';
import { DAY_MS, instrumentsOf, type BusEvent } from '../model/index.ts';
import { RiskGate } from '../risk/index.ts';
import { OrderExecutor } from '../execution/executor.ts';
import { Portfolio } from '../execution/portfolio/portfolio.ts';
import { loadStrategy, parseParams, StrategyHost, type StrategyDefinition } from '../strategy/index.ts';
import { readCatalog } from '../data/catalog.ts';
import { computeMetrics, queueModel, resultsFromLines, writeResults, type BacktestResults, type ResultFileName } from '../backtest/index.ts';
import { ExchangeGateway } from '../backtest/run/exchange-gateway.ts';
import { advanceClock, drive } from '../backtest/run/drive.ts';
import { catalogHistory } from '../backtest/run/history.ts';
import { withOwnOrders } from '../backtest/run/own-overlay.ts';
import type { LatencyModel } from '../backtest/exchange/latency.ts';
import { buildMarkets, indexMarks, modeOf, type BacktestMode, type RunMarket } from '../backtest/run/markets.ts';
import { TradeKlines } from '../backtest/run/trade-klines.ts';
import type { KlineInterval } from '../model/enums.ts';
import type { ReplayStats } from '../data/replay.ts';
import type { TableName } from '../data/tables.ts';
import { fmtAmount } from '../sim/ledger/amount.ts';
import { configCatalog, DEFAULT_BALANCES, parseTime, type LoadedConfig } from './config.ts';
import { feedSource, makeSubmit } from './submit.ts';
import { followPrices } from './prices.ts';
import { snapshotLevels } from './market-streams.ts';
import { strategyView } from './views.ts';
import { strategySummaries, tallyRun } from './run-summary.ts';
import { formatSummary, type StrategySummary } from './summary.ts';
import { Recorder } from './backtest-recorder.ts';

/** What a caller (the CLI, a test, the bench) may override. */
export interface BacktestOptions {
  /** The catalog folder (default: the config's backtest.data). */
  readonly data?: string;
  /** Local-time range as ISO or epoch ms texts (default: the config's, else the data's). */
  readonly from?: string;
  readonly to?: string;
  /** The config file's path (its name names the run; its bytes are hashed). */
  readonly configPath?: string;
  readonly log?: Logger;
  /** Where the run's log lines go (at the config's log.level, stamped with simulated time), when no `log` is given; default: nowhere. */
  readonly logTo?: DestinationStream;
  /** Called once the range is known, before the first event (ms). */
  readonly onStart?: (range: { from: number; to: number }) => void;
  /** Called after each market event reached the bus: how many, and the simulated time. */
  readonly onProgress?: (events: number, time: number) => void;
  /** The order latencies of a traded symbol's exchange, instead of the config's drawn ones (parity: the recorded round trips). */
  readonly latency?: (symbol: string) => LatencyModel;
  /** Lay the bot's resting orders over the book snapshots strategies read, as a live venue's depth shows them. */
  readonly ownOrdersInBook?: boolean;
  /** The clock the strategies' timers run on, made from the backtest's (parity: the live run's ticks). */
  readonly strategyClock?: (clock: VirtualClock) => Clock;
  /** Returns the definition each strategy runs with (the lookahead check wraps them to see what each handler emits). */
  readonly wrapStrategy?: (definition: StrategyDefinition, id: string) => StrategyDefinition;
  /** Mixed into the config's hash (a sweep's swept values: the file alone is the same for every combination). */
  readonly hashWith?: string;
  /** After the last event, let time run to the end of the range (to − 1 ms) before the strategies stop, so their timers up to there fire. */
  readonly timeToEnd?: boolean;
}

/** A finished backtest: its results and what the replay read. */
export interface BacktestRun {
  readonly results: BacktestResults;
  readonly replay: ReplayStats;
  /** Market events that reached the bus. */
  readonly events: number;
  readonly range: { readonly from: number; readonly to: number };
  /** How orders filled: on the recorded L2 book, or along each bar's path. */
  readonly mode: BacktestMode;
  /** Strategies that threw and were stopped, in the order they failed. */
  readonly failed: readonly StrategyFailure[];
  /** The symbols the strategies traded, in the order their markets were made: `results` are the first's. */
  readonly traded: readonly string[];
  /** The results of each other traded symbol, in that order: each is an account of its own, in its own currency. */
  readonly others: readonly BacktestResults[];
  /** Other traded symbols without results: no book or trade of theirs in the range gave a price to mark their equity at. */
  readonly unpriced: readonly string[];
  /** Klines a strategy asked for and never got: the data held none of that symbol and interval in the range. */
  readonly unservedKlines: readonly { readonly strategy: string; readonly symbol: string; readonly interval: string }[];
  /** Each strategy's summary at the end (orders, fills, volume and fees per symbol, PnL from its own book, positions left): what a live run ends with. */
  readonly strategies: readonly StrategySummary[];
}

/** How a strategy's failure is told: which, when in simulated time, the error and where it was thrown. */
export function failureText(f: StrategyFailure): string {
  return `strategy ${f.id} threw at ${new Date(f.time).toISOString()} (simulated) and was stopped: ${f.error}${f.at === undefined ? '' : `\n  ${f.at}`}`;
}

/** bhtrade's own sources: a frame there is where bhtrade refused what the strategy asked, not the strategy's line. */
const OWN_SOURCES = resolve(import.meta.dirname, '..');

/** Returns the stack frame that points at the strategy's own code: the first outside bhtrade, node and node_modules (else the first frame). */
function throwingFrame(e: Error): string | undefined {
  const frames = (e.stack ?? '').split('\n').map((l) => l.trim()).filter((l) => l.startsWith('at '));
  const foreign = frames.find((l) => !l.includes(OWN_SOURCES) && !l.includes('node_modules') && !l.includes('node:'));
  // A strategy loaded again in this process (a sweep, lookahead) carries its load count in its URL: not part of its path.
  return (foreign ?? frames[0])?.replace(/\?load=\d+:/, ':');
}

/** A strategy that threw during a backtest: stopped there, its orders cancelled, the others went on. */
export interface StrategyFailure {
  readonly id: string;
  readonly error: string;
  /** Simulated time of the throw, epoch ms. */
  readonly time: number;
  /** The stack's first frame in the strategy's own code (else its first frame), where it has one. */
  readonly at?: string;
}

/**
 * How much V8 lets its old generation grow past what a full collection left alive, in percent. V8
 * picks up to 300 % on its own when collections are quick, and a backtest holds little beside the
 * garbage it makes per event: a 10 M-event run holding about 50 MB then peaked near 380 MB RSS. At
 * 200 % it peaks near 330 MB for about the same CPU (100 %: near 280 MB, but about 15 % more CPU in
 * collections); docs/backtest.md. V8 reads it at each collection; it changes no result.
 */
export const BACKTEST_HEAP_GROWING_PERCENT = 200;

/**
 * Sets BACKTEST_HEAP_GROWING_PERCENT for this process, and turns off V8's allocation-site pretenuring,
 * unless node was started with a value of its own. V8 pretenures a site whose objects it finds alive
 * at scavenges; it did so for the book lists a depth snapshot carries (the current ones are always
 * alive), so most lists of a 10 M-event run were made in the old generation, where they died: about 60 MB
 * of old garbage per 1 M events for the full collections (and their marking on the other core) to
 * clear. Without it such a run peaked 20 to 30 MB lower and took 2 to 7 % less CPU (docs/backtest.md).
 * V8 reads both at each collection; neither changes a result.
 */
function tuneHeap(): void {
  const given = [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)];
  if (!given.some((a) => a.startsWith('--heap-growing-percent'))) setFlagsFromString(`--heap-growing-percent=${BACKTEST_HEAP_GROWING_PERCENT}`);
  if (!given.some((a) => a.endsWith('allocation-site-pretenuring'))) setFlagsFromString('--no-allocation-site-pretenuring');
}

/** Runs a loaded config's backtest to the end of its data; throws a ConfigError (exit 2) for bad settings. */
export async function runBacktest(loaded: LoadedConfig, o: BacktestOptions = {}): Promise<BacktestRun> {
  tuneHeap();
  const { config: cfg, baseDir } = loaded;
  const bt = cfg.backtest;
  const catalogDir = configCatalog(loaded, o.data);
  const index = readCatalog(catalogDir);
  const traded = [...new Set(cfg.strategies.flatMap((s) => s.symbols))].sort();
  const replayed = [...new Set([...(bt.symbols ?? []), ...traded])].sort();
  const keyOf = (symbol: string): string => {
    for (const [i, s] of cfg.strategies.entries()) {
      const j = s.symbols.indexOf(symbol);
      if (j >= 0) return `strategies[${i}].symbols[${j}]`;
    }
    return `backtest.symbols[${bt.symbols?.indexOf(symbol) ?? 0}]`;
  };
  for (const s of replayed) if (index.instruments[s] === undefined) throw new ConfigError(keyOf(s), `${s} is not in the catalog ${catalogDir} (it has ${Object.keys(index.instruments).sort().join(', ')})`);
  if (bt.balances !== undefined) unknownAssets(index, bt.balances);
  const balances = bt.balances ?? DEFAULT_BALANCES;
  unfunded(index, traded, balances);
  if (bt.mode === 'bars') {
    for (const symbol of traded) {
      const tables = [...new Set(index.files.filter((f) => f.symbol === symbol).map((f) => f.table))].sort();
      if (!tables.includes('klines')) throw new ConfigError('backtest.mode', `bars runs on klines, and the catalog holds none of ${symbol} (it holds its ${tables.join(', ') || 'nothing'})`);
    }
  }
  const range = rangeOf(index, replayed, {
    from: o.from ?? bt.from, to: o.to ?? bt.to, fromKey: o.from !== undefined ? '--from' : 'backtest.from', toKey: o.to !== undefined ? '--to' : 'backtest.to',
  }, bt.mode === 'bars' ? ['klines'] : ['book_deltas', 'trades', 'klines']);
  const mode = modeOf(bt.mode, index, replayed, range);
  const definitions = await Promise.all(cfg.strategies.map((s, i) => loadStrategy(s.use, baseDir, `strategies[${i}].use`)));
  definitions.forEach((d, i) => parseParams(d, cfg.strategies[i]!.params, `strategies[${i}].params`));

  const clock = new VirtualClock(range.from);
  const log = o.log ?? (o.logTo === undefined ? silentLogger() : createLogger({ level: cfg.log.level, destination: o.logTo, time: () => clock.now() }));
  // Not frozen (the dispatcher's rule for backtests): freezing each published book costs more than the strategy does.
  const bus = new EventBus({ logger: log.child({ component: 'bus' }), clock, freeze: false });
  const sink = (ev: BusEvent): void => bus.publish(ev);
  // A recorder per traded symbol: each symbol is an account of its own, in its own currency, and gets results of its own.
  const recs = new Map(traded.map((symbol) => [symbol, new Recorder()]));
  const recOf = (symbol: string): Recorder => recs.get(symbol)!;
  const late: { gateway?: ExchangeGateway; executor?: OrderExecutor; sample?: (m: RunMarket) => void; barClosed?: () => void; end?: number } = {};
  const markets = await buildMarkets({
    clock, catalog: catalogDir, index, mode, balances, fees: bt.fees, latency: bt.latency, queue: queueModel(bt.queue), seed: bt.seed,
    ...(o.latency ? { latencyOf: o.latency } : {}),
    ...(bt.funding.rate === undefined ? {} : { fundingRate: bt.funding.rate }),
    onReport: (symbol, r) => late.gateway?.onReport(symbol, r),
    onAccountChange: (symbol) => {
      const m = marketOf.get(symbol);
      if (m === undefined) return;
      late.gateway?.accountEvents(m, clock.now());
      // A change in the wind-down after the data (the last reports coming in) is dated at the data's end, as the final equity is.
      recOf(symbol).positionAt(Math.min(clock.now(), late.end ?? Infinity), m.netPosition());
    },
    onBarClose: (symbol) => {
      const m = marketOf.get(symbol);
      if (m !== undefined) late.sample?.(m);
      late.barClosed?.();
    },
  }, traded);
  // The callbacks above run once the data does, after this is made.
  const marketOf = new Map(markets.map((m) => [m.inst.symbol, m]));
  const marks = indexMarks(index, markets);
  // The run's results follow the first traded symbol; each other traded symbol gets results of its own (its account's equity in
  // its currency, marked at its recorded mark for a contract, mid or bar; its orders and fills alone): mixed, they would skew every metric.
  const main: RunMarket | undefined = markets[0];
  if (main === undefined) throw new ConfigError('strategies', 'no symbol to trade');
  const gateway = new ExchangeGateway(clock, markets, sink, {
    order: (r, req) => {
      if (marketOf.has(r.symbol)) recOf(r.symbol).order(r, req);
    },
    fill: (f) => {
      const m = marketOf.get(f.symbol);
      if (m !== undefined) recOf(f.symbol).fill(f, m);
    },
  });
  late.gateway = gateway;
  const instruments = instrumentsOf(await gateway.exchangeInfo());
  const gate = new RiskGate({ instruments, config: cfg.risk });
  const portfolio = new Portfolio(instruments, (orderId) => late.executor?.store.byVenueId(orderId)?.strategyId);
  const exec = new OrderExecutor({
    gateway, bus, clock, gate, portfolio, instruments, ids: new ClientOrderIds('bh', 'bt'), logger: log.child({ component: 'executor' }),
    // Bar mode reconciles at bar closes (below): between a bar's points nothing changes, and a timer of 30 s made an hourly run reconcile 120 times a bar.
    reconcile: { everyMs: mode === 'bars' ? 0 : cfg.reconcile.every, unknownOrders: cfg.reconcile.unknownOrders },
    history: { maxOrders: cfg.orderHistory.maxOrders, maxAgeMs: cfg.orderHistory.maxAge },
  });
  late.executor = exec;
  if (mode === 'bars') late.barClosed = barReconciliation(clock, cfg.reconcile.every, () => void exec.reconcile());
  const views = { portfolio, feed: exec.feed, books: exec.books, instruments };
  const tally = tallyRun(exec);
  const symbolsOf = (id: string): readonly string[] => cfg.strategies.find((s) => s.id === id)?.symbols ?? [];
  let strategies: StrategySummary[] = [];
  const history = catalogHistory(catalogDir, clock, replayed);
  const failed: StrategyFailure[] = [];
  const host = new StrategyHost({
    bus, clock: o.strategyClock?.(clock) ?? clock, log, instruments, runTag: 'bt',
    submit: makeSubmit(exec),
    history,
    portfolio: (id) => strategyView(views, id, symbolsOf(id)),
    orders: feedSource(exec),
    // The exchange charges the backtest's rates; strategies read the same ones.
    fees: (symbol) => (instruments.has(symbol) ? { maker: bt.fees.maker, taker: bt.fees.taker } : undefined),
    onFailed: (id, error, thrown) => {
      const at = thrown instanceof Error ? throwingFrame(thrown) : undefined;
      failed.push({ id, error, time: clock.now(), ...(at === undefined ? {} : { at }) });
    },
  });
  cfg.strategies.forEach((s, i) => host.add({ id: s.id, definition: o.wrapStrategy?.(definitions[i]!, s.id) ?? definitions[i]!, symbols: s.symbols, params: s.params, paramsPath: `strategies[${i}].params`, streams: s.streams }));
  followPrices(bus, portfolio, instruments);
  if (mode === 'l2') klinesFromTrades(bus, host, markets, index, range);
  // The klines that reached the bus: a strategy that asked for others got none, and is told at the end.
  const klinesSeen = new Set<string>();
  bus.subscribe('kline', (ev) => void klinesSeen.add(`${ev.symbol} ${ev.interval}`), { label: 'klines-seen' });
  // Bar mode has no trades: a closed bar's close is the last price (the risk gate's band, unrealized PnL), seen when the bar is.
  if (mode === 'bars') bus.subscribe('kline', (ev) => ev.closed && portfolio.setPrice(ev.symbol, { last: ev.close }), { label: 'bar-prices' });

  const sampleOne = (m: RunMarket, at = clock.now()): void => {
    const mark = m.markTicks();
    if (mark === undefined) return;
    const rec = recOf(m.inst.symbol);
    rec.equity.push(at, fmtAmount(m.equity(mark)));
    rec.prices.push(at, m.inst.priceText(mark));
  };
  const sample = (at = clock.now()): void => {
    for (const m of markets) sampleOne(m, at);
  };
  late.sample = sampleOne;
  // Bar mode samples at each bar's close; L2 at the first event with a mark (the balances before any order), then every equityEvery.
  const sampler = mode === 'l2' ? clock.setInterval(sample, bt.equityEvery) : undefined;
  // The markets not sampled yet (L2): each is, at the first event after which it has a mark.
  const unmarked = mode === 'l2' ? [...markets] : [];
  const markNew = (): void => {
    let left = 0;
    for (const m of unmarked) {
      if (m.markTicks() === undefined) unmarked[left++] = m;
      else sampleOne(m);
    }
    unmarked.length = left;
  };

  let events = 0;
  let stats: ReplayStats;
  const levels = (symbol: string): number => snapshotLevels(host.streams(), instruments, symbol);
  o.onStart?.(range);
  await advanceClock(clock, clock.now(), history.busy);
  await exec.start();
  await host.start();
  try {
    stats = await drive({
      catalog: catalogDir, symbols: replayed, from: BigInt(range.from) * 1_000_000n, to: BigInt(range.to) * 1_000_000n, clock,
      publish: o.ownOrdersInBook ? withOwnOrders(sink, markets, levels) : sink,
      busy: history.busy,
      snapshotEveryUpdate: host.streams().some((s) => s.streams.depth === 'snapshot'),
      snapshotLevels: levels,
      readsUpdates: (symbol) => bus.reads('depthUpdate', symbol),
      markets: marketOf,
      marks,
      ...(mode === 'bars' ? { tables: ['klines', 'funding', 'index', 'tickers'] as const } : {}),
      onEvent: (n) => {
        events = n;
        if (unmarked.length > 0) markNew();
        o.onProgress?.(n, clock.now());
      },
    });
    if (o.timeToEnd === true) await advanceClock(clock, Math.max(clock.now(), range.to - 1), history.busy);
    // The end of the data: sampling stops, strategies stop, open orders are cancelled, the last reports and fills come in, and
    // the account after them is the last point, dated at the data's end (the wind-down's seconds are no market time).
    const end = clock.now();
    late.end = end;
    sampler?.cancel();
    await host.stop();
    // As in a live run: the orders a stop() placed (a closing order) are sent and answered before the cancels, which would
    // otherwise drop them from the executor's queue unsent; the wait is bounded by stop.timeout, of simulated time.
    if (cfg.stop.cancelAll) await advanceClock(clock, clock.now() + cfg.stop.timeout, history.busy, () => !exec.placing());
    if (cfg.stop.cancelAll) for (const s of cfg.strategies) exec.submit({ kind: 'cancelAll', strategyId: s.id });
    await advanceClock(clock, clock.now() + 10_000, history.busy);
    const fillsRead = exec.syncFills();
    await advanceClock(clock, clock.now() + 1_000, history.busy);
    await fillsRead;
    host.finish();
    sample(end);
    // As a live run ends: each strategy's orders, fills, fees and PnL (from its own book, at the last marks), in log.jsonl.
    strategies = strategySummaries(tally, views, host.status(), symbolsOf, instruments);
    for (const [n, line] of formatSummary(strategies).entries()) log.info({ summary: strategies[n] }, line);
  } catch (err) {
    for (const r of recs.values()) r.discard();
    throw err;
  } finally {
    sampler?.cancel();
    exec.stop();
    bus.close();
  }
  const mainRec = recOf(main.inst.symbol);
  if (mainRec.equity.length === 0) {
    for (const r of recs.values()) r.discard();
    throw new ConfigError('backtest.from', `no book or trade of ${main.inst.symbol} between ${new Date(range.from).toISOString()} and ${new Date(range.to).toISOString()}: nothing to mark equity at`);
  }
  const configBytes = o.configPath !== undefined ? readFileSync(o.configPath) : Buffer.from(JSON.stringify(cfg));
  const fileHash = createHash('sha256').update(configBytes).update(JSON.stringify({ from: range.from, to: range.to })).digest('hex');
  const common = {
    name: o.configPath !== undefined ? basename(o.configPath, extname(o.configPath)) : 'backtest',
    configHash: o.hashWith === undefined ? fileHash : sha256(fileHash, o.hashWith),
    // The data read: the replayed symbols' files, and the index tables of other symbols that mark a contract.
    dataHash: createHash('sha256').update(JSON.stringify(index.files.filter((f) => replayed.includes(f.symbol) || (f.table === 'index' && marks.has(f.symbol))))).digest('hex'),
    seed: bt.seed,
  };
  const results = marketResults(main, mainRec, common);
  const others: BacktestResults[] = [];
  const unpriced: string[] = [];
  for (const m of markets.slice(1)) {
    const rec = recOf(m.inst.symbol);
    if (rec.equity.length > 0) others.push(marketResults(m, rec, common));
    else {
      rec.discard();
      unpriced.push(m.inst.symbol);
    }
  }
  const unservedKlines = host.streams().flatMap((s) => s.streams.klines.flatMap((interval) => s.symbols
    .filter((symbol) => !klinesSeen.has(`${symbol} ${interval}`)).map((symbol) => ({ strategy: s.id, symbol, interval }))));
  for (const u of unservedKlines) log.warn(u, `strategy ${u.strategy} asked for ${u.interval} klines of ${u.symbol} and got none: the data held none in the range`);
  return { results, others, unpriced, replay: stats, events, range, mode, failed, traded, unservedKlines, strategies };
}

/** One traded symbol's results as written: the results, their folder and their files. */
export interface WrittenResults {
  readonly results: BacktestResults;
  readonly dir: string;
  readonly files: Record<ResultFileName, string>;
}

/** Writes a run's results into `dir`, and each other traded symbol's into `dir`/SYMBOL; returns them as written, the run's first. */
export function writeRun(dir: string, run: BacktestRun): WrittenResults[] {
  const write = (results: BacktestResults, at: string): WrittenResults => ({ results, dir: at, files: writeResults(at, results) });
  return [write(run.results, dir), ...run.others.map((r) => write(r, join(dir, r.symbol)))];
}

/** What every traded symbol's results share: the run's name, hashes and seed. */
type CommonResults = Pick<BacktestResults, 'name' | 'configHash' | 'dataHash' | 'seed'>;

/** Returns one traded symbol's results: its account's equity in its currency, its orders and fills, and their metrics. */
function marketResults(m: RunMarket, rec: Recorder, common: CommonResults): BacktestResults {
  const equity = lastAtItsTime(rec.equity.drain()).map((p) => ({ time: p.time, equity: p.text }));
  const positions = rec.positions.drain().map((p) => ({ time: p.time, position: p.text }));
  const inst = m.inst;
  return resultsFromLines({
    ...common,
    symbol: inst.symbol,
    currency: m.currency,
    moneyDecimals: inst.contract ? decimalsOf(inst.contract.marginPrecision) : decimalsOf(inst.tick.text) + 2,
    positionUnit: inst.contract ? 'contracts' : inst.baseAsset,
    positionDecimals: decimalsOf(inst.step.text),
    priceUnit: inst.quoteAsset,
    equity,
    positions,
    prices: lastAtItsTime(rec.prices.drain()).map((p) => ({ time: p.time, price: p.text })),
    metrics: computeMetrics({
      equity, fills: rec.fillTotals, trades: m.trips.stats(), positions,
      fundingPaid: fmtAmount(m.funding().paid), fundingReceived: fmtAmount(m.funding().received), orders: rec.orders, cancels: rec.cancels,
    }),
  }, rec.orderLines(), rec.fillLines());
}

/** Makes klines from the replayed trades of each traded symbol whose range in the catalog holds none, at the intervals its strategies asked for (the venue builds its kline stream from trades). */
function klinesFromTrades(bus: EventBus, host: StrategyHost, markets: readonly RunMarket[], index: ReturnType<typeof readCatalog>, range: { from: number; to: number }): void {
  const recorded = (symbol: string): boolean => index.files.some((f) => f.table === 'klines' && f.symbol === symbol
    && Number(BigInt(f.firstNs) / 1_000_000n) < range.to && Number(BigInt(f.lastNs) / 1_000_000n) >= range.from);
  const wanted = new Map<string, { inst: RunMarket['inst']; intervals: KlineInterval[] }>();
  for (const s of host.streams()) {
    for (const symbol of s.symbols) {
      const m = markets.find((x) => x.inst.symbol === symbol);
      if (m === undefined || s.streams.klines.length === 0 || recorded(symbol)) continue;
      const w = wanted.get(symbol) ?? { inst: m.inst, intervals: [] };
      w.intervals = [...new Set([...w.intervals, ...s.streams.klines])];
      wanted.set(symbol, w);
    }
  }
  if (wanted.size === 0) return;
  const klines = new TradeKlines(wanted, (ev) => bus.publish(ev));
  bus.subscribe('trade', (ev) => klines.onTrade(ev), { label: 'trade-klines' });
}

/** The range asked for, and the names to give its bounds in errors (the command line's flag, or the config's key). */
interface AskedRange {
  readonly from: string | undefined;
  readonly to: string | undefined;
  readonly fromKey: string;
  readonly toKey: string;
}

/** Returns the local-time range of a backtest in epoch ms: the given times, else the span of the replayed symbols' first table of `tables` that holds data (their books, else trades, else klines; klines in bar mode), else of all their data. */
function rangeOf(index: ReturnType<typeof readCatalog>, symbols: readonly string[], asked: AskedRange, tables: readonly TableName[]): { from: number; to: number } {
  const files = index.files.filter((f) => symbols.includes(f.symbol));
  const table = tables.find((t) => files.some((f) => f.table === t));
  const base = table === undefined ? files : files.filter((f) => f.table === table);
  if (base.length === 0) throw new ConfigError('backtest.data', `the catalog holds no data of ${symbols.join(', ')}`);
  const ms = (ns: string): number => Number(BigInt(ns) / 1_000_000n);
  const { from, to, fromKey, toKey } = asked;
  const f = from !== undefined ? parseTime(from) : Math.min(...base.map((x) => ms(x.firstNs)));
  const t = to !== undefined ? parseTime(to) : Math.max(...base.map((x) => ms(x.lastNs))) + 1;
  if (f === undefined) throw new ConfigError(fromKey, `must be an ISO time or epoch ms, got ${from}`);
  if (t === undefined) throw new ConfigError(toKey, `must be an ISO time or epoch ms, got ${to}`);
  // A range outside every table the run reads (all their data when it reads none of them) holds nothing to run on.
  const spanned = table === undefined ? base : files.filter((x) => tables.includes(x.table));
  const first = Math.min(...spanned.map((x) => ms(x.firstNs)));
  const last = Math.max(...spanned.map((x) => ms(x.lastNs)));
  const held = `the catalog's ${symbols.join(', ')} data runs from ${new Date(first).toISOString()} to ${new Date(last).toISOString()}`;
  if (f > last) throw new ConfigError(fromKey, `${new Date(f).toISOString()} is after the end of the data (${held})`);
  if (t <= first) throw new ConfigError(toKey, `${new Date(t).toISOString()} is not after the start of the data (${held})`);
  // More than a day before or after everything the catalog holds of the symbols (index and funding included) is no range to run but a
  // mistake (a time in epoch seconds read as ms lands in 1970); a start at midnight of the data's first day is a common choice.
  const allFirst = Math.min(...files.map((x) => ms(x.firstNs)));
  const allLast = Math.max(...files.map((x) => ms(x.lastNs)));
  const all = `the catalog's data of ${symbols.join(', ')} runs from ${new Date(allFirst).toISOString()} to ${new Date(allLast).toISOString()}`;
  if (f < allFirst - DAY_MS) throw new ConfigError(fromKey, `${new Date(f).toISOString()} is more than a day before the start of the data (${all})`);
  if (t > allLast + 1 + DAY_MS) throw new ConfigError(toKey, `${new Date(t).toISOString()} is more than a day after the end of the data (${all})`);
  // Without a start given, the range starts at the data's: naming a key the user never set would send them looking for it.
  if (t <= f) throw new ConfigError(toKey, `must be after ${from === undefined ? 'the start of the data' : fromKey} (${new Date(f).toISOString()}), got ${new Date(t).toISOString()}`);
  return { from: f, to: t };
}

/** Throws a ConfigError naming a starting balance of an asset no instrument of the catalog holds (a typo: `USDTT` left the run without its USDT). */
function unknownAssets(index: ReturnType<typeof readCatalog>, balances: Readonly<Record<string, string>>): void {
  const assets = catalogAssets(index);
  for (const asset of Object.keys(balances)) {
    if (!assets.has(asset)) throw new ConfigError(`backtest.balances.${asset}`, `no instrument of the catalog holds ${asset} (its assets: ${[...assets].sort().join(', ')})`);
  }
}

/** Returns every asset an instrument of the catalog trades in or margins with. */
export function catalogAssets(index: ReturnType<typeof readCatalog>): Set<string> {
  return new Set(Object.values(index.instruments).flatMap((i) => [i.base, i.quote, i.margin]));
}

/**
 * Throws a ConfigError when a traded symbol could never be traded with the starting balances: a
 * contract with no balance of its margin asset, a spot pair with neither of its assets. Such a run
 * would only log a risk denial per order and end with no trade.
 */
function unfunded(index: ReturnType<typeof readCatalog>, traded: readonly string[], balances: Readonly<Record<string, string>>): void {
  const has = (asset: string): boolean => balances[asset] !== undefined && compareDecimal(balances[asset], '0') > 0;
  const given = Object.entries(balances).filter(([a]) => has(a)).map(([a, v]) => `${a} ${v}`).join(', ') || 'none above 0';
  for (const symbol of traded) {
    const inst = index.instruments[symbol]!;
    if (inst.kind === 'spot' ? has(inst.base) || has(inst.quote) : has(inst.margin)) continue;
    const needs = inst.kind === 'spot' ? `${inst.base} or ${inst.quote}, the assets of spot ${symbol}` : `${inst.margin}, the margin asset of ${symbol}`;
    throw new ConfigError('backtest.balances', `no ${needs}: none of its orders could be placed (balances given: ${given})`);
  }
}

/** Returns `points` without a point that the next one has the same time as (the final point at the data's end replaces a sample taken there). */
function lastAtItsTime<T extends { readonly time: number }>(points: T[]): T[] {
  const n = points.length;
  if (n >= 2 && points[n - 2]!.time === points[n - 1]!.time) points.splice(n - 2, 1);
  return points;
}

function decimalsOf(step: string): number {
  const dot = step.indexOf('.');
  return dot < 0 ? 0 : step.length - dot - 1;
}

/** Returns what a bar close calls in bar mode: `reconcile` at the first close at least `everyMs` after the last one (or the start). */
export function barReconciliation(clock: Clock, everyMs: number, reconcile: () => void): () => void {
  let last = clock.now();
  return () => {
    const now = clock.now();
    if (now - last < everyMs) return;
    last = now;
    reconcile();
  };
}

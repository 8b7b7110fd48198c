/** The backtest layer: the bot's Gateway in-process over the simulated venue, and the backtester's parts — the exchange (recorded book, queue, latency, venue rules, accounts), bar mode, metrics and results. */
export { SimGateway, type SimGatewayOptions } from './sim-gateway.ts';
export { Latency, type LatencySpec } from './latency.ts';
export { BacktestExchange, type BacktestExchangeOptions } from './exchange/exchange.ts';
export { RecordedBook } from './exchange/book.ts';
export { logQueue, powerQueue, queueModel, riskAverse, type QueueModel, type QueuePos } from './exchange/queue.ts';
export { constantLatency, linkLatency, recordedLatency, type LatencyModel, type RecordedRoundTrip } from './exchange/latency.ts';
export { noAccount, type AccountOrder, type ExchangeAccount, type FillSettlement } from './exchange/account.ts';
export { ContractAccount, type ContractAccountOptions, type FundingRateSource } from './exchange/contract-account.ts';
export { SpotAccount, type SpotAccountOptions } from './exchange/spot-account.ts';
export { bookSideOf, type BookSide, type ExecType, type ExecutionReport, type OrderRequest, type OrderSide, type OrderStatus, type OrderType, type PriceType, type RecordedDepth, type RecordedEvent, type RecordedMark, type RecordedTrade, type TimeInForce } from './exchange/types.ts';
export { barPath, barVisibleAt, fillOnBar, fillsOnBar, type Bar, type BarFill, type BarOrder } from './bars.ts';
export { RoundTrips, tradeStats, type TradeStats } from './trades.ts';
export { computeMetrics, dailyReturns, FillTotals, maxDrawdown, sharpe, sortino, type EquityPoint, type Metrics, type MetricsFill, type MetricsInput, type PositionPoint } from './metrics.ts';
export type { BacktestResults, FillRow, OrderRow, PricePoint } from './report/results.ts';
export { fillLine, orderLine, resultsFromLines } from './report/rows.ts';
export { resultFiles, SUMMARY_VERSION, type ResultFiles } from './report/files.ts';
export { reportHtml } from './report/html.ts';
export { defaultResultsDir, writeResults, type ResultFileName } from './report/write.ts';

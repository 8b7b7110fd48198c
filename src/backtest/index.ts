/** The backtest layer: the bot's Gateway in-process over the simulated venue, with latencies. */
export { SimGateway, type SimGatewayOptions } from './sim-gateway.ts';
export { Latency, type LatencySpec } from './latency.ts';

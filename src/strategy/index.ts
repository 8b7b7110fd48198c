/** strategy: the plugin API (defineStrategy, manifest, scoped context, order API, units and the sliding-window rate counter), the host that runs plugins with failures isolated, and the loader. */
export * from './types.ts';
export { streamRequestSchema, resolveStreams, marketRoutes, type StreamRequest, type Streams, type MarketRoute, type HistoryApi } from './streams.ts';
export { defineStrategy, STRATEGY_API_VERSION, StrategyLoadError, isApiCompatible, checkDefinition, parseParams } from './define.ts';
export { issuePath, joinPath } from '../core/config.ts';
export { createOrderApi, type OrderApiDeps } from './orders.ts';
export { StrategyHost, type StrategySpec, type StrategyStreams, type StrategyHostOptions, type StrategyState, type StrategyStatus } from './host.ts';
export { loadStrategy, isPathRef } from './loader.ts';
export { strategyTemplate, strategyConfigTemplate } from './template.ts';
export { toTicks, fromTicks, toSteps, fromSteps } from './units.ts';
export { SlidingWindow } from '../core/sliding-window.ts';

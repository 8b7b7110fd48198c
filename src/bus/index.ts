/** bus: the event bus, its streams, the conflating mailbox for slow readers and the clock-driven RxJS scheduler. */
export { EventBus, type EventBusOptions, type BusStats } from './event-bus.ts';
export { Latest, conflateMap, type ConflateOptions } from './conflate.ts';
export { schedulerFromClock } from './scheduler.ts';
export type { Handler, Unsubscribe, DispatchStats } from './dispatcher.ts';

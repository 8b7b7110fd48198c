/** core: clock, exact decimals, a FIFO queue, ids, typed errors, seeded randomness, the logger factory and the sliding-window rate counter. */
export * from './clock.ts';
export * from './errors.ts';
export * from './fixed.ts';
export * from './fifo.ts';
export * from './ids.ts';
export * from './random.ts';
export * from './logger.ts';
export * from './config.ts';
export * from './sliding-window.ts';

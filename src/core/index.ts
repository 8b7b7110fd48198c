/** core: clock, exact decimals, ids, typed errors, seeded randomness and the logger factory. */
export * from './clock.ts';
export * from './errors.ts';
export * from './fixed.ts';
export * from './ids.ts';
export * from './random.ts';
export * from './logger.ts';
export * from './config.ts';

/** model: the venue's vocabulary (enums, instruments, orders, trades, positions, balances, events) and its payload parsers. */
export * from './wire.ts';
export * from './enums.ts';
export * from './instrument.ts';
export * from './order.ts';

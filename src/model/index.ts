/** model: the venue's vocabulary (enums, instruments, orders, trades, positions, balances, events) and its payload parsers. */
export * from './wire.ts';
export * from './enums.ts';
export * from './instrument.ts';
export * from './order.ts';
export * from './trade.ts';
export * from './position.ts';
export * from './balance.ts';
export * from './wallet.ts';
export * from './account.ts';
export * from './market.ts';
export * from './userstream.ts';
export * from './marketstream.ts';
export * from './events.ts';
// market.ts and events.ts both declare the book level tuple; name the one the index exports.
export type { Level } from './market.ts';
export * from './gateway.ts';
export * from './order-view.ts';

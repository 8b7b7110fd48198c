/** execution: the order executor, its forward-only order state machine, the order feed strategies read and their books, reconciliation (pure functions and their runner) and the portfolio. */
export * from './order-state.ts';
export * from './order-store.ts';
export * from './budget.ts';
export * from './outcome.ts';
export * from './executor.ts';
export * from './reconciler.ts';
export * from './reconcile/orders.ts';
export * from './reconcile/fills.ts';
export * from './portfolio/pnl.ts';
export * from './portfolio/accounting.ts';
export * from './portfolio/portfolio.ts';
export * from './order-feed.ts';
export * from './strategy-book.ts';
export * from './reconcile/fill-cover.ts';

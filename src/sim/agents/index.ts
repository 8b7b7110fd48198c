/** Seeded market agents of the simulated venue. */
export { MarketAgents, ReferencePrice } from './agents.ts';

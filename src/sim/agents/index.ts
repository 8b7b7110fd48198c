/** Seeded market agents of the simulated venue. */
export { MarketAgents } from './agents.ts';
export { ContractAgents } from './contract-agents.ts';
export { ReferencePrice } from './reference.ts';

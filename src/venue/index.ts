/** venue: the signed REST client of venue-api.md, its endpoint catalogue, error table and rate budgets. */
export * from './signing.ts';
export * from './endpoint.ts';
export * from './catalogue.ts';
export * from './errors.ts';
export * from './budgets.ts';
export * from './http.ts';
export * from './rest-client.ts';
export type * from './params.ts';
export * from './gateway.ts';

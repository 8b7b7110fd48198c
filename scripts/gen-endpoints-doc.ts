/** Writes docs/endpoints.md from the endpoint catalogue (`npm run docs:endpoints`); a test fails when the file is stale. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { allEndpoints } from '../src/venue/catalogue.ts';
import { chargedWeight, isSigned, type Endpoint } from '../src/venue/endpoint.ts';

/** Where the generated list lives. */
export const DOC_PATH = join(import.meta.dirname, '..', 'docs', 'endpoints.md');

function weightCell(ep: Endpoint<unknown, unknown>): string {
  const charged = chargedWeight(ep);
  const source = ep.weightSource === 'venue-api' ? '' : ep.weightSource === 'venue-notes' ? ' (notes)' : ' (default)';
  return charged === ep.weight ? `${ep.weight}${source}` : `${ep.weight}${source}, charged ${charged}`;
}

/** Returns the text of docs/endpoints.md for the current catalogue. */
export function renderEndpointsDoc(): string {
  const eps = allEndpoints();
  const sections = [...new Set(eps.map((e) => e.section))];
  const out: string[] = [
    '# REST endpoints and client methods',
    '',
    '<!-- Generated from src/venue/catalogue.ts by `npm run docs:endpoints`; do not edit by hand. -->',
    '',
    `${eps.length} endpoints, one \`VenueRestClient\` method each (${eps.filter(isSigned).length} signed, ${eps.filter((e) => !isSigned(e)).length} public).`,
    'Signed requests carry the `X-BH-APIKEY` header, `timestamp` (local clock plus the offset measured from',
    '`GET /openapi/v1/time`), optional `recvWindow` and `signature` = HMAC SHA256 over query + body (no `&` at the join).',
    '',
    'Columns: **weight** is REQUEST_WEIGHT as the venue\'s API documentation states it; where it says "-" the value is',
    'what real servers were seen to charge ("notes") or 1 by default. Where real servers were seen to',
    'charged more than the stated weight (ping, time, brokerInfo: 1; positions: 5), the budget charges the larger',
    '("charged"). **ORDERS**: counts against the ORDERS per second and per day budgets. **effect**: `write` means a',
    'lost answer (timeout, dropped connection, 5xx, 504, 429) is an unknown outcome, never retried; `read` may be asked again.',
    '',
    'Rows that appear in two tables of the venue\'s API documentation are one endpoint: `brokerInfo` (Public, contract; Public and',
    'market, spot) and `klines` (Market, contract; Public and market, spot). `POST /openapi/v1/transfer` serves two',
    'variants with different parameters, so it has two methods: `transferPending` and `transferInternal`.',
    '',
    'Each endpoint\'s parameters (name, required or not, rule, and the code a bad one is refused with), as the simulated venue',
    'checks them: [sim.md, Endpoint parameters](sim.md#endpoint-parameters-as-the-venue-checks-them).',
    '',
  ];
  for (const section of sections) {
    out.push(`## ${section}`, '', '| method | HTTP | path | security | weight | ORDERS | effect | parser | answer |', '|---|---|---|---|---|---|---|---|---|');
    for (const ep of eps.filter((e) => e.section === section)) {
      const name = `\`${ep.name}\`${ep.pending ? ' (pending)' : ''}${ep.alsoIn ? ` (also in ${ep.alsoIn})` : ''}`;
      out.push(`| ${name} | ${ep.method} | \`${ep.path}\` | ${ep.security} | ${weightCell(ep)} | ${ep.countsOrders ? 'yes' : ''} | ${ep.effect} | \`${ep.parser}\` | ${ep.response} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(DOC_PATH, renderEndpointsDoc());
  console.log(`wrote ${DOC_PATH}`);
}

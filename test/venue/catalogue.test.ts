// The catalogue against venue-api.md (every row of every endpoint table, with its weight) and docs/endpoints.md against the catalogue.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOC_PATH, renderEndpointsDoc } from '../../scripts/gen-endpoints-doc.ts';
import { allEndpoints, ENDPOINTS } from '../../src/venue/catalogue.ts';
import { chargedWeight, endpointKey, isSigned } from '../../src/venue/endpoint.ts';

const API = readFileSync(join(import.meta.dirname, '../fixtures/spec/venue-api.md'), 'utf8');

/** Rows of the endpoint tables: method, path (without remarks in brackets), stated weight ('-' or absent → undefined). */
function apiRows(): { method: string; path: string; weight: number | undefined; table: string }[] {
  const rows: { method: string; path: string; weight: number | undefined; table: string }[] = [];
  let table = '';
  for (const line of API.slice(API.indexOf('\n## Endpoints')).split('\n')) {
    if (line.startsWith('### ')) table = line.slice(4).trim();
    const m = /^\| (GET|POST|PUT|DELETE) \| ([^|]+) \|/.exec(line);
    if (!m) continue;
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    const last = cells.length === 5 ? cells[4]! : '-';
    rows.push({ method: m[1]!, path: m[2]!.replace(/\(.*\)/, '').trim(), weight: /^\d+$/.test(last) ? Number(last) : undefined, table });
  }
  return rows;
}

describe('endpoint catalogue', () => {
  const rows = apiRows();
  const eps = allEndpoints();

  it('covers every row of every endpoint table of venue-api.md, and nothing else', () => {
    expect(rows.length).toBe(50);
    for (const r of rows) expect(eps.some((e) => e.method === r.method && e.path === r.path), `${r.method} ${r.path}`).toBe(true);
    for (const e of eps) expect(rows.some((r) => r.method === e.method && r.path === e.path), e.name).toBe(true);
    expect(eps).toHaveLength(48);
    expect(new Set(eps.map((e) => e.name)).size).toBe(48);
  });

  it('has one entry per endpoint, except the two variants of POST /openapi/v1/transfer', () => {
    const keys = eps.map(endpointKey);
    const dup = keys.filter((k, i) => keys.indexOf(k) !== i);
    expect(dup).toEqual(['POST /openapi/v1/transfer']);
    expect([ENDPOINTS.transferPending.section, ENDPOINTS.transferInternal.section]).toEqual(['Account, contract (SIGNED)', 'Account, spot and wallet (SIGNED)']);
  });

  it('takes the weight venue-api.md states; "-" becomes venue-notes.md §5 or 1, and is marked so', () => {
    for (const e of eps) {
      const anyStated = rows.find((r) => r.method === e.method && r.path === e.path && r.weight !== undefined);
      if (anyStated) {
        expect(e.weight, e.name).toBe(anyStated.weight);
        expect(e.weightSource, e.name).toBe('venue-api');
      } else {
        expect(['venue-notes', 'default'], e.name).toContain(e.weightSource);
      }
    }
    expect(ENDPOINTS.batchCancelContractOrders).toMatchObject({ weight: 5, weightSource: 'venue-notes' });
    expect(ENDPOINTS.withdraw).toMatchObject({ weight: 1, weightSource: 'default' });
    expect(chargedWeight(ENDPOINTS.contractPositions)).toBe(5);
    expect(chargedWeight(ENDPOINTS.ping)).toBe(1);
  });

  it('signs exactly the endpoints in the SIGNED tables and the user data stream, and counts only new orders against ORDERS', () => {
    for (const e of eps) expect(isSigned(e), e.name).toBe(e.section.includes('SIGNED') || e.section === 'User data stream');
    expect(eps.filter((e) => e.countsOrders).map((e) => e.name)).toEqual(['newSpotOrder', 'newContractOrder']);
    expect(ENDPOINTS.createListenKey.security).toBe('USER_STREAM');
    expect(ENDPOINTS.newSpotOrder.security).toBe('TRADE');
    expect(ENDPOINTS.spotAccount.security).toBe('USER_DATA');
  });

  it('marks placements, cancels, transfers and withdrawals as writes and queries as reads', () => {
    const writes = eps.filter((e) => e.effect === 'write').map((e) => e.name);
    expect(writes).toEqual(expect.arrayContaining(['newSpotOrder', 'cancelSpotOrder', 'newContractOrder', 'cancelContractOrder', 'batchCancelContractOrders', 'modifyMargin', 'transferPending', 'transferInternal', 'withdraw']));
    expect(writes).not.toContain('subAccounts');
    expect(writes).not.toContain('testSpotOrder');
    expect(eps.filter((e) => e.method === 'GET').every((e) => e.effect === 'read')).toBe(true);
  });

  it('docs/endpoints.md is what scripts/gen-endpoints-doc.ts makes of the catalogue (run `npm run docs:endpoints`)', () => {
    expect(readFileSync(DOC_PATH, 'utf8')).toBe(renderEndpointsDoc());
  });
});

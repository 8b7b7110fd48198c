// The fixture server itself checks requests the way venue-notes.md §2 says real servers did (so the client tests mean something).
import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, DEMO_SECRET } from './demo-keys.ts';
import { FixtureServer, signedTexts } from './fixture-server.ts';

const NOW = 1_538_323_200_000;
const sign = (text: string): string => createHmac('sha256', DEMO_SECRET).update(text).digest('hex');

describe('fixture server', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await FixtureServer.start({ now: () => NOW });
  });
  afterAll(async () => server.close());

  async function post(query: string, body: string, key: string | null = DEMO_API_KEY): Promise<{ status: number; code?: number; header?: unknown }> {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (key !== null) headers['x-bh-apikey'] = key;
    const res = await request(`${server.url}/openapi/v1/order${query ? `?${query}` : ''}`, { method: 'POST', headers, body });
    const json = (await res.body.json()) as { code?: number };
    return { status: res.statusCode, code: json.code, header: res.headers['error_code'] };
  }

  const ORDER = 'symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';

  it('accepts the published example in the query, with the hex in upper case', async () => {
    expect(await post(`${ORDER}&signature=${sign(ORDER).toUpperCase()}`, '')).toMatchObject({ status: 200 });
  });

  it('accepts a signature over the real servers’ text when a parameter is in both query and body', async () => {
    const query = 'symbol=ETHBTC';
    const body = `${ORDER}`;
    const [apiText, realText] = signedTexts(query, body);
    expect(realText).toBe(`symbol=ETHBTC${ORDER.replace('symbol=ETHBTC&', '')}`);
    expect(apiText).not.toBe(realText);
    expect(await post(query, `${body}&signature=${sign(realText)}`)).toMatchObject({ status: 200 });
    expect(await post(query, `${body}&signature=${sign(apiText)}`)).toMatchObject({ status: 200 });
  });

  it('refuses with the codes of venue-errors.md, HTTP 400 and the error_code header', async () => {
    expect(await post(`${ORDER}&signature=${sign(ORDER)}`, '', null)).toEqual({ status: 400, code: -1002, header: '-1002' });
    expect(await post(ORDER, '')).toMatchObject({ status: 400, code: -1004 });
    const noTs = ORDER.replace('&timestamp=1538323200000', '');
    expect(await post(`${noTs}&signature=${sign(noTs)}`, '')).toMatchObject({ status: 400, code: -1004 });
    expect(await post(`${ORDER}&signature=${sign(ORDER + 'x')}`, '')).toMatchObject({ status: 400, code: -1022 });
    const late = ORDER.replace('1538323200000', String(NOW - 5001));
    expect(await post(`${late}&signature=${sign(late)}`, '')).toMatchObject({ status: 400, code: -1021 });
    const ahead = ORDER.replace('1538323200000', String(NOW + 1000));
    expect(await post(`${ahead}&signature=${sign(ahead)}`, '')).toMatchObject({ status: 400, code: -1021 });
  });
});

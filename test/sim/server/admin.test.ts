// /admin/faults cannot be reached from a web page: a foreign Host (DNS rebinding) and a text/plain write (CSRF) are refused; JSON from loopback or the start-up token gets in.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTest, type TestVenue } from './helpers.ts';

let t: TestVenue;
beforeAll(async () => {
  t = await startTest();
});
afterAll(async () => t.close());

/** Sends one request with exactly these headers (Host included) and resolves with status and JSON body. */
function raw(method: string, path: string, headers: Record<string, string>, body = ''): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const u = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, method, path, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const LATENCY = JSON.stringify({ latencyMs: 5 });

describe('the admin routes', () => {
  it('refuse a text/plain or form body and a foreign Host, and change nothing', async () => {
    const host = `127.0.0.1:${new URL(t.url).port}`;
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const r = await raw('POST', '/admin/faults', { host, 'content-type': type }, LATENCY);
      expect(r.status).toBe(403);
      expect(r.json.code).toBe(-1005);
    }
    for (const foreign of ['evil.example', `evil.example:${new URL(t.url).port}`, '127.0.0.1.evil.example', 'localhost.evil.example']) {
      const r = await raw('POST', '/admin/faults', { host: foreign, 'content-type': 'application/json' }, LATENCY);
      expect(r.status, foreign).toBe(403);
      expect((await raw('GET', '/admin/faults', { host: foreign })).status).toBe(403);
      expect((await raw('DELETE', '/admin/faults', { host: foreign, 'content-type': 'application/json' })).status).toBe(403);
      expect((await raw('POST', '/admin/faults/drop', { host: foreign, 'content-type': 'application/json' })).status).toBe(403);
    }
    expect((await raw('POST', '/admin/faults', { host, 'content-type': 'application/json', 'x-admin-token': 'a'.repeat(48) }, LATENCY)).status).toBe(403);
    expect(t.venue.server.faults.settings.latencyMs).toBe(0);
  });

  it('take JSON from a loopback Host, or anything with the start-up token', async () => {
    const port = new URL(t.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, '[::1]', 'LOCALHOST']) {
      const r = await raw('POST', '/admin/faults', { host, 'content-type': 'application/json; charset=utf-8' }, LATENCY);
      expect(r.status, host).toBe(200);
      expect(r.json.settings.latencyMs).toBe(5);
      expect((await raw('GET', '/admin/faults', { host })).status).toBe(200);
      expect((await raw('DELETE', '/admin/faults', { host, 'content-type': 'application/json' })).json.settings.latencyMs).toBe(0);
    }
    const token = t.venue.server.adminToken;
    const r = await raw('POST', '/admin/faults', { host: 'venue.lan', 'content-type': 'text/plain', 'x-admin-token': token }, LATENCY);
    expect(r.status).toBe(200);
    expect(t.venue.server.faults.settings.latencyMs).toBe(5);
    // The in-process API stays open to code that holds the server.
    t.venue.server.faults.set({});
    expect(t.venue.server.faults.settings.latencyMs).toBe(0);
  });
});

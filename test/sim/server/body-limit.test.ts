// A body past maxBodyBytes is not read to its end: the venue answers -1004 and closes while the sender is still sending.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTest, type TestVenue } from './helpers.ts';

let t: TestVenue;
beforeAll(async () => {
  t = await startTest();
});
afterAll(async () => t.close());

const CHUNK = Buffer.alloc(64 * 1024, 0x61);
/** The sender gives up here; the kernel's socket buffers on loopback hold a few MB at most. */
const GIVE_UP = 256 * 1024 * 1024;

/**
 * Sends `head` then 64 KB chunks until the server closes the connection or GIVE_UP bytes are out;
 * resolves with what the server answered and how much was sent by the time it closed (GIVE_UP when it never did).
 */
function flood(head: string, chunked: boolean): Promise<{ answer: string; sent: number }> {
  const u = new URL(t.url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(u.port), u.hostname);
    let sent = 0;
    let answer = '';
    let stopped = false;
    const frame = chunked ? Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from('\r\n')]) : CHUNK;
    const done = (): void => {
      if (stopped) return;
      stopped = true;
      s.destroy();
      resolve({ answer, sent });
    };
    const pump = (): void => {
      while (!stopped && sent < GIVE_UP) {
        sent += frame.length;
        if (!s.write(frame)) return;
      }
      // Everything went out and the connection is still open: the venue read it all.
      if (!stopped) s.write(chunked ? '0\r\n\r\n' : '', () => setImmediate(done));
    };
    s.on('connect', () => {
      s.write(head);
      pump();
    });
    s.on('drain', pump);
    s.on('data', (d: Buffer) => (answer += d.toString()));
    s.on('close', done);
    s.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? done() : reject(e)));
  });
}

describe('oversized request bodies', () => {
  it('stop a chunked body at the limit: 400 -1004 and the connection closed long before the sender is done', async () => {
    const { answer, sent } = await flood('POST /openapi/v1/order HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n', true);
    expect(sent).toBeLessThan(GIVE_UP / 4);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":-1004');
    expect(answer.toLowerCase()).toContain('connection: close');
  }, 120_000);

  it('refuse a declared Content-Length past the limit and close without reading the body', async () => {
    const { answer, sent } = await flood(`POST /openapi/v1/order HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${GIVE_UP}\r\n\r\n`, false);
    expect(sent).toBeLessThan(GIVE_UP / 4);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  }, 120_000);

  it('still answers a body within the limit on a kept-alive connection', async () => {
    const r = await fetch(`${t.url}/openapi/v1/order`, { method: 'POST', body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { code: number }).code).not.toBe(-1004);
  });
});

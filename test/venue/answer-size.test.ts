// A venue (or a faulty network) that streams an answer without end: the client cuts it at its size limit instead of filling its memory.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.ts';
import { HttpFailure, HttpTransport } from '../../src/venue/http.ts';

let server: Server | undefined;
let transport: HttpTransport | undefined;
afterEach(async () => {
  await transport?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
  transport = undefined;
});

/** Serves a 200 whose body never ends: 64 KB chunks as fast as the client takes them, stopping when it hangs up or after `capBytes`. */
async function endless(capBytes: number): Promise<{ url: string; written: () => number; closed: Promise<void> }> {
  let written = 0;
  let onClosed!: () => void;
  const closed = new Promise<void>((r) => (onClosed = r));
  const chunk = Buffer.alloc(64 * 1024, 0x5b);
  server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.on('close', onClosed);
    const pump = (): void => {
      while (!res.destroyed && written < capBytes) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server!.once('listening', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, written: () => written, closed };
}

describe('answer size', () => {
  it('cuts an answer past maxAnswerBytes and fails the request as dropped (it may have been acted on)', async () => {
    const max = 1024 * 1024;
    const venue = await endless(256 * 1024 * 1024);
    transport = new HttpTransport(venue.url, { clock: new VirtualClock(0), maxAnswerBytes: max });
    const failure = await transport.send({ method: 'GET', path: '/openapi/v1/account', headers: {} }).then(() => undefined, (e: unknown) => e);
    expect(failure).toBeInstanceOf(HttpFailure);
    expect(failure).toMatchObject({ reason: 'dropped', written: true, message: `answer cut at more than ${max} bytes` });
    await venue.closed;
    // The server stopped at the cut, far below what it would have sent.
    expect(venue.written()).toBeLessThan(64 * 1024 * 1024);
  });

  it('takes an answer at the limit whole', async () => {
    const venue = await endless(2 * 64 * 1024);
    transport = new HttpTransport(venue.url, { clock: new VirtualClock(0), maxAnswerBytes: 2 * 64 * 1024 });
    const a = await transport.send({ method: 'GET', path: '/openapi/v1/account', headers: {} });
    expect(a.text).toHaveLength(2 * 64 * 1024);
  });
});

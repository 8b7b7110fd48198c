// Connection caps and timeouts on loopback: past the per-address or total cap a socket gets 503 and is closed; a slow header or a silent socket is closed.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTest, testConfig, type TestVenue } from './helpers.ts';

let t: TestVenue | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await t?.close();
  t = undefined;
});

function server(connections: Record<string, number>): Record<string, unknown> {
  const base = testConfig().server;
  return { server: { ...base, connections: { ...base.connections, ...connections } } };
}

/** Opens a raw socket from `localAddress` and resolves once connected. */
function open(localAddress = '127.0.0.1'): Promise<Socket> {
  const u = new URL(t!.url);
  return new Promise((resolve, reject) => {
    const s = connect({ port: Number(u.port), host: u.hostname, localAddress });
    sockets.push(s);
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

/** Sends GET /openapi/v1/time on the socket and resolves with the answer's status line. */
function statusLine(s: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (d: Buffer): void => {
      text += d.toString();
      const end = text.indexOf('\r\n');
      if (end >= 0) {
        s.off('data', onData);
        resolve(text.slice(0, end));
      }
    };
    s.on('data', onData);
    s.once('close', () => resolve(text === '' ? 'closed' : text.split('\r\n')[0]!));
    if (!s.destroyed) s.write('GET /openapi/v1/time HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  });
}

/** Resolves once the server counts `n` open sockets (it learns of a close a moment after the client). */
async function serverCounts(n: number): Promise<void> {
  while (t!.venue.server.connections.open() !== n) await new Promise((r) => setTimeout(r, 5));
}

describe('connection caps', () => {
  it('serves 20 sockets of one address and refuses the 21st to 25th with 503; another address still gets in', async () => {
    t = await startTest(server({ maxPerAddress: 20, maxTotal: 100 }));
    const socks: Socket[] = [];
    for (let i = 0; i < 25; i++) {
      socks.push(await open());
      await serverCounts(Math.min(i + 1, 20));
    }
    const lines = await Promise.all(socks.map(statusLine));
    expect(lines.slice(0, 20).every((l) => l === 'HTTP/1.1 200 OK')).toBe(true);
    expect(lines.slice(20)).toEqual(Array(5).fill('HTTP/1.1 503 Service Unavailable'));
    expect(t.venue.server.connections.open('127.0.0.1')).toBe(20);
    expect(await statusLine(await open('127.0.0.2'))).toBe('HTTP/1.1 200 OK');
    // A closed socket frees its place.
    socks[0]!.destroy();
    await serverCounts(20);
    expect(await statusLine(await open())).toBe('HTTP/1.1 200 OK');
  });

  it('caps the total across addresses', async () => {
    t = await startTest(server({ maxPerAddress: 100, maxTotal: 20 }));
    const socks: Socket[] = [];
    for (let i = 0; i < 25; i++) {
      socks.push(await open(`127.0.0.${1 + (i % 5)}`));
      await serverCounts(Math.min(i + 1, 20));
    }
    const lines = await Promise.all(socks.map(statusLine));
    expect(lines.filter((l) => l === 'HTTP/1.1 200 OK')).toHaveLength(20);
    expect(lines.filter((l) => l === 'HTTP/1.1 503 Service Unavailable')).toHaveLength(5);
  });
});

describe('connection timeouts', () => {
  it('closes a socket whose headers never finish (408), one that sends nothing, and a kept-alive one left idle', async () => {
    t = await startTest(server({ headersTimeoutMs: 300, requestTimeoutMs: 600, idleTimeoutMs: 400 }));
    const slow = await open();
    let answer = '';
    slow.on('data', (d: Buffer) => (answer += d.toString()));
    const slowClosed = new Promise<void>((r) => slow.once('close', () => r()));
    slow.write('GET /openapi/v1/time HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const silent = await open();
    const silentClosed = new Promise<void>((r) => silent.once('close', () => r()));
    // Flowing, so the server's close is read.
    silent.resume();
    const idle = await open();
    const idleClosed = new Promise<void>((r) => idle.once('close', () => r()));
    expect(await statusLine(idle)).toBe('HTTP/1.1 200 OK');
    await Promise.all([slowClosed, silentClosed, idleClosed]);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    await serverCounts(0);
  });
});

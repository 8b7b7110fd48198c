import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { VirtualClock } from '../../../src/core/clock.ts';
import { MAX_OUTBOUND_BYTES, WsLink } from '../../../src/venue/ws-connection.ts';
import { capturedLogger } from '../../bus/samples.ts';
import { until } from './helpers.ts';

let http: Server | undefined;
let link: WsLink | undefined;
/** The venue's side of every connection: a paused one would keep the server open after the bot hung up. */
const sockets: Socket[] = [];
afterEach(async () => {
  await link?.stop();
  for (const s of sockets.splice(0)) s.destroy();
  await new Promise<void>((r) => (http ? http.close(() => r()) : r()));
  http = undefined;
  link = undefined;
});

/** A local socket server that hands over each connection with its raw socket (to stop reading from it). */
async function venue(): Promise<{ url: string; conn: () => { ws: WebSocket; socket: Socket } | undefined }> {
  const wss = new WebSocketServer({ noServer: true });
  let conn: { ws: WebSocket; socket: Socket } | undefined;
  http = createServer();
  http.on('upgrade', (req, socket, head) => {
    sockets.push(socket as Socket);
    wss.handleUpgrade(req, socket, head, (ws) => (conn = { ws, socket: socket as Socket }));
  });
  await new Promise<void>((r) => http!.listen(0, '127.0.0.1', () => r()));
  return { url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}`, conn: () => conn };
}

describe('a venue that keeps pinging but stops reading', () => {
  it('gets no pong queued per ping while the link has a backlog, and pongs again once it reads', async () => {
    const v = await venue();
    const clock = new VirtualClock(1_700_000_000_000);
    let ready = false;
    const log = capturedLogger();
    link = new WsLink({ name: 'user', clock, url: () => v.url, onText: () => undefined, heartbeat: 'answer-server-ping', watchdogMs: 3_600_000, log: log.logger, onState: (s) => (ready ||= s === 'ready') });
    link.start();
    const { ws, socket } = await until(clock, 'link ready', () => (ready ? v.conn() : undefined));
    const got: string[] = [];
    ws.on('message', (d) => got.push(d.toString()));

    // The venue stops reading; a message longer than the socket buffers leaves a backlog on the bot's side.
    socket.pause();
    expect(link.send('x'.repeat(4 * MAX_OUTBOUND_BYTES + 8 * 1024 * 1024))).toBe(true);
    const backlog = link.stats().outboundBytes;
    expect(backlog).toBeGreaterThan(MAX_OUTBOUND_BYTES);
    const PINGS = 2_000;
    for (let i = 1; i <= PINGS; i++) ws.send(`{"ping":${i}}`);
    await until(clock, 'pings received', () => link!.stats().frames >= PINGS);
    expect(link.stats()).toMatchObject({ heartbeatsSkipped: PINGS });
    expect(link.stats().outboundBytes).toBeLessThanOrEqual(backlog);

    // Reading again, the venue gets the backlog and then the pong of its next ping, and no pong of the skipped ones.
    socket.resume();
    await until(clock, 'backlog drained', () => link!.stats().outboundBytes === 0);
    ws.send('{"ping":9999}');
    await until(clock, 'pong', () => got.includes('{"pong":9999}'));
    expect(got.filter((m) => m.startsWith('{"pong"'))).toEqual(['{"pong":9999}']);
    expect(link.stats()).toMatchObject({ heartbeatsSkipped: PINGS, reconnects: 0 });
    // The trader is told once that the venue stopped reading, and once that it reads again: not a line per ping.
    const told = log.lines.filter((l) => /venue (is not reading|reads again)/.test(String(l['msg'])));
    expect(told.map((l) => [l['level'], l['link'], l['skipped']])).toEqual([[40, 'user', undefined], [30, 'user', PINGS]]);
    expect(told[0]!['outboundBytes']).toBeGreaterThan(MAX_OUTBOUND_BYTES);
  });

  it('cuts the link, which redials, when a message other than a heartbeat finds the backlog too long', async () => {
    const v = await venue();
    const clock = new VirtualClock(1_700_000_000_000);
    let ready = 0;
    const reasons: string[] = [];
    link = new WsLink({
      name: 'market', clock, url: () => v.url, onText: () => undefined, heartbeat: 'client-ping', watchdogMs: 3_600_000, backoff: { initialMs: 10, maxMs: 10, seed: 1 },
      onState: (s, reason) => {
        if (s === 'ready') ready += 1;
        if (s === 'reconnecting') reasons.push(reason);
      },
    });
    link.start();
    const { socket } = await until(clock, 'link ready', () => (ready === 1 ? v.conn() : undefined));
    socket.pause();
    expect(link.send('x'.repeat(4 * MAX_OUTBOUND_BYTES + 8 * 1024 * 1024))).toBe(true);
    expect(link.send('{"symbol":"BTCUSDT","topic":"trade","event":"sub"}')).toBe(false);
    expect(reasons[0]).toMatch(/^the venue stopped reading \(\d+ bytes waiting to be sent\)$/);
    await until(clock, 'redialled', () => ready >= 2, { stepMs: 10 });
  });
});

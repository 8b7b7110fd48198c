/** Shared test setup: a real venue on 127.0.0.1 port 0 from config/venue.yaml, a virtual clock, and raw signed HTTP. */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { WebSocket } from 'ws';
import { parse as parseYaml } from 'yaml';
import { VirtualClock } from '../../../src/core/clock.ts';
import { parseVenueConfig } from '../../../src/sim/server/config.ts';
import { startVenue, type RunningVenue } from '../../../src/sim/server/start.ts';

/** The venue's published example key pair (venue-notes.md §2), the demo account of config/venue.yaml. */
export const KEY = 'tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW';
export const SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
/** The timestamp of the published examples. */
export const T0 = 1538323200000;

export interface TestVenue {
  readonly venue: RunningVenue;
  readonly clock: VirtualClock;
  readonly url: string;
  readonly ws: string;
  close(): Promise<void>;
}

/** Returns the shipped config with top-level sections replaced by `over` (agents off unless given). */
export function testConfig(over: Record<string, unknown> = {}) {
  const raw = parseYaml(readFileSync('config/venue.yaml', 'utf8')) as Record<string, unknown>;
  return parseVenueConfig({ ...raw, agents: [], ...over });
}

/** Starts a venue from the shipped config (with `over`) on a virtual clock at T0. */
export async function startTest(over: Record<string, unknown> = {}, clock = new VirtualClock(T0)): Promise<TestVenue> {
  const venue = await startVenue({ config: testConfig(over), clock, host: '127.0.0.1', port: 0 });
  return { venue, clock, url: venue.server.restUrl, ws: venue.server.wsUrl, close: () => venue.stop() };
}

/** Returns the lowercase hex HMAC SHA256 of `text`. */
export function hmac(text: string, secret = SECRET): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Sends one raw request. */
export async function send(base: string, method: string, path: string, o: { query?: string; body?: string | Buffer; key?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  if (o.key !== undefined) headers['X-BH-APIKEY'] = o.key;
  if (o.body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  const r = await request(`${base}${path}${o.query ? `?${o.query}` : ''}`, { method: method as 'GET', headers, body: o.body });
  const text = await r.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.statusCode, headers: r.headers, text, json };
}

/** Sends a signed request with every parameter in the query (`query`), the body (`body`) or split at `bodyFrom`. */
export async function signed(
  base: string, method: string, path: string, params: Record<string, string>,
  o: { placement?: 'query' | 'body'; key?: string; secret?: string; timestamp?: number } = {},
): Promise<Answer> {
  const all = { ...params, timestamp: String(o.timestamp ?? params['timestamp'] ?? T0) };
  const text = Object.entries(all).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  const sig = hmac(text, o.secret ?? SECRET);
  const full = `${text}&signature=${sig}`;
  const key = o.key ?? KEY;
  if ((o.placement ?? (method === 'GET' ? 'query' : 'body')) === 'query') return send(base, method, path, { query: full, key });
  return send(base, method, path, { body: full, key });
}

/** Opens a WebSocket and resolves once it is open; frames are collected in `frames`. */
export async function openWs(url: string): Promise<{ ws: WebSocket; frames: any[]; next: (pred?: (f: any) => boolean) => Promise<any>; closed: Promise<number> }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const ws = new WebSocket(url);
  const frames: any[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  const waiters: { pred: (f: any) => boolean; resolve: (f: any) => void; from: number }[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  let seen = 0;
  ws.on('message', (d) => {
    const f = JSON.parse(d.toString()) as unknown;
    frames.push(f);
    for (const w of [...waiters]) {
      if (w.pred(f)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(f);
      }
    }
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  /** Resolves with the first frame (already received after the last call, or coming) that matches. */
  const next = (pred: (f: any) => boolean = () => true): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    for (let i = seen; i < frames.length; i++) {
      if (pred(frames[i])) {
        seen = i + 1;
        return Promise.resolve(frames[i]);
      }
    }
    seen = frames.length;
    return new Promise((resolve) => waiters.push({ pred, resolve: (f) => { seen = frames.length; resolve(f); }, from: seen }));
  };
  return { ws, frames, next, closed };
}

// A small venue on 127.0.0.1 (port 0) for the REST client's tests: checks key, signature and timestamp as venue-notes.md §2 describes and answers with published samples.
import { createHmac } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allEndpoints } from '../../src/venue/catalogue.ts';
import { endpointKey, isSigned } from '../../src/venue/endpoint.ts';
import { loadSample, samplesForEndpoint, type Sample } from '../fixtures/samples.ts';
import { DEMO_API_KEY, DEMO_SECRET } from './demo-keys.ts';

/** How the server misbehaves for the next matching request. */
export type Fault =
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'drop' }
  | { kind: 'malformed'; text?: string };

/** One request as the server saw it. */
export interface Received {
  key: string;
  method: string;
  path: string;
  query: string;
  body: string;
  /** Query and body parameters; the query wins where both carry one. */
  params: Record<string, string>;
  apiKey: string | undefined;
  /** Server time when it arrived. */
  at: number;
  /** True when the signature matched one of the texts venue-notes.md §2 allows (undefined for public endpoints). */
  signatureOk: boolean | undefined;
  /** The code the server refused it with, if it did. */
  refusedWith?: number;
}

/** Messages as venue-errors.md gives them for the refusals this server makes. */
const MSG: Record<number, string> = {
  [-1002]: 'You are not authorized to execute this request',
  [-1021]: 'Timestamp for this request is outside of the recvWindow.',
  [-1022]: 'Signature for this request is not valid.',
  [-1103]: 'An unknown parameter was sent.',
  [-2015]: 'Invalid API-key, IP, or permissions for action.',
};

/** venue-errors.md: only new-order endpoints check the timing rule. */
const TIMED = new Set(['POST /openapi/v1/order', 'POST /openapi/contract/v1/order']);

const SIGNED = new Map<string, boolean>();
for (const ep of allEndpoints()) SIGNED.set(endpointKey(ep), isSigned(ep));

function stripSignature(raw: string): string[] {
  return raw.split('&').filter((p) => p.length > 0 && !p.startsWith('signature='));
}

function keyOfPiece(piece: string): string {
  const i = piece.indexOf('=');
  return decodeURIComponent(i < 0 ? piece : piece.slice(0, i));
}

/**
 * Returns the two texts a faithful server accepts a signature over: venue-api.md's query + body, and
 * what real servers built (the query, then only body parameters not also in the query, in body order).
 */
export function signedTexts(query: string, body: string): [string, string] {
  const q = stripSignature(query);
  const b = stripSignature(body);
  const qKeys = new Set(q.map(keyOfPiece));
  return [q.join('&') + b.join('&'), q.join('&') + b.filter((p) => !qKeys.has(keyOfPiece(p))).join('&')];
}

type Answer = { status: number; body: string; headers?: Record<string, string> };
type Responder = (req: Received) => Answer;

export interface FixtureServerOptions {
  /** The server's clock (ms); tests on a VirtualClock pass its `now`. */
  now?: () => number;
}

/** The fixture venue. */
export class FixtureServer extends EventEmitter {
  readonly received: Received[] = [];
  url = '';
  /** Added to `now()` for serverTime and the timing rule, to make the client's clock look wrong. */
  skewMs = 0;
  private readonly server: Server;
  private readonly now: () => number;
  private readonly faults: { key: string; fault: Fault }[] = [];
  private readonly overrides = new Map<string, Responder>();
  private readonly hanging = new Set<ServerResponse>();

  private constructor(opts: FixtureServerOptions) {
    super();
    this.now = opts.now ?? (() => Date.now());
    this.server = createServer({ keepAlive: true }, (req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(JSON.stringify({ code: -1001, msg: `fixture server: ${String(err)}` }));
      });
    });
  }

  /** Starts a server on 127.0.0.1, port 0. */
  static async start(opts: FixtureServerOptions = {}): Promise<FixtureServer> {
    const s = new FixtureServer(opts);
    s.server.listen(0, '127.0.0.1');
    await once(s.server, 'listening');
    s.url = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}`;
    return s;
  }

  /** The server's clock including the skew. */
  serverTime(): number {
    return this.now() + this.skewMs;
  }

  /** Makes the next `times` requests to `key` ('*' for any) misbehave. */
  fail(key: string, fault: Fault, times = 1): void {
    for (let i = 0; i < times; i++) this.faults.push({ key, fault });
  }

  /** Answers `key` with a stored sample (by name) or a responder, instead of the default choice. */
  answer(key: string, with_: string | Responder): void {
    this.overrides.set(key, typeof with_ === 'string' ? sampleResponder(loadSample(with_)) : with_);
  }

  /** Forgets pending faults and answer overrides. */
  reset(): void {
    this.faults.length = 0;
    this.overrides.clear();
  }

  /** Resolves once `n` requests in all have arrived. */
  async waitForRequests(n: number): Promise<void> {
    while (this.received.length < n) await once(this, 'request');
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    const path = qi < 0 ? url : url.slice(0, qi);
    const query = qi < 0 ? '' : url.slice(qi + 1);
    const params: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(body)) params[k] = v;
    for (const [k, v] of new URLSearchParams(query)) params[k] = v;
    const key = `${req.method ?? 'GET'} ${path}`;
    const header = req.headers['x-bh-apikey'];
    const rec: Received = { key, method: req.method ?? 'GET', path, query, body, params, apiKey: Array.isArray(header) ? header[0] : header, at: this.serverTime(), signatureOk: undefined };
    const signed = SIGNED.get(key);
    const refusal = signed ? this.check(rec, query, body) : undefined;
    if (refusal !== undefined) rec.refusedWith = refusal.code;
    this.received.push(rec);
    this.emit('request', rec);

    const fi = this.faults.findIndex((f) => f.key === '*' || f.key === key);
    const fault = fi < 0 ? undefined : this.faults.splice(fi, 1)[0]!.fault;
    if (fault) return this.misbehave(fault, res);
    if (refusal) return send(res, errorAnswer(refusal.code, refusal.msg));
    if (signed === undefined) return send(res, { status: 404, body: '<html>Not Found</html>', headers: { 'content-type': 'text/html' } });
    send(res, (this.overrides.get(key) ?? this.defaultResponder(key))(rec));
  }

  private check(rec: Received, query: string, body: string): { code: number; msg: string } | undefined {
    if (rec.apiKey === undefined || rec.apiKey.length < 64) return { code: -1002, msg: MSG[-1002]! };
    if (rec.apiKey !== DEMO_API_KEY) return { code: -2015, msg: MSG[-2015]! };
    const [apiText, realText] = signedTexts(query, body);
    if (apiText.length === 0) return { code: -1103, msg: MSG[-1103]! };
    const sig = rec.params['signature'];
    if (sig === undefined) return { code: -1004, msg: "Missing required parameter 'signature'" };
    const ts = rec.params['timestamp'];
    if (ts === undefined) return { code: -1004, msg: "Missing required parameter 'timestamp'" };
    const lower = sig.toLowerCase();
    rec.signatureOk = [apiText, realText].some((t) => createHmac('sha256', DEMO_SECRET).update(t).digest('hex') === lower);
    if (!rec.signatureOk) return { code: -1022, msg: MSG[-1022]! };
    if (TIMED.has(rec.key)) {
      const server = this.serverTime();
      const recv = Number(rec.params['recvWindow'] ?? 5000);
      const t = Number(ts);
      if (!(t < server + 1000 && server - t <= recv)) return { code: -1021, msg: MSG[-1021]! };
    }
    return undefined;
  }

  private misbehave(fault: Fault, res: ServerResponse): void {
    switch (fault.kind) {
      case 'status':
        return send(res, { status: fault.status, body: fault.body ?? '', headers: fault.headers });
      case 'hang':
        this.hanging.add(res);
        return;
      case 'drop':
        res.socket?.destroy();
        return;
      case 'malformed':
        return send(res, { status: 200, body: fault.text ?? '{"orderId":"1","clientOrderId":' });
      default: {
        const never: never = fault;
        throw new Error(`fault: ${String(never)}`);
      }
    }
  }

  private defaultResponder(key: string): Responder {
    if (key === 'GET /openapi/v1/time') return () => json(`{"serverTime":${this.serverTime()}}`);
    const samples = samplesForEndpoint(key);
    const pick = (pred: (s: Sample) => boolean): Sample | undefined => samples.find(pred);
    switch (key) {
      case 'GET /openapi/quote/v1/ticker/24hr':
      case 'GET /openapi/quote/v1/ticker/price':
      case 'GET /openapi/quote/v1/ticker/bookTicker':
        return (r) => sampleAnswer(pick((s) => Array.isArray(s.payload) === (r.params['symbol'] === undefined) && s.name.endsWith('.official'))!);
      case 'POST /openapi/v1/transfer':
        return (r) => sampleAnswer(loadSample(r.params['from'] === undefined ? 'transfer.official' : 'transfer-pending.official'));
      case 'GET /openapi/v1/brokerInfo':
        return (r) => sampleAnswer(loadSample(r.params['type'] === 'contracts' ? 'contract-broker-info.official' : 'spot-broker-info.official'));
      case 'GET /openapi/v1/withdraw/detail':
        return () => firstElementOf(loadSample('withdrawal-orders.capture-2020'));
      case 'GET /openapi/quote/v1/contract/ticker/24hr':
        return (r) => contractTicker(r.params['symbol'] === undefined);
      default: {
        const chosen = pick((s) => s.name.endsWith('.official')) ?? samples[0];
        if (!chosen) throw new Error(`fixture server: no published sample for ${key}`);
        return sampleResponder(chosen);
      }
    }
  }
}

function json(body: string): Answer {
  return { status: 200, body };
}

function sampleAnswer(s: Sample): Answer {
  return json(s.body);
}

function sampleResponder(s: Sample): Responder {
  return () => sampleAnswer(s);
}

/** No sample exists for withdraw/detail: it answers one withdrawal order, so the published list's first entry is used. */
function firstElementOf(s: Sample): Answer {
  const first = s.body.indexOf('{');
  let depth = 0;
  for (let i = first; i < s.body.length; i++) {
    if (s.body[i] === '{') depth++;
    else if (s.body[i] === '}' && --depth === 0) return json(s.body.slice(first, i + 1));
  }
  throw new Error(`${s.name}: no element`);
}

/**
 * No contract 24h ticker was ever published. This one is built only from published values: the
 * 2020 ticker capture's fields with openInterest, symbol and prices from the published contracts sample.
 */
function contractTicker(list: boolean): Answer {
  const t = '{"time":1588069860794,"symbol":"BTC-PERP-REV","bestBidPrice":"11682","bestAskPrice":"11683.3","volume":"13621303","quoteVolume":"1094.487444013737088362","openInterest":"23797354","lastPrice":"11682.8","highPrice":"11730.1","lowPrice":"11567.1","openPrice":"11682.8"}';
  return json(list ? `[${t}]` : t);
}

/** Returns the venue's error answer: HTTP 400, header error_code, body {code, msg}. */
export function errorAnswer(code: number, msg: string, status = 400): Answer {
  return { status, body: JSON.stringify({ code, msg }), headers: { error_code: String(code) } };
}

function send(res: ServerResponse, a: Answer): void {
  res.statusCode = a.status;
  res.setHeader('content-type', 'application/json;charset=UTF-8');
  for (const [k, v] of Object.entries(a.headers ?? {})) res.setHeader(k, v);
  res.end(a.body);
}

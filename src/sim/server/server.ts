/** The simulated venue's server: one node:http server for REST, the user data stream and the market stream, plus loopback admin routes. */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Clock } from '../../core/clock.ts';
import { silentLogger, type Logger } from '../../core/logger.ts';
import { Rng } from '../../core/random.ts';
import { keyRecord, keyRing, type KeyRecord } from './auth.ts';
import { permissionsOf, type VenueConfig } from './config.ts';
import type { UserOrders, VenueAudit } from './audit.ts';
import { ConnectionGate } from './connections.ts';
import { Faults } from './faults.ts';
import { RateLimiter } from './limits.ts';
import { ListenKeys } from './listen-keys.ts';
import type { MarketStreams } from './market-stream.ts';
import { ReplayGuard } from './replay.ts';
import { restListener } from './rest.ts';
import type { Route } from './route.ts';
import { publicRoutes } from './routes-public.ts';
import { streamRoutes } from './routes-stream.ts';
import { UserStreams } from './user-stream.ts';

/** What the engine side gives the server: its routes, who owns each key, user events and market streams. */
export interface Backend {
  readonly routes: readonly Route[];
  /** Returns the engine user and account index a configured API key acts for. */
  keyOwner(apiKey: string): { userId: string; accountIndex: number };
  /** Calls `fn` with each user-stream payload and the user it is for; returns an unsubscribe function. */
  subscribeUser(fn: (userId: string, payload: unknown) => void): () => void;
  /** The market WebSocket, when the backend serves market data. */
  readonly market?: MarketStreams;
  /** The venue's self-check for GET /admin/audit (conservation, repeated ids), when the backend keeps a ledger. */
  audit?(): VenueAudit;
  /** One named user's newest order time and working orders (GET /admin/audit?user=NAME). */
  auditUser?(name: string): UserOrders | undefined;
  /** Called when the server stops (persist state, stop agents). */
  stop?(): void;
}

export interface VenueServerOptions {
  readonly config: VenueConfig;
  readonly clock: Clock;
  /** Builds the backend; it is given the server's faults so its market stream can drop sockets too. */
  readonly backend: (faults: Faults) => Backend;
  readonly log?: Logger;
  /** Seed of the server's fault draws; the config's server.seed when absent. listenKeys and the admin token never come from it. */
  readonly seed?: number;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
/** Host header names that can only mean this machine: a page served from any other name (DNS rebinding) is refused. */
const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/i;

/**
 * Returns why an admin request is refused, or undefined when it may go on. The admin routes change
 * faults, so a web page must not reach them: either the start-up token is sent (X-Admin-Token), or
 * the Host header names loopback (no rebound DNS name) and a write carries a JSON content type, which
 * a cross-site form or a no-cors fetch cannot send without a CORS preflight this server never grants.
 */
export function adminRefusal(req: IncomingMessage, token: string): string | undefined {
  const sent = req.headers['x-admin-token'];
  if (typeof sent === 'string') {
    const a = Buffer.from(sent, 'utf8');
    const b = Buffer.from(token, 'utf8');
    return a.length === b.length && timingSafeEqual(a, b) ? undefined : 'wrong admin token';
  }
  if (!LOOPBACK_HOST.test(req.headers.host ?? '')) return 'the Host header must be 127.0.0.1, localhost or [::1] (or send X-Admin-Token)';
  if (req.method === 'GET') return undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' ? undefined : 'admin writes need Content-Type: application/json (or X-Admin-Token)';
}

/** A running venue: its URLs, its parts for tests and the admin route, and `stop`. */
export class VenueServer {
  readonly faults: Faults;
  readonly limiter: RateLimiter;
  readonly listenKeys: ListenKeys;
  readonly userStreams: UserStreams;
  readonly backend: Backend;
  /** Open sockets per address and in total, capped by server.connections. */
  readonly connections: ConnectionGate;
  /** Crypto-random token that opens the admin routes from any Host (printed by `bhtrade venue` at start). */
  readonly adminToken = randomBytes(24).toString('hex');
  private readonly http: Server;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private unsubscribe: (() => void) | undefined;
  private port = 0;
  private host = '127.0.0.1';

  constructor(private readonly o: VenueServerOptions) {
    const { config: c, clock } = o;
    const seed = o.seed ?? c.server.seed;
    const log = o.log ?? silentLogger();
    this.faults = new Faults(new Rng(seed ^ 0x5eed), c.faults);
    this.limiter = new RateLimiter(clock, c.rateLimits, c.bans);
    this.listenKeys = new ListenKeys(clock, c.server.userStream.listenKeyValidityMs);
    const us = c.server.userStream;
    // User events cannot be skipped: a user stream has no conflation, only the close limit.
    this.userStreams = new UserStreams(clock, this.listenKeys, this.faults, { ...us, sendLimits: { conflateAboveBytes: us.closeAboveBytes, closeAboveBytes: us.closeAboveBytes } });
    this.backend = o.backend(this.faults);
    // The engine's events are mapped to user payloads only while a user stream is open: nobody else would read them.
    this.userStreams.onActivity((active) => {
      if (active) this.unsubscribe ??= this.backend.subscribeUser((userId, payload) => this.userStreams.push(userId, payload));
      else this.stopUserEvents();
    });
    const routes: Route[] = [...publicRoutes(c, clock), ...streamRoutes(this.listenKeys), ...this.backend.routes];
    const listener = restListener({
      clock, routes, keys: keysOf(c, this.backend), limiter: this.limiter, faults: this.faults, log,
      maxBodyBytes: c.server.maxBodyBytes,
      maxRecvWindowMs: c.server.maxRecvWindowMs,
      replay: new ReplayGuard(c.server.maxRecvWindowMs + 1000, c.server.replayMemory),
      other: (req, res, body) => this.admin(req, res, body),
    });
    const cc = c.server.connections;
    this.connections = new ConnectionGate(cc);
    this.http = createServer({
      keepAlive: true, noDelay: true,
      headersTimeout: cc.headersTimeoutMs, requestTimeout: cc.requestTimeoutMs,
      // How often Node looks for requests past those timeouts.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(cc.headersTimeoutMs / 4))),
    }, listener);
    this.http.keepAliveTimeout = cc.idleTimeoutMs;
    // A socket silent this long is closed (WebSocket sockets clear it: the streams have their own idle rules).
    this.http.timeout = cc.idleTimeoutMs;
    // Registered after Node's own listener, so a refused socket was never handed a request.
    this.http.on('connection', (socket: Socket) => this.connections.admit(socket));
    this.http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
    this.http.on('clientError', (e: NodeJS.ErrnoException, socket) => {
      if (!socket.writable) socket.destroy();
      else if (e.code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.end('HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      else socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: 35\r\n\r\n{"code":-1004,"msg":"Bad request"}\n');
    });
  }

  /** Starts listening; resolves once the port is bound (port 0 picks a free one). */
  async listen(host = this.o.config.server.host, port = this.o.config.server.port): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(port, host, () => resolve());
    });
    this.host = host;
    this.port = (this.http.address() as AddressInfo).port;
    return this;
  }

  /** Returns the REST base URL, e.g. http://127.0.0.1:8080. */
  get restUrl(): string {
    return `http://${this.hostText()}:${this.port}`;
  }

  /** Returns the WebSocket base URL, e.g. ws://127.0.0.1:8080. */
  get wsUrl(): string {
    return `ws://${this.hostText()}:${this.port}`;
  }

  /** Closes every socket and the listener, then the backend stops and persists: no request can change the state after it is saved. */
  async stop(): Promise<void> {
    this.stopUserEvents();
    this.userStreams.closeAll();
    this.backend.market?.closeAll();
    this.listenKeys.dispose();
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
    this.backend.stop?.();
  }

  private stopUserEvents(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private hostText(): string {
    return this.host.includes(':') ? `[${this.host}]` : this.host;
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '/').split('?')[0]!;
    const user = /^\/openapi\/ws\/([^/]+)\/?$/.exec(path);
    if (user) {
      this.userStreams.upgrade(this.wss, req, socket, head, user[1]!);
      return;
    }
    if (/^\/openapi\/quote\/ws\/v1\/?$/.test(path) && this.backend.market) {
      this.backend.market.upgrade(this.wss, req, socket, head);
      return;
    }
    socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  }

  /** The loopback admin routes: GET/POST/DELETE /admin/faults, POST /admin/faults/drop, POST /admin/listenKeys/expire, GET /admin/audit. */
  private admin(req: IncomingMessage, res: ServerResponse, body: Buffer): boolean {
    const path = (req.url ?? '/').split('?')[0]!;
    if (!path.startsWith('/admin/')) return false;
    const reply = (status: number, value: unknown): void => {
      const text = JSON.stringify(value);
      res.writeHead(status, { 'Content-Type': 'application/json;charset=UTF-8', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    };
    if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) {
      reply(403, { code: -1005, msg: 'No Permission' });
      return true;
    }
    const refused = adminRefusal(req, this.adminToken);
    if (refused !== undefined) {
      reply(403, { code: -1005, msg: `No Permission: ${refused}` });
      return true;
    }
    if (path === '/admin/faults' && req.method === 'GET') {
      reply(200, { settings: this.faults.settings, fired: this.faults.fired });
    } else if (path === '/admin/faults' && req.method === 'POST') {
      try {
        reply(200, { settings: this.faults.set(JSON.parse(body.toString('utf8') || '{}')) });
      } catch (e) {
        reply(400, { code: -1130, msg: `Data sent for paramter 'faults' is not valid. ${(e as Error).message}` });
      }
    } else if (path === '/admin/faults' && req.method === 'DELETE') {
      reply(200, { settings: this.faults.set({}) });
    } else if (path === '/admin/faults/drop' && req.method === 'POST') {
      const n = this.userStreams.dropAll() + (this.backend.market?.dropAll() ?? 0);
      reply(200, { dropped: n });
    } else if (path === '/admin/listenKeys/expire' && req.method === 'POST') {
      reply(200, { expired: this.listenKeys.expireAll() });
    } else if (path === '/admin/audit' && req.method === 'GET') {
      const name = new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('user');
      const user = name === null ? undefined : this.backend.auditUser?.(name);
      if (name !== null && user === undefined) reply(404, { code: -1020, msg: `no user named ${name}` });
      else reply(200, { ...this.backend.audit?.(), ...(user === undefined ? {} : { user }), bans: this.limiter.bansIssued, shedUserStreams: this.userStreams.shed, fired: this.faults.fired });
    } else {
      reply(404, { code: -1020, msg: 'This operation is not supported.' });
    }
    return true;
  }
}

/** Returns every configured key as a KeyRecord owned by the backend's user for it. */
function keysOf(c: VenueConfig, backend: Backend): Map<string, KeyRecord> {
  const recs: KeyRecord[] = [];
  for (const a of c.accounts) {
    const all = [...a.keys, ...a.subAccounts.flatMap((s) => s.keys)];
    for (const k of all) {
      const owner = backend.keyOwner(k.apiKey);
      recs.push(keyRecord({
        apiKey: k.apiKey, secret: k.secret, permissions: permissionsOf(k.permissions), enabled: k.enabled,
        userId: owner.userId, accountIndex: owner.accountIndex, ipWhitelist: k.ipWhitelist,
      }));
    }
  }
  return keyRing(recs);
}

/** SimGateway: the Gateway of model/gateway.ts in-process over a SimVenue on the injected clock, with request, response and report latencies, reports delivered as the user stream delivers them. */
import type { Clock } from '../core/clock.ts';
import { ConfigError, VenueError } from '../core/errors.ts';
import { Rng } from '../core/random.ts';
import type * as m from '../model/index.ts';
import { parseUserStreamFrame } from '../model/userstream.ts';
import { UserEventMapper } from '../sim/server/user-events.ts';
import { ownerOf } from '../sim/server/owners.ts';
import type { SimVenue } from '../sim/engine/venue.ts';
import { ENDPOINTS } from '../venue/catalogue.ts';
import type { Endpoint } from '../venue/endpoint.ts';
import { venueErrorFor } from '../venue/errors.ts';
import { RestGateway, type GatewayRest } from '../venue/gateway.ts';
import type * as p from '../venue/params.ts';
import { normaliseUserEvent } from '../venue/user-normalise.ts';
import type { EventSink } from '../venue/ws-connection.ts';
import { Latency, type LatencySpec } from './latency.ts';

export interface SimGatewayOptions {
  readonly venue: SimVenue;
  /** The clock latencies run on (the venue's, normally a VirtualClock the backtester advances). */
  readonly clock: Clock;
  /** Name of the venue user the gateway trades for (SimVenue.user). */
  readonly user: string;
  /** Sub-account index (default 0, the main accounts). */
  readonly accountIndex?: number;
  readonly latency?: {
    /** From a call to the venue acting on it (default 0). */
    readonly request?: LatencySpec;
    /** From the venue's answer to the caller having it (default 0). */
    readonly response?: LatencySpec;
    /** From a venue event to its report on the sink (default 0). */
    readonly report?: LatencySpec;
  };
  /** Seed of the sampled latencies. */
  readonly seed?: number;
  /** Where the user's reports go, as the user stream client puts them on the bus; without it no report is made. */
  readonly sink?: EventSink;
  /** The rateLimits exchangeInfo answers (default none). */
  readonly rateLimits?: readonly m.RateLimit[];
  /** exchangeInfo's timezone (default UTC). */
  readonly timezone?: string;
  /**
   * Most report batches held for their latency at once (default 100 000). Beyond it the oldest is
   * delivered early: nothing is lost and the order is kept, only that report's latency is cut short.
   */
  readonly maxReportsInFlight?: number;
}

/**
 * The in-process Gateway. Every call goes the way a RestGateway's goes, one step lower: the request
 * reaches the venue after the request latency, the venue's answer is read by the same catalogue
 * parser the REST client uses and reaches the caller after the response latency, and a refusal is
 * the same typed VenueError. So RestGateway's mapping to reports is shared, not copied, and both
 * gateways give the same answers (test/gateway). Requests are independent (like parallel HTTP
 * requests they may overtake each other when latencies are sampled); reports keep the venue's order,
 * as one socket does.
 */
export class SimGateway extends RestGateway {
  private readonly reports: ReportLink | undefined;

  constructor(o: SimGatewayOptions) {
    // One random stream per link, so that how often one link draws never shifts another's draws.
    const seed = o.seed ?? 1;
    const latency = (spec: LatencySpec | undefined, salt: number, field: string): Latency => new Latency(spec ?? 0, new Rng(seed ^ salt), field);
    const link = new CallLink(o.clock, latency(o.latency?.request, 0x5eed01, 'latency.request'), latency(o.latency?.response, 0x5eed02, 'latency.response'));
    super(new SimRestClient(o, link), () => o.clock.now());
    this.reports = o.sink ? new ReportLink(o, latency(o.latency?.report, 0x5eed03, 'latency.report'), o.sink) : undefined;
  }

  /** Returns how many report batches wait for their latency (0 without a sink). */
  reportsInFlight(): number {
    return this.reports?.inFlight() ?? 0;
  }

  /** Stops making reports; reports already on their way are still delivered. */
  close(): void {
    this.reports?.close();
  }
}

/** Carries one call to the venue and its answer back, each after its latency on the clock. */
class CallLink {
  constructor(private readonly clock: Clock, private readonly request: Latency, private readonly response: Latency) {}

  /** Runs `act` on the venue after the request latency; returns its answer parsed by `ep`, after the response latency. */
  call<T>(ep: Pick<Endpoint<unknown, T>, 'parse'>, act: () => unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const run = (): void => {
        let answer: { ok: true; value: T } | { ok: false; err: unknown };
        try {
          answer = { ok: true, value: ep.parse(act()) };
        } catch (e) {
          answer = { ok: false, err: e instanceof VenueError ? venueErrorFor(e.venueCode, e.message, { httpStatus: e.httpStatus ?? 400 }) : e };
        }
        after(this.clock, this.response.next(), () => (answer.ok ? resolve(answer.value) : reject(answer.err)));
      };
      after(this.clock, this.request.next(), run);
    });
  }
}

/**
 * Runs `fn` after `ms` on the clock; with 0 at the same instant, in a microtask: never inside the
 * caller's own call, which may be a venue listener in the middle of an engine operation.
 */
function after(clock: Clock, ms: number, fn: () => void): void {
  if (ms === 0) queueMicrotask(fn);
  else clock.setTimeout(fn, ms);
}

/** The REST calls RestGateway makes, answered by the venue in-process (the server's routes call the same SimVenue methods). */
class SimRestClient implements GatewayRest {
  private readonly venue: SimVenue;
  private readonly spot: string;
  private readonly contract: string;

  constructor(private readonly o: SimGatewayOptions, private readonly link: CallLink) {
    this.venue = o.venue;
    const userId = o.venue.user(o.user);
    this.spot = o.venue.accountOf(userId, 1, o.accountIndex ?? 0);
    this.contract = o.venue.accountOf(userId, 3, o.accountIndex ?? 0);
  }

  newSpotOrder(q: p.NewSpotOrderParams): Promise<m.SpotOrderAck> {
    return this.link.call(ENDPOINTS.newSpotOrder, () => this.venue.newSpotOrder(this.spot, {
      symbol: q.symbol, side: q.side, type: q.type, timeInForce: q.timeInForce, quantity: q.quantity, price: q.price, newClientOrderId: q.newClientOrderId,
    }));
  }

  cancelSpotOrder(q: p.OrderRef): Promise<m.SpotCancel> {
    return this.link.call(ENDPOINTS.cancelSpotOrder, () => this.venue.cancelSpotOrder(this.spot, { orderId: q.orderId, clientOrderId: q.clientOrderId }));
  }

  getSpotOrder(q: p.SpotOrderRef): Promise<m.SpotOrder> {
    const clientOrderId = 'origClientOrderId' in q ? q.origClientOrderId : q.clientOrderId;
    const orderId = 'orderId' in q ? q.orderId : undefined;
    return this.link.call(ENDPOINTS.getSpotOrder, () => this.venue.getSpotOrder(this.spot, { orderId, clientOrderId }));
  }

  openSpotOrders(q: p.SpotOpenOrdersParams = {}): Promise<readonly m.SpotOrder[]> {
    return this.link.call(ENDPOINTS.openSpotOrders, () => this.venue.openSpotOrders(this.spot, q));
  }

  spotMyTrades(q: p.SpotMyTradesParams = {}): Promise<readonly m.SpotTrade[]> {
    return this.link.call(ENDPOINTS.spotMyTrades, () => this.venue.spotMyTrades(this.spot, q));
  }

  spotAccount(): Promise<m.SpotAccount> {
    return this.link.call(ENDPOINTS.spotAccount, () => this.venue.spotAccount(this.spot));
  }

  newContractOrder(q: p.NewContractOrderParams): Promise<m.ContractOrder> {
    return this.link.call(ENDPOINTS.newContractOrder, () => this.venue.newContractOrder(this.contract, {
      symbol: q.symbol, side: q.side, orderType: q.orderType, quantity: q.quantity, leverage: q.leverage, price: q.price, priceType: q.priceType,
      overPrice: q.overPrice, triggerPrice: q.triggerPrice, timeInForce: q.timeInForce, clientOrderId: q.clientOrderId,
    }));
  }

  cancelContractOrder(q: p.ContractOrderRef): Promise<m.ContractOrder> {
    return this.link.call(ENDPOINTS.cancelContractOrder, () => this.venue.cancelContractOrder(this.contract, { orderId: q.orderId, clientOrderId: q.clientOrderId }));
  }

  getContractOrder(q: p.ContractOrderRef): Promise<m.ContractOrder> {
    return this.link.call(ENDPOINTS.getContractOrder, () => this.venue.getContractOrder(this.contract, { orderId: q.orderId, clientOrderId: q.clientOrderId }));
  }

  openContractOrders(q: p.ContractOpenOrdersParams = {}): Promise<readonly m.ContractOrder[]> {
    return this.link.call(ENDPOINTS.openContractOrders, () => this.venue.openContractOrders(this.contract, q));
  }

  contractMyTrades(q: p.ContractMyTradesParams = {}): Promise<readonly m.ContractTrade[]> {
    return this.link.call(ENDPOINTS.contractMyTrades, () => this.venue.contractMyTrades(this.contract, q));
  }

  contractPositions(q: p.PositionsParams = {}): Promise<readonly m.Position[]> {
    return this.link.call(ENDPOINTS.contractPositions, () => this.venue.positions(this.contract, q));
  }

  contractAccount(): Promise<m.ContractAccount> {
    return this.link.call(ENDPOINTS.contractAccount, () => this.venue.contractAccount(this.contract));
  }

  /** Answers the venue's instruments as brokerInfo does, with the configured rateLimits. */
  brokerInfo(): Promise<m.BrokerInfo> {
    return this.link.call(ENDPOINTS.brokerInfo, () => ({
      timezone: this.o.timezone ?? 'UTC',
      serverTime: this.o.clock.now(),
      rateLimits: this.o.rateLimits ?? [],
      brokerFilters: [],
      symbols: this.venue.instrumentsOf('spot').map((i) => i.spot),
      options: [],
      contracts: this.venue.instrumentsOf('contract').map((i) => i.contract),
    }));
  }
}

/**
 * The user's reports: the venue's events mapped to user-stream payloads by the server's own mapper,
 * parsed and normalised as the UserStreamClient does, and put on the sink after the report latency,
 * in the venue's order (a report never overtakes an earlier one, whatever latency it drew).
 */
class ReportLink {
  private readonly queue: { due: number; events: readonly m.BusEvent[] }[] = [];
  private lastDue = -Infinity;
  private armed = false;
  private readonly unsubscribe: () => void;
  private readonly max: number;

  constructor(private readonly o: SimGatewayOptions, private readonly latency: Latency, private readonly sink: EventSink) {
    this.max = o.maxReportsInFlight ?? 100_000;
    if (!(Number.isInteger(this.max) && this.max >= 1)) throw new ConfigError('maxReportsInFlight', `must be a whole number ≥ 1, got ${this.max}`);
    const owner = ownerOf(o.venue.user(o.user), o.accountIndex ?? 0);
    const mapper = new UserEventMapper(o.venue, (to, payload) => {
      if (to === owner) this.push(payload);
    });
    this.unsubscribe = o.venue.subscribe((ev) => mapper.onEvent(ev));
  }

  close(): void {
    this.unsubscribe();
  }

  private push(payload: unknown): void {
    const now = this.o.clock.now();
    const due = Math.max(this.lastDue, now + this.latency.next());
    this.lastDue = due;
    const events: m.BusEvent[] = [];
    for (const ev of parseUserStreamFrame(payload)) {
      const out = normaliseUserEvent(ev, due);
      if (!('skipped' in out)) events.push(...out);
    }
    if (events.length === 0) return;
    this.queue.push({ due, events });
    while (this.queue.length > this.max) for (const ev of this.queue.shift()!.events) this.sink(ev);
    this.arm();
  }

  /** Returns how many report batches wait for their latency. */
  inFlight(): number {
    return this.queue.length;
  }

  /** Schedules the next delivery: the head's due time on the clock, or a microtask when it is due now (never inside the engine operation that made it). */
  private arm(): void {
    if (this.armed || this.queue.length === 0) return;
    this.armed = true;
    after(this.o.clock, Math.max(0, this.queue[0]!.due - this.o.clock.now()), () => this.drain());
  }

  private drain(): void {
    this.armed = false;
    const now = this.o.clock.now();
    while (this.queue.length > 0 && this.queue[0]!.due <= now) for (const ev of this.queue.shift()!.events) this.sink(ev);
    this.arm();
  }
}

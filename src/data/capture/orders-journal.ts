/** Records the bot's own side of a run beside its market capture: every order request and the venue's answer with both times, and every order report and fill of the user stream. */
import type { EventBus, Unsubscribe } from '../../bus/index.ts';
import type { Gateway, OrderLocator, OrderReport, OrderRequest } from '../../model/gateway.ts';
import type { OrderUpdateEvent } from '../../model/events.ts';
import { frameLine } from './line-format.ts';
import type { CaptureWriter } from './writer.ts';

/** The order calls recorded: the writes (place, cancel) and the query that settles an unknown outcome. */
type Recorded = 'place' | 'cancel' | 'getOrder';

/**
 * Lines of the `orders` stream, each `<ns> <json>`:
 * - `{"type":"request","id":n,"op":...,"args":...}` when the bot sends (ns = request time);
 * - `{"type":"answer","id":n,"op":...,"requestNs":"...","report":...}` or `{"type":"error",...,"error":{code,retry,message}}` when the call settles (ns = response time);
 * - `{"type":"fill",...}` for a user-stream order report with a fill, `{"type":"order",...}` for the other reports (ns = receive time on the bus),
 *   the report's own order type as `orderType`.
 */
export class OrdersJournal {
  private seq = 0;
  private off: Unsubscribe | undefined;

  constructor(private readonly writer: CaptureWriter, private readonly nanos: () => bigint) {}

  /** Returns `inner` with place, cancel and getOrder recorded; everything else passes straight through. */
  wrap(inner: Gateway): Gateway {
    const call = <A, T>(op: Recorded, args: A, run: (a: A) => Promise<T>): Promise<T> => {
      const id = ++this.seq;
      const requestNs = this.nanos();
      this.line(requestNs, { type: 'request', id, op, args });
      return run(args).then((report) => {
        this.line(this.nanos(), { type: 'answer', id, op, requestNs: String(requestNs), report });
        return report;
      }, (err: unknown) => {
        const e = err as { code?: unknown; retry?: unknown; message?: unknown };
        this.line(this.nanos(), { type: 'error', id, op, requestNs: String(requestNs), error: { code: e?.code ?? null, retry: e?.retry ?? null, message: String(e?.message ?? err) } });
        throw err;
      });
    };
    const recorded: Pick<Gateway, Recorded> = {
      place: (req: OrderRequest): Promise<OrderReport> => call('place', req, (r) => inner.place(r)),
      cancel: (ref: OrderLocator): Promise<OrderReport> => call('cancel', ref, (r) => inner.cancel(r)),
      getOrder: (ref: OrderLocator): Promise<OrderReport> => call('getOrder', ref, (r) => inner.getOrder(r)),
    };
    // Every other member passes to `inner` untouched, also members the Gateway gains later.
    return new Proxy(inner, {
      get: (target, prop) => {
        if (prop === 'place' || prop === 'cancel' || prop === 'getOrder') return recorded[prop];
        const v: unknown = Reflect.get(target, prop, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }

  /** Records the order reports the bus carries from now on (fills among them). */
  follow(bus: EventBus): void {
    this.off = bus.subscribe('order', (ev: OrderUpdateEvent) => {
      // `type` names the line; the report's own type (LIMIT, MARKET, ...) goes on as `orderType`.
      this.line(this.nanos(), Object.assign({}, ev, { type: isFill(ev) ? 'fill' : 'order', orderType: ev.type }));
    }, { label: 'record orders' });
  }

  /** Stops following the bus. */
  stop(): void {
    this.off?.();
    this.off = undefined;
  }

  private line(ns: bigint, value: object): void {
    this.writer.write(ns, frameLine(ns, JSON.stringify(value)));
  }
}

function isFill(ev: OrderUpdateEvent): boolean {
  return ev.lastQty !== '' && !/^0*(\.0*)?$/.test(ev.lastQty);
}

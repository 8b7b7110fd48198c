// The way back of a backtest exchange's execution reports (the L2 exchange's and the bar exchange's): after the response latency, never overtaking an earlier report.
import type { Clock } from '../../core/clock.ts';
import type { LatencyModel } from './latency.ts';
import type { ExecType, ExecutionReport, OrderStatus } from './types.ts';

/** What a report reads of an order. */
export interface ReportedOrder {
  readonly req: { readonly clientOrderId: string };
  readonly orderId: string;
  readonly status: OrderStatus;
  readonly executedLots: number;
  readonly leavesLots: number;
  readonly active: boolean;
}

/** Sends an exchange's reports; one per exchange, so that its reports keep their order. */
export class ReportSender {
  private lastDue = -Infinity;

  constructor(private readonly o: { readonly clock: Clock; readonly latency: LatencyModel; readonly onReport: (r: ExecutionReport) => void }) {}

  /** Reports a change of `x` (a fill when `lots` > 0). */
  report(x: ReportedOrder, execType: ExecType, price = 0, lots = 0, isMaker = false, code = 0, fee = '0', feeAsset = ''): void {
    const now = this.o.clock.now();
    this.deliver({
      clientOrderId: x.req.clientOrderId, orderId: x.orderId, execType, status: x.status, code, lastPriceTicks: price, lastLots: lots, isMaker, fee, feeAsset,
      executedLots: x.executedLots, leavesLots: x.active ? x.leavesLots : 0, exchTime: now, localTime: this.due(now),
    });
  }

  /** Reports a refused cancel of `clientOrderId` (`x` undefined when the exchange does not know it). */
  cancelRejected(clientOrderId: string, x: ReportedOrder | undefined, code: number): void {
    const now = this.o.clock.now();
    this.deliver({
      clientOrderId, orderId: x?.orderId ?? '', execType: 'CANCEL_REJECTED', status: x?.status ?? 'REJECTED', code, lastPriceTicks: 0, lastLots: 0, isMaker: false,
      fee: '0', feeAsset: '', executedLots: x?.executedLots ?? 0, leavesLots: x?.active ? x.leavesLots : 0, exchTime: now, localTime: this.due(now),
    });
  }

  /** Returns the local time a report made at `exchTime` reaches the strategy: after the response latency, and not before the one sent last. */
  private due(exchTime: number): number {
    const due = Math.max(this.lastDue, exchTime + this.o.latency.response(exchTime));
    this.lastDue = due;
    return due;
  }

  /** Sends `r` at its local time (due() made it). */
  private deliver(r: ExecutionReport): void {
    this.o.clock.setTimeout(() => this.o.onReport(r), r.localTime - this.o.clock.now());
  }
}

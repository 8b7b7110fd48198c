// The backtest's order lines: orders.csv lists every order once, in placement order, as its latest report shows it, whatever order they finish in — a late report of a finished order still updates its line — while the recorder's index holds only the working orders and the latest finished ones.
import { describe, expect, it } from 'vitest';
import { FINISHED_KEPT, Recorder } from '../../src/app/backtest-recorder.ts';
import type { OrderReport, OrderRequest } from '../../src/model/index.ts';

const req = { account: 'spot', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '100', clientOrderId: 'x' } as unknown as OrderRequest;
const report = (id: number, status: OrderReport['status'], time: number): OrderReport => ({
  account: 'spot', symbol: 'BTCUSDT', orderId: String(1000 + id), clientOrderId: `c${id}`, status, side: 'BUY', type: 'LIMIT', price: '100', origQty: '1',
  executedQty: status === 'FILLED' ? '1' : '0', avgPrice: '0', time,
});
const line = (id: number, status: string, time: number, updated: number): string => `${time},c${id},${1000 + id},BUY,LIMIT,GTC,100,1,${status},${status === 'FILLED' ? '1' : '0'},${updated},,,`;

describe('backtest recorder', () => {
  it('lists orders in placement order with their last report, bounded while they run', () => {
    const rec = new Recorder();
    const n = 3 * FINISHED_KEPT;
    // Order 0 rests the whole run; the others finish in pairs, the later one first; order 1 gets a second CANCELED report later on.
    rec.order(report(0, 'NEW', 0), req);
    for (let i = 1; i < n; i += 2) {
      rec.order(report(i, 'NEW', i), req);
      rec.order(report(i + 1, 'NEW', i), req);
      rec.order(report(i + 1, 'FILLED', i + 1), req);
      rec.order(report(i, 'CANCELED', i + 1), req);
      if (i === 101) rec.order(report(1, 'CANCELED', 103), req);
    }
    const index = (rec as unknown as { rows: Map<string, unknown> }).rows;
    expect(index.size).toBeLessThanOrEqual(FINISHED_KEPT + 1);
    expect(rec.cancels).toBe(n / 2);
    const lines = rec.orderLines();
    expect(lines).toHaveLength(n + 1);
    expect(lines[0]).toBe(line(0, 'NEW', 0, 0));
    expect(lines[1]).toBe(line(1, 'CANCELED', 1, 103));
    expect(lines[2]).toBe(line(2, 'FILLED', 1, 2));
    expect(lines[3]).toBe(line(3, 'CANCELED', 3, 4));
    expect(lines[n]).toBe(line(n, 'FILLED', n - 1, n));
    expect(new Set(lines).size).toBe(n + 1);
    rec.discard();
  });

  it('spools the lines in front once they are final, however long the run', () => {
    const rec = new Recorder();
    const n = 4 * FINISHED_KEPT;
    for (let i = 0; i < n; i++) {
      rec.order(report(i, 'NEW', i), req);
      rec.order(report(i, 'CANCELED', i + 1), req);
    }
    const held = (rec as unknown as { lines: string[] }).lines;
    expect(held.length).toBeLessThanOrEqual(2 * FINISHED_KEPT);
    const lines = rec.orderLines();
    expect(lines).toHaveLength(n);
    expect(lines.every((l, i) => l === line(i, 'CANCELED', i, i + 1))).toBe(true);
  });
});

// A run's orders and fills kept as CSV lines: the lines read back as the same rows and the same files, quoted fields included, and the spool of a long run holds a bounded number of lines in memory and removes its file.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { csvFields, toCsv } from '../../src/backtest/report/csv.ts';
import { resultFiles } from '../../src/backtest/report/files.ts';
import { FILL_COLUMNS, fillLine, ORDER_COLUMNS, orderLine, resultsFromLines } from '../../src/backtest/report/rows.ts';
import { LineSpool, PointSpool } from '../../src/backtest/report/spool.ts';
import type { FillRow, OrderRow } from '../../src/backtest/report/results.ts';
import { barRun } from './bar-run.ts';

describe('result lines', () => {
  it('reads back quoted fields and empty ones as written', () => {
    const row: OrderRow = {
      time: 1, clientOrderId: 'a,"b"', orderId: '', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '1.5', qty: '2', status: 'NEW', executedQty: '0', updateTime: 2,
      priceType: '', triggerPrice: '', leverage: '',
    };
    const line = orderLine(row);
    expect(line).toBe('1,"a,""b""",,BUY,LIMIT,GTC,1.5,2,NEW,0,2,,,');
    expect(csvFields(line)).toEqual(['1', 'a,"b"', '', 'BUY', 'LIMIT', 'GTC', '1.5', '2', 'NEW', '0', '2', '', '', '']);
    expect(csvFields('x,')).toEqual(['x', '']);
    expect(resultsFromLines({ ...barRun(), orders: undefined, fills: undefined } as never, [line], []).orders).toEqual([row]);
  });

  it('gives the same rows and the same files as the rows themselves', () => {
    const r = barRun();
    const fromLines = resultsFromLines(r, r.orders.map(orderLine), r.fills.map(fillLine));
    expect(fromLines.orders).toEqual(r.orders);
    expect(fromLines.fills).toEqual(r.fills);
    expect(resultFiles(fromLines)).toEqual(resultFiles(r));
    expect(resultFiles(fromLines)['fills.csv']).toBe(toCsv(FILL_COLUMNS, r.fills as FillRow[]));
    expect(resultFiles(fromLines)['orders.csv']).toBe(toCsv(ORDER_COLUMNS, r.orders as OrderRow[]));
  });

  it('spools a long run\'s lines to a file in chunks and gives them all back in order', () => {
    const s = new LineSpool();
    const n = 10_000;
    for (let i = 0; i < n; i++) s.push(`line ${i}`);
    expect(s.length).toBe(n);
    // At most one chunk (4 096 lines) is held; the rest went to the file.
    expect((s as unknown as { held: string[] }).held.length).toBeLessThan(4_096);
    const file = s.file!;
    expect(existsSync(file)).toBe(true);
    const lines = s.drain();
    expect(lines).toHaveLength(n);
    expect(lines[0]).toBe('line 0');
    expect(lines[n - 1]).toBe(`line ${n - 1}`);
    expect(lines.every((l, i) => l === `line ${i}`)).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it('removes the file of a run that failed', () => {
    const s = new LineSpool();
    for (let i = 0; i < 5_000; i++) s.push('x');
    const file = s.file!;
    expect(existsSync(file)).toBe(true);
    s.discard();
    expect(existsSync(file)).toBe(false);
    expect(s.drain()).toEqual([]);
  });

  it('gives a series\' points back exactly, across the file and the chunk held', () => {
    const s = new PointSpool();
    const n = 5_000;
    for (let i = 0; i < n; i++) s.push(1_723_147_200_000 + i, i % 2 === 0 ? `-0.00${i}` : `${i}.5`);
    expect(s.length).toBe(n);
    const points = s.drain();
    expect(points).toHaveLength(n);
    expect(points[0]).toEqual({ time: 1_723_147_200_000, text: '-0.000' });
    expect(points[4_097]).toEqual({ time: 1_723_147_204_097, text: '4097.5' });
    expect(points[n - 1]).toEqual({ time: 1_723_147_200_000 + n - 1, text: `${n - 1}.5` });
  });
});

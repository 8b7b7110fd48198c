/**
 * The orders and fills of a run kept as their CSV lines while it goes: a line holds a row in a fraction
 * of an object's memory, and orders.csv and fills.csv are those lines as they are. The rows are read
 * back from the lines only when asked for (a test, parity, the report's fill markers).
 */
import { csvFields, csvLine, csvText } from './csv.ts';
import type { BacktestResults, FillRow, OrderRow } from './results.ts';

export const ORDER_COLUMNS = ['time', 'clientOrderId', 'orderId', 'side', 'type', 'timeInForce', 'price', 'qty', 'status', 'executedQty', 'updateTime', 'priceType', 'triggerPrice', 'leverage'] as const;
export const FILL_COLUMNS = ['time', 'orderId', 'clientOrderId', 'side', 'price', 'qty', 'fee', 'feeAsset', 'isMaker'] as const;

/** Returns an order's orders.csv line. */
export function orderLine(r: OrderRow): string {
  return csvLine(ORDER_COLUMNS, r);
}

/** Returns a fill's fills.csv line. */
export function fillLine(f: FillRow): string {
  return csvLine(FILL_COLUMNS, f);
}

function orderOf(line: string): OrderRow {
  const [time, clientOrderId, orderId, side, type, timeInForce, price, qty, status, executedQty, updateTime, priceType, triggerPrice, leverage] = csvFields(line) as [string, ...string[]];
  return {
    time: Number(time), clientOrderId: clientOrderId!, orderId: orderId!, side: side!, type: type!, timeInForce: timeInForce!, price: price!, qty: qty!, status: status!,
    executedQty: executedQty!, updateTime: Number(updateTime), priceType: priceType!, triggerPrice: triggerPrice!, leverage: leverage!,
  };
}

function fillOf(line: string): FillRow {
  const [time, orderId, clientOrderId, side, price, qty, fee, feeAsset, isMaker] = csvFields(line) as [string, ...string[]];
  return { time: Number(time), orderId: orderId!, clientOrderId: clientOrderId!, side: side!, price: price!, qty: qty!, fee: fee!, feeAsset: feeAsset!, isMaker: isMaker === 'true' };
}

/** The CSV texts of results made from lines, by the results object. */
const texts = new WeakMap<BacktestResults, { readonly orders: string; readonly fills: string }>();

/** Returns results whose `orders` and `fills` are read from their lines on first use; orders.csv and fills.csv are the lines as they are. */
export function resultsFromLines(base: Omit<BacktestResults, 'orders' | 'fills'>, orderLines: readonly string[], fillLines: readonly string[]): BacktestResults {
  let orders: OrderRow[] | undefined;
  let fills: FillRow[] | undefined;
  const r: BacktestResults = {
    ...base,
    get orders() {
      return (orders ??= orderLines.map(orderOf));
    },
    get fills() {
      return (fills ??= fillLines.map(fillOf));
    },
  };
  let made: { orders: string; fills: string } | undefined;
  texts.set(r, {
    get orders() {
      return (made ??= { orders: csvText(ORDER_COLUMNS, orderLines), fills: csvText(FILL_COLUMNS, fillLines) }).orders;
    },
    get fills() {
      return (made ??= { orders: csvText(ORDER_COLUMNS, orderLines), fills: csvText(FILL_COLUMNS, fillLines) }).fills;
    },
  });
  return r;
}

/** Returns the orders.csv and fills.csv texts of results. */
export function tableTexts(r: BacktestResults): { readonly orders: string; readonly fills: string } {
  return texts.get(r) ?? { orders: csvText(ORDER_COLUMNS, r.orders.map(orderLine)), fills: csvText(FILL_COLUMNS, r.fills.map(fillLine)) };
}

/** Turns user-stream events of the model into bus events: one order update per report, one balance update per changed asset, positions. */
import { CONTRACT_ORDER_TYPES, SPOT_NEW_ORDER_TYPES } from '../model/enums.ts';
import {
  balanceUpdateEvent,
  orderUpdateEvent,
  positionUpdateEvent,
  type ReportOrderType,
} from '../model/events.ts';
import type { UserStreamEvent } from '../model/userstream.ts';
import { isDigitAt } from '../model/wire.ts';
import type { SequencedEvent } from './report-sequencer.ts';

const ORDER_TYPES: ReadonlySet<string> = new Set([...SPOT_NEW_ORDER_TYPES, ...CONTRACT_ORDER_TYPES]);

/** Why an event produced nothing for the bus: `malformed` names the field that no venue could mean. */
export type Skipped = { readonly skipped: 'ignored' | 'unknown-order-type' | 'malformed'; readonly detail: string };

/**
 * A quantity, price or balance as an order report or account update may carry it: not negative, and no
 * longer than any real figure. The wire parser takes any decimal; one negative fill or a 5,000-digit price
 * would go on into the executor's and portfolio's books, so such a report is skipped instead. A fee may be
 * negative (a maker rebate).
 */
const MAX_FIGURE_DIGITS = 40;

/** Returns true for a FIGURE: 1 to 40 digits, then optionally `.` and 1 to 40 digits; `signed` allows a leading `-`. Scanned, not matched: it runs on every report. */
function isFigure(v: string, signed: boolean): boolean {
  const n = v.length;
  let i = signed && v.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  const intStart = i;
  while (i < n && isDigitAt(v, i)) i++;
  if (i === intStart || i - intStart > MAX_FIGURE_DIGITS) return false;
  if (i === n) return true;
  if (v.charCodeAt(i) !== 46 /* . */) return false;
  const fracStart = ++i;
  while (i < n && isDigitAt(v, i)) i++;
  return i === n && i > fracStart && i - fracStart <= MAX_FIGURE_DIGITS;
}

/** Returns `name=value` (cut) when `v` is given and not a FIGURE (see isFigure), else undefined. */
function badFigure(name: string, v: string | undefined, signed = false): string | undefined {
  return v === undefined || isFigure(v, signed) ? undefined : `${name}=${v.slice(0, 48)}`;
}

/** Returns the bus events of one user-stream event (none for heartbeats, tickets and unknown types), or why it was skipped. */
export function normaliseUserEvent(ev: UserStreamEvent, recvTs: number): readonly SequencedEvent[] | Skipped {
  switch (ev.kind) {
    case 'account':
    case 'contractAccount': {
      const account = ev.kind === 'account' ? 'spot' : 'contract';
      for (const b of ev.balances) {
        const bad = badFigure('free', b.free) ?? badFigure('locked', b.locked);
        if (bad !== undefined) return { skipped: 'malformed', detail: `${b.asset} ${bad}` };
      }
      return ev.balances.map((b) => balanceUpdateEvent({ account, asset: b.asset, free: b.free, locked: b.locked, ts: ev.eventTime, recvTs }));
    }
    case 'execution':
    case 'contractExecution': {
      if (!ORDER_TYPES.has(ev.orderType)) return { skipped: 'unknown-order-type', detail: ev.orderType };
      const bad = badFigure('price', ev.price) ?? badFigure('quantity', ev.quantity) ?? badFigure('cumQty', ev.cumQty) ?? badFigure('cumQuote', ev.cumQuote)
        ?? badFigure('lastQty', ev.lastQty) ?? badFigure('lastPrice', ev.lastPrice) ?? badFigure('commission', ev.commission, true);
      if (bad !== undefined) return { skipped: 'malformed', detail: `order ${ev.orderId.slice(0, 24)} ${bad}` };
      const contract = ev.kind === 'contractExecution';
      return [orderUpdateEvent({
        account: contract ? 'contract' : 'spot',
        symbol: ev.symbol,
        clientOrderId: ev.clientOrderId,
        orderId: ev.orderId,
        status: ev.status,
        side: ev.side,
        type: ev.orderType as ReportOrderType,
        timeInForce: ev.timeInForce,
        price: ev.price,
        origQty: ev.quantity,
        executedQty: ev.cumQty,
        cumQuote: ev.cumQuote,
        lastQty: ev.lastQty,
        lastPrice: ev.lastPrice,
        tradeId: ev.tradeId,
        fee: ev.commission,
        feeAsset: ev.commissionAsset,
        maker: ev.isMaker,
        createdTs: ev.orderCreationTime,
        closeOrder: contract ? ev.isClose : undefined,
        leverage: contract ? ev.leverage : undefined,
        ts: ev.eventTime,
        recvTs,
      })];
    }
    case 'position':
      return [positionUpdateEvent({
        symbol: ev.symbol, accountId: ev.accountId, side: ev.side, avgPrice: ev.avgPrice, position: ev.position,
        available: ev.available, liquidationPrice: ev.flp, margin: ev.margin, realizedPnl: ev.realizedPnL,
        ts: ev.eventTime ?? recvTs, recvTs,
      })];
    case 'ticket':
      return { skipped: 'ignored', detail: 'ticketInfo' };
    case 'unknown':
      return { skipped: 'ignored', detail: ev.e };
    case 'ping':
    case 'pong':
      return [];
    default: {
      const never: never = ev;
      throw new Error(`user event: unknown kind ${JSON.stringify(never)}`);
    }
  }
}

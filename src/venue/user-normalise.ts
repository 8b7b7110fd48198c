/** Turns user-stream events of the model into bus events: one order update per report, one balance update per changed asset, positions. */
import { CONTRACT_ORDER_TYPES, SPOT_NEW_ORDER_TYPES } from '../model/enums.ts';
import {
  balanceUpdateEvent,
  orderUpdateEvent,
  positionUpdateEvent,
  type ReportOrderType,
} from '../model/events.ts';
import type { UserStreamEvent } from '../model/userstream.ts';
import type { SequencedEvent } from './report-sequencer.ts';

const ORDER_TYPES: ReadonlySet<string> = new Set([...SPOT_NEW_ORDER_TYPES, ...CONTRACT_ORDER_TYPES]);

/** Why an event produced nothing for the bus. */
export type Skipped = { readonly skipped: 'ignored' | 'unknown-order-type'; readonly detail: string };

/** Returns the bus events of one user-stream event (none for heartbeats, tickets and unknown types), or why it was skipped. */
export function normaliseUserEvent(ev: UserStreamEvent, recvTs: number): readonly SequencedEvent[] | Skipped {
  switch (ev.kind) {
    case 'account':
    case 'contractAccount': {
      const account = ev.kind === 'account' ? 'spot' : 'contract';
      return ev.balances.map((b) => balanceUpdateEvent({ account, asset: b.asset, free: b.free, locked: b.locked, ts: ev.eventTime, recvTs }));
    }
    case 'execution':
    case 'contractExecution': {
      if (!ORDER_TYPES.has(ev.orderType)) return { skipped: 'unknown-order-type', detail: ev.orderType };
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

/** User data stream events (account, order, position updates) and the frames that carry them. */
import { ParseError } from '../core/errors.ts';
import {
  CONTRACT_SIDES,
  EXECUTION_TYPES,
  POSITION_SIDES,
  SPOT_ORDER_STATUSES,
  SPOT_SIDES,
  type ContractSide,
  type ExecutionType,
  type PositionSide,
  type SpotOrderStatus,
  type SpotSide,
} from './enums.ts';
import {
  allNormalDecimals,
  asObject,
  at,
  listOf,
  optBool,
  optDecimal,
  optEnum,
  optId,
  optString,
  optTime,
  reqBool,
  reqDecimal,
  reqEnum,
  reqId,
  reqString,
  reqTime,
  type WireObject,
} from './wire.ts';

export interface StreamBalance {
  readonly asset: string;
  readonly free: string;
  readonly locked: string;
}

/** outboundAccountInfo (spot) or outboundContractAccountInfo (contract): balances that changed. */
export interface AccountUpdate {
  readonly kind: 'account' | 'contractAccount';
  readonly eventTime: number;
  readonly canTrade?: boolean;
  readonly canWithdraw?: boolean;
  readonly canDeposit?: boolean;
  /** Time of the last account update, where sent. */
  readonly updateTime?: number;
  readonly balances: readonly StreamBalance[];
}

/** Fields common to spot and contract execution reports. */
interface ReportFields {
  readonly eventTime: number;
  readonly symbol: string;
  readonly clientOrderId: string;
  readonly orderType: string;
  readonly timeInForce: string;
  readonly quantity: string;
  readonly price: string;
  readonly status: SpotOrderStatus;
  readonly orderId: string;
  readonly lastQty: string;
  readonly cumQty: string;
  readonly lastPrice: string;
  readonly commission: string;
  /** Null on the wire when nothing was charged. */
  readonly commissionAsset?: string;
  readonly isWorking: boolean;
  readonly isMaker: boolean;
  readonly orderCreationTime: number;
  /** Cumulative quote quantity; average price is cumQuote / cumQty. */
  readonly cumQuote: string;
  readonly executionType?: ExecutionType;
  readonly stopPrice?: string;
  readonly icebergQty?: string;
  readonly rejectReason?: string;
  readonly transactionTime?: number;
  readonly tradeId?: string;
}

/** executionReport: a spot order update. */
export interface ExecutionReport extends ReportFields {
  readonly kind: 'execution';
  readonly side: SpotSide;
}

/** contractExecutionReport: a contract order update, one per fill on real servers. */
export interface ContractExecutionReport extends ReportFields {
  readonly kind: 'contractExecution';
  /** Real reports carry BUY or SELL; the contract sides are accepted too. */
  readonly side: SpotSide | ContractSide;
  readonly isClose?: boolean;
  readonly leverage?: string;
}

/** outboundContractPositionInfo: a position update. */
export interface PositionUpdate {
  readonly kind: 'position';
  /** Absent in the published sample. */
  readonly eventTime?: number;
  readonly accountId: string;
  readonly symbol: string;
  readonly side: PositionSide;
  readonly avgPrice: string;
  readonly position: string;
  readonly available: string;
  readonly flp: string;
  readonly margin: string;
  readonly realizedPnL: string;
}

/** ticketInfo: fill tickets; their shape is not published, so the fields are kept as sent. */
export interface TicketInfo {
  readonly kind: 'ticket';
  readonly eventTime?: number;
  readonly fields: WireObject;
}

/** An event type this model does not know; ignored by consumers, never a failure. */
export interface UnknownStreamEvent {
  readonly kind: 'unknown';
  readonly e: string;
  readonly fields: WireObject;
}

/** A server heartbeat `{ping}` (or the answer `{pong}` to a client ping). */
export interface StreamHeartbeat {
  readonly kind: 'ping' | 'pong';
  readonly at: number;
}

export type UserStreamEvent =
  | AccountUpdate
  | ExecutionReport
  | ContractExecutionReport
  | PositionUpdate
  | TicketInfo
  | UnknownStreamEvent
  | StreamHeartbeat;

function balances(o: WireObject, path: string): readonly StreamBalance[] {
  return listOf(o['B'], at(path, 'B'), (el, p) => {
    const b = asObject(el, p);
    return { asset: reqString(b, 'a', p), free: reqDecimal(b, 'f', p), locked: reqDecimal(b, 'l', p) };
  });
}

/** Returns an outboundAccountInfo or outboundContractAccountInfo event. */
export function parseAccountUpdate(raw: unknown, path = 'event'): AccountUpdate {
  const o = asObject(raw, path);
  const e = reqString(o, 'e', path);
  if (e !== 'outboundAccountInfo' && e !== 'outboundContractAccountInfo') {
    throw new ParseError(at(path, 'e'), `must be outboundAccountInfo or outboundContractAccountInfo, got ${JSON.stringify(e)}`);
  }
  return {
    kind: e === 'outboundAccountInfo' ? 'account' : 'contractAccount',
    eventTime: reqTime(o, 'E', path),
    canTrade: optBool(o, 'T', path),
    canWithdraw: optBool(o, 'W', path),
    canDeposit: optBool(o, 'D', path),
    updateTime: optTime(o, 'u', path),
    balances: balances(o, path),
  };
}

/** Returns an order report's fields with its kind and side, in one object (a report is read on every fill: no second copy; fields read by name, see wire.ts). */
function reportFields<K extends string, S extends string>(o: WireObject, path: string, kind: K, side: S): ReportFields & { readonly kind: K; readonly side: S } {
  const q = o['q'];
  const p = o['p'];
  const l = o['l'];
  const z = o['z'];
  const L = o['L'];
  const n = o['n'];
  const Z = o['Z'];
  // The usual report's decimals are already normal: checked in one call; otherwise each is read (normalised, or named in the error).
  const normal = allNormalDecimals(q, p, l, z, L, n, Z);
  return {
    kind,
    side,
    eventTime: reqTime(o, 'E', path, o['E']),
    symbol: reqString(o, 's', path, o['s']),
    clientOrderId: reqId(o, 'c', path, o['c']),
    orderType: reqString(o, 'o', path, o['o']),
    timeInForce: reqString(o, 'f', path, o['f']),
    quantity: normal ? q as string : reqDecimal(o, 'q', path, q),
    price: normal ? p as string : reqDecimal(o, 'p', path, p),
    status: reqEnum(o, 'X', path, SPOT_ORDER_STATUSES, o['X']),
    orderId: reqId(o, 'i', path, o['i']),
    lastQty: normal ? l as string : reqDecimal(o, 'l', path, l),
    cumQty: normal ? z as string : reqDecimal(o, 'z', path, z),
    lastPrice: normal ? L as string : reqDecimal(o, 'L', path, L),
    commission: normal ? n as string : reqDecimal(o, 'n', path, n),
    commissionAsset: optString(o, 'N', path, o['N']),
    isWorking: reqBool(o, 'w', path, o['w']),
    isMaker: reqBool(o, 'm', path, o['m']),
    orderCreationTime: reqTime(o, 'O', path, o['O']),
    cumQuote: normal ? Z as string : reqDecimal(o, 'Z', path, Z),
    executionType: optEnum(o, 'x', path, EXECUTION_TYPES, o['x']),
    stopPrice: optDecimal(o, 'P', path, false, o['P']),
    icebergQty: optDecimal(o, 'F', path, false, o['F']),
    rejectReason: optId(o, 'r', path, o['r']),
    transactionTime: optTime(o, 'T', path, o['T']),
    tradeId: optId(o, 't', path, o['t']),
  };
}

/** Returns an executionReport (spot order update). */
export function parseExecutionReport(raw: unknown, path = 'event'): ExecutionReport {
  const o = asObject(raw, path);
  return reportFields(o, path, 'execution', reqEnum(o, 'S', path, SPOT_SIDES, o['S']));
}

const REPORT_SIDES = [...SPOT_SIDES, ...CONTRACT_SIDES] as const;

/** Returns a contractExecutionReport (contract order update). */
export function parseContractExecutionReport(raw: unknown, path = 'event'): ContractExecutionReport {
  const o = asObject(raw, path);
  return Object.assign(reportFields(o, path, 'contractExecution', reqEnum(o, 'S', path, REPORT_SIDES)), {
    isClose: optBool(o, 'C', path),
    // A close order may carry no leverage: the simulated venue sends "" for it.
    leverage: optDecimal(o, 'v', path, true),
  });
}

/** Returns an outboundContractPositionInfo (position update). */
export function parsePositionUpdate(raw: unknown, path = 'event'): PositionUpdate {
  const o = asObject(raw, path);
  return {
    kind: 'position',
    eventTime: optTime(o, 'E', path),
    accountId: reqId(o, 'A', path),
    symbol: reqString(o, 's', path),
    side: reqEnum(o, 'S', path, POSITION_SIDES),
    avgPrice: reqDecimal(o, 'p', path),
    position: reqDecimal(o, 'P', path),
    available: reqDecimal(o, 'a', path),
    flp: reqDecimal(o, 'f', path),
    margin: reqDecimal(o, 'm', path),
    realizedPnL: reqDecimal(o, 'r', path),
  };
}

/** Returns one user-stream event; unknown event types come back as `{kind: 'unknown'}` rather than failing. */
export function parseUserStreamEvent(raw: unknown, path = 'event'): UserStreamEvent {
  const o = asObject(raw, path);
  if (o['e'] === undefined) {
    if (o['ping'] !== undefined) return { kind: 'ping', at: reqTime(o, 'ping', path) };
    if (o['pong'] !== undefined) return { kind: 'pong', at: reqTime(o, 'pong', path) };
  }
  const e = reqString(o, 'e', path);
  switch (e) {
    case 'outboundAccountInfo':
    case 'outboundContractAccountInfo':
      return parseAccountUpdate(o, path);
    case 'executionReport':
      return parseExecutionReport(o, path);
    case 'contractExecutionReport':
      return parseContractExecutionReport(o, path);
    case 'outboundContractPositionInfo':
      return parsePositionUpdate(o, path);
    case 'ticketInfo':
      return { kind: 'ticket', eventTime: optTime(o, 'E', path), fields: o };
    default:
      return { kind: 'unknown', e, fields: o };
  }
}

/** Returns the events of one user-stream frame: a frame carries one event, an array of events, or a heartbeat. */
export function parseUserStreamFrame(raw: unknown, path = 'frame'): readonly UserStreamEvent[] {
  if (Array.isArray(raw)) return listOf(raw, path, parseUserStreamEvent);
  return [parseUserStreamEvent(raw, path)];
}

/** Returns true for an event that moves an order (spot or contract execution report). */
export function isOrderReport(ev: UserStreamEvent): ev is ExecutionReport | ContractExecutionReport {
  return ev.kind === 'execution' || ev.kind === 'contractExecution';
}

/** Venue error codes: one table taken from venue-errors.md, and the typed errors each code becomes. */
import { BhError, VenueError, type ErrorOptions, type RetryClass } from '../core/errors.ts';

/** How a venue code is to be treated by a caller. */
export type VenueErrorKind = 'success' | 'definite' | 'auth' | 'rate-limit' | 'unknown';

/** One row of the catalogue: code, enum name and the message the venue sends (`%s` where it fills in values). */
export interface VenueCodeInfo {
  code: number;
  name: string;
  msg: string;
  kind: VenueErrorKind;
  /** Other enum names the venue defines for the same code (venue-errors.md notes -1181, -1182, -1187 twice). */
  aliases: string[];
  /** 'rest' for the main catalogue, 'quote' for the market server's codes, which its REST endpoints also return. */
  source: 'rest' | 'quote';
}

/** venue-errors.md, "Codes and messages the venue sends", row by row. */
const REST_ROWS: ReadonlyArray<readonly [number, string, string]> = [
  [0, 'SUCCESS', "success"],
  [-1000, 'UNKNOWN', "An unknown error occured while processing the request."],
  [-1001, 'DISCONNECTED', "Internal error."],
  [-1002, 'UNAUTHORIZED', "You are not authorized to execute this request"],
  [-1003, 'TOO_MANY_REQUESTS', "Too many requests, current limit is %s requests per %s ."],
  [-1004, 'BAD_REQUEST', "Bad request"],
  [-1005, 'NO_PERMISSION', "No Permission"],
  [-1006, 'UNEXPECTED_RESP', "Execution status unknown."],
  [-1007, 'TIMEOUT', "Timeout waiting for response from backend server."],
  [-1014, 'UNKNOWN_ORDER_COMPOSITION', "Unsupported order combination."],
  [-1015, 'TOO_MANY_ORDERS', "Too many new orders; current limit is %s orders per %s."],
  [-1016, 'SERVICE_SHUTTING_DOWN', "This service is no longer available."],
  [-1020, 'UNSUPPORTED_OPERATION', "This operation is not supported."],
  [-1021, 'INVALID_TIMESTAMP', "Timestamp for this request is outside of the recvWindow."],
  [-1022, 'INVALID_SIGNATURE', "Signature for this request is not valid."],
  [-1023, 'BIND_IP_WHITE_LIST_FIRST', "Please set IP whitelist before using API"],
  [-1030, 'ERR_UPSTREAM_BUSINESS', "Business error."],
  [-1031, 'FEATURE_SUSPENDED', "The feature has been suspended"],
  [-1100, 'ILLEGAL_CHARS', "Illegal characters found in parameter '%s'; legal range is '%s'."],
  [-1101, 'TOO_MANY_PARAMETERS', "Too many parameters sent for this endpoint."],
  [-1102, 'MANDATORY_PARAM_EMPTY_OR_MALFORMED', "Mandatory parameter '%s' was not sent, was empty/null, or malformed."],
  [-1103, 'UNKNOWN_PARAM', "An unknown parameter was sent."],
  [-1104, 'UNREAD_PARAMETERS', "Not all sent parameters were read."],
  [-1105, 'PARAM_EMPTY', "Parameter '%s' was empty."],
  [-1106, 'PARAM_NOT_REQUIRED', "Parameter '%s' sent when not required."],
  [-1111, 'BAD_PRECISION', "Precision is over the maximum defined for this asset."],
  [-1112, 'NO_DEPTH', "No orders on book for symbol."],
  [-1114, 'TIF_NOT_REQUIRED', "TimeInForce parameter sent when not required."],
  [-1115, 'INVALID_TIF', "Invalid timeInForce."],
  [-1116, 'INVALID_ORDER_TYPE', "Invalid orderType."],
  [-1117, 'INVALID_SIDE', "Invalid side."],
  [-1118, 'EMPTY_NEW_CL_ORDID', "New client order ID was empty."],
  [-1119, 'EMPTY_ORG_CL_ORDID', "Original client order ID was empty."],
  [-1120, 'BAD_INTERVAL', "Invalid interval."],
  [-1121, 'BAD_SYMBOL', "Invalid symbol."],
  [-1125, 'INVALID_LISTEN_KEY', "This listenKey does not exist."],
  [-1127, 'MORE_THAN_XX_HOURS', "Lookup interval is too big."],
  [-1128, 'OPTIONAL_PARAMS_BAD_COMBO', "Combination of optional parameters invalid."],
  [-1130, 'INVALID_PARAMETER', "Data sent for paramter '%s' is not valid."],
  [-1131, 'INSUFFICIENT_BALANCE', "Balance insufficient "],
  [-1132, 'ORDER_PRICE_TOO_HIGH', "Order price too high."],
  [-1133, 'ORDER_PRICE_TOO_SMALL', "Order price lower than the minimum."],
  [-1134, 'ORDER_PRICE_PRECISION_TOO_LONG', "Order price decimal too long."],
  [-1135, 'ORDER_QUANTITY_TOO_BIG', "Order quantity too large."],
  [-1136, 'ORDER_QUANTITY_TOO_SMALL', "Order quantity lower than the minimum."],
  [-1137, 'ORDER_QUANTITY_PRECISION_TOO_LONG', "Order volume decimal too long"],
  [-1138, 'ORDER_PRICE_WAVE_EXCEED', "Order price exceeds permissible range."],
  [-1139, 'ORDER_HAS_FILLED', "Order has been filled."],
  [-1140, 'ORDER_AMOUNT_TOO_SMALL', "Transaction amount lower than the minimum."],
  [-1141, 'DUPLICATED_ORDER', "Duplicate clientOrderId"],
  [-1142, 'ORDER_CANCELLED', "Order has been canceled"],
  [-1143, 'ORDER_NOT_FOUND_ON_ORDER_BOOK', "Cannot be found on order book"],
  [-1144, 'ORDER_LOCKED', "Order has been locked"],
  [-1145, 'UNSUPPORTED_ORDER_TYPE_UNSUPPORTED_CANCEL', "This order type does not support cancellation"],
  [-1146, 'CREATE_ORDER_TIMEOUT', "Order creation timeout"],
  [-1147, 'CANCEL_ORDER_TIMEOUT', "Order cancellation timeout"],
  [-1148, 'ORDER_AMOUNT_PRECISION_TOO_LONG', "Market order amount decimal too long"],
  [-1149, 'CREATE_ORDER_FAILED', "Create order failed"],
  [-1150, 'CANCEL_ORDER_FAILED', "Cancel order failed"],
  [-1151, 'SYMBOL_PROHIBIT_ORDER', "The trading pair is not open yet"],
  [-1152, 'COMING_SOON', "Coming soon"],
  [-1153, 'USER_NOT_EXIST', "User not exist"],
  [-1154, 'INVALID_PRICE_TYPE', "Invalid price type"],
  [-1155, 'INVALID_POSITION_SIDE', "Invalid position side"],
  [-1156, 'ORDER_QUANTITY_INVALID', "Order quantity invalid"],
  [-1157, 'SYMBOL_API_TRADING_NOT_AVAILABLE', "The trading pair is not available for api trading"],
  [-1158, 'CREATE_LIMIT_MAKER_ORDER_FAILED', "create limit maker order failed"],
  [-1160, 'ERROR_MODIFY_MARGIN', "Modify futures margin error"],
  [-1161, 'REDUCE_MARGIN_FORBIDDEN', "Reduce margin forbidden"],
  [-1170, 'FINANCE_ACCOUNT_EXIST', "finance account exist."],
  [-1171, 'ACCOUNT_NOT_EXIST', "account not exist."],
  [-1172, 'BALANCE_TRANSFER_FAILED', "Balance transfer failed."],
  [-1173, 'WITHDRAW_ADDRESS_ILLEGAL', "Withdraw address illegal."],
  [-1174, 'REPEATED_SUBMIT_REQUEST', "Repeated submit request."],
  [-1175, 'UNSUPPORTED_CONTRACT_ADDRESS', "Not support contract address."],
  [-1176, 'WITHDRAW_FAILED', "Withdraw failed, maybe occurred a error."],
  [-1177, 'WITHDRAW_AMOUNT_CANNOT_BE_NULL', "Withdrawal amount cannot be null"],
  [-1178, 'WITHDRAW_AMOUNT_MAX_LIMIT', "Withdraw amount exceeds the daily limit"],
  [-1179, 'WITHDRAW_AMOUNT_MIN_LIMIT', "Withdraw amount less than the min withdraw amount limit"],
  [-1180, 'WITHDRAW_AMOUNT_ILLEGAL', "Withdrawal amount illegal"],
  [-1181, 'WITHDRAW_NOT_ALLOW', "Currently not allowed to withdraw."],
  [-1182, 'DEPOSIT_NOT_ALLOW', "Currently not allowed to deposit."],
  [-1187, 'WITHDRAW_ADDRESS_NOT_IN_WHITELIST', "Withdrawal address not in whitelist"],
  [-1181, 'THIRD_USER_EXIST', "Third user exist"],
  [-1182, 'THIRD_TOKEN_EXIST', "Third token exist"],
  [-1183, 'BIND_THIRD_USER_ERROR', "Bind third user error"],
  [-1184, 'GET_THIRD_TOKEN_ERROR', "GET third token error"],
  [-1185, 'NO_PERMISSION_TO_CREATE_VIRTUAL_ACCOUNT', "No permission to create a virtual account"],
  [-1186, 'THIRD_USER_NOT_EXIST', "Third user not exist"],
  [-1187, 'ERROR_BUSINESS_SUBJECT', "error business subject"],
  [-2010, 'NEW_ORDER_REJECTED', "New order rejected."],
  [-2011, 'CANCEL_REJECTED', "CANCEL_REJECTED"],
  [-2013, 'NO_SUCH_ORDER', "Order does not exist."],
  [-2014, 'BAD_API_KEY_FMT', "API-key format invalid."],
  [-2015, 'REJECTED_MBX_KEY', "Invalid API-key, IP, or permissions for action."],
  [-2016, 'NO_TRADING_WINDOW', "No trading window could be found for the symbol. Try ticker/24hrs instead."],
  [-3000, 'OPTION_NOT_EXIST', "Option not exist."],
  [-3001, 'OPTION_HAS_EXPIRED', "The option has expired."],
  [-3002, 'OPTION_ORDER_POSITION_LIMIT', " Order failed: position exceeded limit"],
  [-3050, 'CREATE_API_KEY_EXCEED_LIMIT', "The ApiKey corresponding to the account already exists"],
  [-3101, 'OPEN_MARGIN_ACCOUNT_ERROR', "open margin account error"],
  [-3102, 'GET_MARGIN_SAFETY_ERROR', "get margin safety error"],
  [-3103, 'RISK_IS_NOT_EXIT', "risk config is not exit"],
  [-3104, 'GET_LOANABLE_ERROR', "get loanable error"],
  [-3105, 'MARGIN_TOKEN_NOT_BORROW', "token can not borrow"],
  [-3106, 'GET_LOAN_POSITION_ERROR', "get loan position error"],
  [-3107, 'MARGIN_TOKEN_NOT_WITHDRAW', "token can not withdraw"],
  [-3108, 'GET_AVAIL_WITHDRAW_ERROR', "get token avail withdraw error"],
  [-3109, 'MARGIN_WITHDRAW_ERROR', "margin withdraw failed"],
  [-3110, 'MARGIN_AVAIL_WITHDRAW_NOT_ENOUGH_FAILED', "margin avail withdraw not enough failed"],
  [-3111, 'MARGIN_LOAN_AMOUNT_TOO_BIG_OR_SMALL', "loan amount is too big or small"],
  [-3112, 'MARGIN_LOAN_AMOUNT_PRECISION_TOO_LONG', "loan amount precision is too long"],
  [-3113, 'LOAN_ERROR', "loan fail"],
  [-3114, 'MARGIN_LOAN_ORDER_NOT_EXIST', "loan order not exist"],
  [-3115, 'MARGIN_LOAN_REPAY_AMOUNT_IS_SMALL', "repay amount is small"],
  [-3116, 'REPAY_ERROR', "repay fail"],
  [-3117, 'GET_MARGIN_ALL_POSITION_ERROR', "get margin all position fail"],
  [-3118, 'GET_LOAN_ORDER_ERROR', "get loan order fail"],
  [-3119, 'LOAN_ORDER_NOT_EXIT', "loan order is not exit"],
  [-3120, 'GET_REPAY_ORDER_ERROR', "get repay order fail"],
  [-3121, 'OTC_THIRD_PARTY_ORDER_NOT_EXIT', "third party order is not exit"],
  [-3122, 'OTC_THIRD_PARTY_ADDRESS_ILLEGAL', "transfer wallet address illegal"],
  [-3123, 'OTC_THIRD_PARTY_TRANSFER_AMOUNT_ILLEGAL', "transfer token amount illegal"],
];

/** venue-errors.md, "Market WebSocket error codes": the quote server also answers REST requests with these (e.g. -100012). */
const QUOTE_ROWS: ReadonlyArray<readonly [number, string, string]> = [
  [0, 'SUCCESS', "Success"],
  [0, 'OK', "Success"],
  [200, 'WEB_SUCCESS', "Success"],
  [400, 'CLIENT_CONNECTION_RESET', "Connection reset!"],
  [-9999, 'SYSTEM_ERROR', "Server Error"],
  [-10000, 'INVALID_REQUEST', "Invalid request!"],
  [-10001, 'JSON_FORMAT_ERROR', "Invalid JSON!"],
  [-10002, 'INVALID_EVENT', "Invalid event!"],
  [-10003, 'REQUIRED_EVENT', "Event required!"],
  [-10004, 'INVALID_TOPIC', "Invalid topic!"],
  [-10005, 'REQUIRED_TOPIC', "Topic required!"],
  [-10007, 'PARAM_EMPTY', "Params required!"],
  [-10008, 'PERIOD_EMPTY', "Period required!"],
  [-10009, 'PERIOD_ERROR', "Invalid period!"],
  [-100010, 'SYMBOLS_ERROR', "Invalid Symbols!"],
  [-100011, 'SYMBOLS_NOT_SUPPORT', "Not supported symbols"],
  [-100012, 'BROKER_NOT_SUPPORT', "There is no such broker."],
  [-100013, 'DUMP_SCALE_REQUIRED', "DumpScale required!"],
  [-100001, 'EXCHANGE_ID_ERROR', "Invalid exchangeId!"],
  [-100002, 'PARAM_TYPE_ERROR', "Param %s should be %s."],
  [-100003, 'SYMBOL_REQUIRED', "Symbol required!"],
  [-100004, 'TIME_OUT', "Timeout. Retry later."],
  [-100005, 'NO_BUSINESS_WITH_EXCHANGE', "No business with any exchange."],
  [-100006, 'RESPONSE_COMMITTED', "Client disconnected."],
  [-100007, 'ORG_ID_REQUIRED', "OrgId required."],
  [-100008, 'ORG_ID_INVALID', "OrgId must be a number."],
  [-100009, 'DUMP_SCALE_ERROR', "DumpScale error."],
  [-100010, 'INDEX_NAME_ERROR', "Index name error."],
  [-100011, 'PARAM_ERROR', "Parameter error!"],
  [-100012, 'PARAM_REQUIRED', "Parameter %s [%s] missing!"],
];

const AUTH_CODES = new Set([-1002, -1005, -1022, -1023, -2014, -2015]);
const RATE_LIMIT_CODES = new Set([-1003, -1015]);
/** The venue itself says the execution status is unknown for these. */
const UNKNOWN_CODES = new Set([-1006, -1007, -1146, -1147]);

function kindOf(code: number): VenueErrorKind {
  if (code === 0) return 'success';
  if (AUTH_CODES.has(code)) return 'auth';
  if (RATE_LIMIT_CODES.has(code)) return 'rate-limit';
  if (UNKNOWN_CODES.has(code)) return 'unknown';
  return 'definite';
}

function buildTable(): Map<number, VenueCodeInfo> {
  const table = new Map<number, VenueCodeInfo>();
  const add = (rows: ReadonlyArray<readonly [number, string, string]>, source: 'rest' | 'quote'): void => {
    for (const [code, name, msg] of rows) {
      const seen = table.get(code);
      if (seen) {
        seen.aliases.push(name);
        continue;
      }
      table.set(code, { code, name, msg, kind: kindOf(code), aliases: [], source });
    }
  };
  add(REST_ROWS, 'rest');
  add(QUOTE_ROWS, 'quote');
  return table;
}

/** Every code of venue-errors.md, keyed by code; the first name listed for a code wins, later ones are aliases. */
export const VENUE_CODES: ReadonlyMap<number, VenueCodeInfo> = buildTable();

/** Returns the catalogue row for `code`, or undefined for a code venue-errors.md does not list. */
export function venueCodeInfo(code: number): VenueCodeInfo | undefined {
  return VENUE_CODES.get(code);
}

/** Returns the venue code for an enum name such as 'INVALID_TIMESTAMP' (the first code listing it). */
export function codeOf(name: string): number {
  for (const info of VENUE_CODES.values()) if (info.name === name || info.aliases.includes(name)) return info.code;
  throw new Error(`venue error name: not in venue-errors.md: ${name}`);
}

/** The venue definitely refused the request: nothing happened. */
export class VenueRejectedError extends VenueError {}

/** Key, signature, IP or permission problem: fix the configuration. */
export class VenueAuthError extends VenueError {}

/** HTTP 429 or a rate-limit code: wait `retryAfterMs` (0 when the venue did not say), then retry. */
export class VenueRateLimitError extends VenueError {
  readonly retryAfterMs: number;

  constructor(code: string, venueCode: number, message: string, httpStatus: number | undefined, retryAfterMs: number, opts: ErrorOptions = {}) {
    super(code, venueCode, message, 'rate-limit', httpStatus, { ...opts, context: { retryAfterMs, ...opts.context } });
    this.retryAfterMs = retryAfterMs;
  }
}

/** The venue says the execution status is unknown (-1006, -1007, -1146, -1147): settle by reconciliation. */
export class VenueUnknownStatusError extends VenueError {}

/** A 5xx answer to a read: nothing changed on the venue, so the read may be repeated. */
export class VenueServerError extends VenueError {}

/** The venue answered with something that is not the JSON it should be (an empty or cut body, HTML, bad JSON). */
export class MalformedResponseError extends BhError {
  readonly httpStatus: number;

  constructor(message: string, httpStatus: number, retry: RetryClass, opts: ErrorOptions = {}) {
    super('VENUE_MALFORMED_RESPONSE', message, retry, { ...opts, context: { httpStatus, ...opts.context } });
    this.httpStatus = httpStatus;
  }
}

/** What the caller learns about the answer besides code and msg. */
export interface VenueAnswerMeta {
  httpStatus?: number;
  retryAfterMs?: number;
  context?: Record<string, unknown>;
}

/** Returns the typed error for a venue `{code, msg}`; the msg and HTTP status are kept as sent. */
export function venueErrorFor(venueCode: number, msg: string, meta: VenueAnswerMeta = {}): VenueError {
  const info = VENUE_CODES.get(venueCode);
  const code = `VENUE_${info?.name ?? 'UNLISTED'}`;
  const message = `venue ${venueCode}: ${msg}`;
  const opts: ErrorOptions = { context: { msg, ...meta.context } };
  const kind = info?.kind ?? 'definite';
  switch (kind) {
    case 'auth':
      return new VenueAuthError(code, venueCode, message, 'auth', meta.httpStatus, opts);
    case 'rate-limit':
      return new VenueRateLimitError(code, venueCode, message, meta.httpStatus, meta.retryAfterMs ?? 0, opts);
    case 'unknown':
      return new VenueUnknownStatusError(code, venueCode, message, 'unknown', meta.httpStatus, opts);
    case 'success':
    case 'definite':
      return new VenueRejectedError(code, venueCode, message, 'definite', meta.httpStatus, opts);
    default: {
      const never: never = kind;
      throw new Error(`venue error kind: ${String(never)}`);
    }
  }
}

/** The venue's error answers on the wire: codes, messages and HTTP statuses of venue-errors.md. */

/** Messages the server sends, by code, as real servers wrote them (`%s` filled by `apiError`). */
export const MESSAGES: Readonly<Record<number, string>> = {
  [-1000]: 'An unknown error occured while processing the request.',
  [-1001]: 'Internal error.',
  [-1002]: 'You are not authorized to execute this request',
  [-1003]: 'Too many requests, current limit is %s requests per %s .',
  [-1004]: 'Bad request',
  [-1005]: 'No Permission',
  [-1006]: 'Execution status unknown.',
  [-1007]: 'Timeout waiting for response from backend server.',
  [-1015]: 'Too many new orders; current limit is %s orders per %s.',
  [-1020]: 'This operation is not supported.',
  [-1021]: 'Timestamp for this request is outside of the recvWindow.',
  [-1022]: 'Signature for this request is not valid.',
  [-1100]: "Illegal characters found in parameter '%s'; legal range is '%s'.",
  [-1101]: 'Too many parameters sent for this endpoint.',
  [-1103]: 'An unknown parameter was sent.',
  [-1105]: "Parameter '%s' was empty.",
  [-1111]: 'Precision is over the maximum defined for this asset.',
  [-1115]: 'Invalid timeInForce.',
  [-1116]: 'Invalid orderType.',
  [-1117]: 'Invalid side.',
  [-1120]: 'Invalid interval.',
  [-1121]: 'Invalid symbol.',
  [-1125]: 'This listenKey does not exist.',
  [-1130]: "Data sent for paramter '%s' is not valid.",
  [-1131]: 'Balance insufficient ',
  [-1154]: 'Invalid price type',
  [-1155]: 'Invalid position side',
  [-2013]: 'Order does not exist.',
  [-2015]: 'Invalid API-key, IP, or permissions for action.',
};

/** An error answer on its way to the wire: `{code, msg}` with the HTTP status and any extra headers. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly status = 400,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(msg);
    this.name = 'ApiError';
  }
}

/** Returns the ApiError for `code` with its catalogue message, `%s` replaced by `args` in order. */
export function apiError(code: number, ...args: (string | number)[]): ApiError {
  let i = 0;
  const msg = (MESSAGES[code] ?? MESSAGES[-1000]!).replace(/%s/g, () => String(args[i++] ?? ''));
  return new ApiError(code, msg, statusOf(code));
}

/** Returns the -1004 answer naming a missing parameter, as real servers wrote it. */
export function missingParam(name: string): ApiError {
  return new ApiError(-1004, `Missing required parameter '${name}'`, 400);
}

/** Returns the HTTP status real servers sent with `code`: 429 for the two rate limits, 500 for -1001, 400 otherwise. */
export function statusOf(code: number): number {
  if (code === -1003 || code === -1015) return 429;
  if (code === -1001) return 500;
  return 400;
}

/**
 * Returns the JSON text of an error body. Gson on real servers escaped `'` as `\u0027`; the server
 * does the same so byte-level clients see what they would see live.
 */
export function errorBody(code: number, msg: string): string {
  return JSON.stringify({ code, msg }).replace(/'/g, '\\u0027');
}

/** The matching engine's refusals: core VenueErrors carrying the venue's codes and messages (venue-errors.md). */
import { VenueError } from '../../core/errors.ts';

/** Messages of the codes the engine raises, as real servers wrote them (`%s` filled in order). */
const MESSAGES: Readonly<Record<number, string>> = {
  [-1000]: 'An unknown error occured while processing the request.',
  [-1105]: "Parameter '%s' was empty.",
  [-1111]: 'Precision is over the maximum defined for this asset.',
  [-1115]: 'Invalid timeInForce.',
  [-1116]: 'Invalid orderType.',
  [-1117]: 'Invalid side.',
  [-1120]: 'Invalid interval.',
  [-1130]: "Data sent for paramter '%s' is not valid.",
  [-1131]: 'Balance insufficient ',
  [-1132]: 'Order price too high.',
  [-1133]: 'Order price lower than the minimum.',
  [-1134]: 'Order price decimal too long.',
  [-1135]: 'Order quantity too large.',
  [-1136]: 'Order quantity lower than the minimum.',
  [-1137]: 'Order volume decimal too long',
  [-1139]: 'Order has been filled.',
  [-1140]: 'Transaction amount lower than the minimum.',
  [-1141]: 'Duplicate clientOrderId',
  [-1142]: 'Order has been canceled',
  [-1148]: 'Market order amount decimal too long',
  [-1149]: 'Create order failed',
  [-1154]: 'Invalid price type',
  [-1155]: 'Invalid position side',
  [-1156]: 'Order quantity invalid',
  [-1158]: 'create limit maker order failed',
  [-2013]: 'Order does not exist.',
};

/**
 * Returns the message the engine sends with `code`, `%s` filled in order by `args` (left as written when
 * none are given), or undefined for a code the engine never raises. The backtest's gateway words its
 * refusals with it, so a backtest and the simulated venue give the same text for the same code.
 */
export function venueMessage(code: number, args: readonly string[] = []): string | undefined {
  const template = MESSAGES[code];
  if (template === undefined || args.length === 0) return template;
  let i = 0;
  return template.replace(/%s/g, () => args[i++] ?? '');
}

/**
 * Returns a definite VenueError for `code` with its message, `%s` filled by `args`, and `context` for logs.
 * A refusal is an answer of the venue, not a bug: it carries no stack trace, because capturing one costs
 * more than matching an order and a refused cancel is common in a busy run.
 */
export function reject(code: number, args: readonly string[] = [], context: Record<string, unknown> = {}): VenueError {
  const msg = venueMessage(code, args) ?? MESSAGES[-1000]!;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new VenueError(`VENUE_${code}`, code, msg, 'definite', 400, { context });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Returns the -1105 error for an empty or zero parameter. */
export function emptyParam(name: string): VenueError {
  return reject(-1105, [name], { field: name });
}

/** Returns the -1130 error for a parameter whose value is not valid, naming the rule it broke. */
export function invalidParam(name: string, rule: string): VenueError {
  return reject(-1130, [name], { field: name, rule });
}

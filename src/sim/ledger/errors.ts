/** The venue's refusals raised by the simulated venue's accounts and contracts, as core VenueErrors with the codes and messages of venue-errors.md. */
import { VenueError } from '../../core/errors.ts';

/** Messages of the codes the accounts and contracts raise (`%s` filled in order by venueError). */
const MESSAGES: Readonly<Record<number, string>> = {
  [-1105]: "Parameter '%s' was empty.",
  [-1130]: "Data sent for paramter '%s' is not valid.",
  [-1131]: 'Balance insufficient ',
  [-1153]: 'User not exist',
  [-1155]: 'Invalid position side',
  [-1156]: 'Order quantity invalid',
  [-1160]: 'Modify futures margin error',
  [-1161]: 'Reduce margin forbidden',
  [-1171]: 'account not exist.',
  [-1172]: 'Balance transfer failed.',
  [-1173]: 'Withdraw address illegal.',
  [-1174]: 'Repeated submit request.',
  [-1177]: 'Withdrawal amount cannot be null',
  [-1180]: 'Withdrawal amount illegal',
  [-1000]: 'An unknown error occured while processing the request.',
};

/** Returns the stable code name the core error carries for a venue code, e.g. "VENUE_-1131". */
function codeName(code: number): string {
  return `VENUE_${code}`;
}

/**
 * Returns a definite VenueError for `code` with the venue's message, `%s` filled by `args`;
 * `context` lands in the error's context so a log line shows the numbers that led to it.
 */
export function venueError(code: number, args: readonly string[] = [], context: Record<string, unknown> = {}): VenueError {
  let i = 0;
  const template = MESSAGES[code] ?? MESSAGES[-1000]!;
  const msg = template.replace(/%s/g, () => args[i++] ?? '');
  return new VenueError(codeName(code), code, msg, 'definite', 400, { context });
}

/** Returns the -1130 error naming `field` ("Data sent for paramter '<field>' is not valid."). */
export function invalidParam(field: string, rule: string, context: Record<string, unknown> = {}): VenueError {
  return venueError(-1130, [field], { field, rule, ...context });
}

/** Returns the -1131 insufficient-balance error with what was needed and what was there. */
export function insufficient(context: Record<string, unknown>): VenueError {
  return venueError(-1131, [], context);
}

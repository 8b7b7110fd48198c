/** Shared setup for ledger tests: a ledger on a virtual clock and helpers that make funded users. */
import { VirtualClock } from '../../../src/core/clock.ts';
import { VenueError } from '../../../src/core/errors.ts';
import { Ledger, toAmount, type LedgerConfig } from '../../../src/sim/ledger/index.ts';

/** Returns a ledger on a virtual clock. */
export function makeLedger(cfg: Partial<LedgerConfig> = {}) {
  const clock = new VirtualClock(1_579_093_587_214);
  const ledger = new Ledger({ clock, ...cfg });
  return { clock, ledger };
}

/** Returns the main token account of a new user with the given deposits. */
export function fundedUser(ledger: Ledger, deposits: Record<string, string>, subAccounts = 0): { userId: string; spot: string } {
  const userId = ledger.createUser({ subAccounts });
  for (const [asset, amount] of Object.entries(deposits)) ledger.deposit(userId, asset, toAmount(amount));
  return { userId, spot: ledger.accountId(userId, 1, 0) };
}

/** Runs `fn`, expects a VenueError with `code`, and returns it. */
export function expectVenueError(fn: () => unknown, code: number): VenueError {
  try {
    fn();
  } catch (e) {
    if (e instanceof VenueError && e.venueCode === code) return e;
    throw new Error(`expected venue code ${code}, got ${e instanceof VenueError ? e.venueCode : String(e)}`);
  }
  throw new Error(`expected venue code ${code}, nothing was thrown`);
}

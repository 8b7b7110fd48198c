/** Routes errors RxJS could not deliver (a throwing subscriber callback, an error nobody handles) to the log of an open bus. */
import { config as rxConfig } from 'rxjs';
import type { Logger } from '../core/logger.ts';

// RxJS catches an error thrown by a subscriber's own `next` (the subscription stays open) and an
// error notification without a handler, then rethrows it from a timer, which would crash the process,
// unless `config.onUnhandledError` is set. That hook is global, so it is installed while at least one
// bus is open (and only if the application has not set its own) and logs to the newest open bus.

const loggers: Logger[] = [];

function logToNewest(err: unknown): void {
  loggers[loggers.length - 1]?.error({ err }, 'bus stream subscriber threw; isolated by RxJS');
}

/** Sends unhandled RxJS errors to `logger` until the returned function is called. */
export function routeRxErrorsTo(logger: Logger): () => void {
  if (loggers.length === 0 && !rxConfig.onUnhandledError) rxConfig.onUnhandledError = logToNewest;
  loggers.push(logger);
  let attached = true;
  return () => {
    if (!attached) return;
    attached = false;
    loggers.splice(loggers.lastIndexOf(logger), 1);
    if (loggers.length === 0 && rxConfig.onUnhandledError === logToNewest) rxConfig.onUnhandledError = null;
  };
}

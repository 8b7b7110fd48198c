/** The pino logger factory: structured logs, pretty on a terminal, JSON otherwise, with secrets redacted. */
import pino, { type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

const SECRET_FIELDS = ['apiKey', 'secret', 'secretKey', 'signature', 'listenKey', 'password'];

/** Paths pino censors: secret fields at the top level and up to two levels down, and the API key header. */
export const REDACT_PATHS: string[] = [
  ...SECRET_FIELDS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]),
  'headers["x-bh-apikey"]',
  '*.headers["x-bh-apikey"]',
];

const SIGNATURE_IN_TEXT = /(signature=)[0-9a-fA-F]{16,}/g;

/** Returns `text` with any `signature=<hex>` replaced, for URLs and query strings that go into logs. */
export function redactText(text: string): string {
  return text.replace(SIGNATURE_IN_TEXT, '$1[Redacted]');
}

export interface LoggerFactoryOptions {
  level?: string;
  pretty?: boolean;
  name?: string;
  destination?: pino.DestinationStream;
  /** Epoch ms stamped on each line (default the wall clock): a backtest stamps its simulated time. */
  time?: () => number;
}

/** Returns a logger with API keys, secrets, listen keys and signatures redacted wherever they appear as fields. */
export function createLogger(opts: LoggerFactoryOptions = {}): Logger {
  const options: LoggerOptions = {
    level: opts.level ?? process.env['BHTRADE_LOG_LEVEL'] ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
    base: opts.name ? { name: opts.name } : {},
    ...(opts.time === undefined ? {} : { timestamp: () => `,"time":${String(opts.time!())}` }),
  };
  if (opts.destination) return pino(options, opts.destination);
  const pretty = opts.pretty ?? Boolean(process.stdout.isTTY);
  if (pretty) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } });
  }
  // Synchronous writes: an async stream can lose or reorder its last lines when the process exits.
  return pino(options, pino.destination({ dest: 1, sync: true }));
}

/** Returns a logger that writes nothing (for tests and benchmarks). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** The recording settings shared by `bhtrade record` and a run config's `record:` section: one zod schema that is also the type. */
import { z } from 'zod';
import { KLINE_INTERVALS } from '../../model/enums.ts';

const PLAIN_TOPICS = ['trade', 'realtimes', 'depth', 'diffDepth', 'mergedDepth', 'index', 'bookTicker'] as const;

/** A market topic the recorder subscribes: trade, realtimes, depth, diffDepth, mergedDepth, index, bookTicker or kline_<interval>. */
export const recordTopic = z.string().refine(
  (t) => (PLAIN_TOPICS as readonly string[]).includes(t) || (t.startsWith('kline_') && (KLINE_INTERVALS as readonly string[]).includes(t.slice(6))),
  `must be one of ${PLAIN_TOPICS.join(', ')} or kline_<interval> (${KLINE_INTERVALS.join(', ')})`,
);

/** The keys every recording has. */
export const recordShape = {
  out: z.string().min(1).default('recordings').describe('folder the capture files are written to (created when missing), relative to the config file'),
  topics: z.array(recordTopic).min(1, 'must list at least one topic').default(['diffDepth', 'trade', 'index'])
    .describe('market topics recorded for every symbol (index: for each contract its index symbol, the mark of a backtest, and each symbol that is an index); diffDepth versions are checked for gaps'),
  rotateBytes: z.number().int().min(4096, 'must be at least 4096 (bytes)').default(64 * 1024 * 1024).describe('a capture file is closed past this many compressed bytes and the next one opened'),
  hourly: z.boolean().default(true).describe('open a new capture file at every UTC hour'),
  snapshotDepth: z.number().int().min(1, 'must be 1 to 100 (levels)').max(100, 'must be 1 to 100 (levels)').default(100).describe('levels of the REST depth snapshot fetched after a gap or reconnect'),
  diffVersions: z.enum(['contiguous', 'increasing']).default('contiguous')
    .describe('contiguous: a diffDepth version that is not the previous one plus one is a gap; increasing: only one that goes back is (a venue that skips numbers)'),
};

/** A run config's `record:` section. */
export const runRecordSchema = z.strictObject({
  ...recordShape,
  symbols: z.array(z.string().min(1)).min(1, 'must list at least one symbol').optional()
    .describe('symbols whose market is recorded (default: every strategy\'s symbols)'),
  orders: z.boolean().default(true).describe('also record the bot\'s order requests, answers (with request and response times) and fills'),
}).describe('records the run\'s market data and the bot\'s own orders: see docs/data.md');

export type RunRecordConfig = z.output<typeof runRecordSchema>;

/** What a MarketRecorder needs from the settings. */
export type RecordSettings = Pick<RunRecordConfig, 'topics' | 'rotateBytes' | 'hourly' | 'snapshotDepth' | 'diffVersions'>;

/** Imports recordings of our venue's market socket (`<ns> <frame>` lines, frames as the venue sent them) into catalog rows. */
import { ParseError } from '../core/errors.ts';
import type { TradeEvent } from '../model/events.ts';
import { parseMarketMessage, type DepthTick, type MarketPush } from '../model/marketstream.ts';
import { asObject, parseWireJson, type WireObject } from '../model/wire.ts';
import { TradeGate } from '../venue/market-normalise.ts';
import type { CatalogWriter } from './catalog.ts';
import { writeDepth } from './depth-rows.ts';
import { toSteps, type Instrument } from './instruments.ts';
import type { RecordedLine } from './lines.ts';
import type { InstrumentMapping } from './mapping.ts';
import { msToNs } from './ns.ts';
import type { ConvertReport } from './report.ts';
import { AGGRESSOR } from './tables.ts';

/** Steps used for a symbol the mapping does not name: every decimal of up to 8 places is a whole number of them. */
const FALLBACK_STEP = '0.00000001';

/** Splits our venue's book version `<sequence>_<suffix>` into its integer sequence and its suffix. */
export function splitVersion(version: string): { sequence: bigint; suffix: string } {
  const us = version.indexOf('_');
  const head = us < 0 ? version : version.slice(0, us);
  if (!/^\d{1,19}$/.test(head)) throw new ParseError('version', `must start with an integer sequence, got ${JSON.stringify(version)}`);
  return { sequence: BigInt(head), suffix: us < 0 ? '' : version.slice(us + 1) };
}

/** The metadata key of a book_deltas file holding the version suffix of its symbol's book. */
export const VERSION_SUFFIX_KEY = 'bhtrade.versionSuffix';

/** State carried across the files of one conversion: the trade cursor per symbol and the instruments seen. */
export class BhtradeImporter {
  private readonly trades: TradeGate;
  private readonly pending: TradeEvent[] = [];
  private readonly suffixes = new Map<string, string>();

  constructor(private readonly cat: CatalogWriter, private readonly mapping: InstrumentMapping, private readonly report: ConvertReport) {
    // The live client's trade gate: trades are kept once each, and a subscription's first snapshot only sets the cursor.
    this.trades = new TradeGate((ev) => this.pending.push(ev as TradeEvent), false);
  }

  /** Imports one recorded frame of `file`; a bad frame is reported with its line and skipped. */
  line(file: string, l: RecordedLine): void {
    let raw: unknown;
    try {
      raw = parseWireJson(l.frame);
    } catch (e) {
      this.report.problem(file, l.line, `not a JSON frame (${(e as Error).message}); skipped`);
      return;
    }
    try {
      const o = asObject(raw, 'frame');
      if (o['code'] !== undefined && (o['code'] === '0' || o['code'] === 0)) {
        this.report.count('bhtrade acknowledgements');
        return;
      }
      const m = parseMarketMessage(o, 'frame');
      switch (m.kind) {
        case 'error':
        case 'ping':
        case 'pong':
          this.report.count(`bhtrade ${m.kind} frames`);
          return;
        default:
          this.push(file, l, m);
      }
    } catch (e) {
      this.report.problem(file, l.line, `${(e as Error).message}; skipped`);
    }
  }

  private inst(file: string, symbol: string): Instrument {
    const known = this.cat.instrumentOf(symbol);
    if (known) return known;
    const mapped = this.mapping.find(file, symbol);
    const inst: Instrument = mapped ?? {
      symbol, kind: 'spot', tick: FALLBACK_STEP, lot: FALLBACK_STEP, multiplier: '1', base: symbol, quote: symbol, margin: symbol, contiguousVersions: true,
    };
    if (!mapped) this.report.problem(file, 0, `no instrument mapping for ${symbol}: prices and quantities are stored in steps of ${FALLBACK_STEP}`);
    this.cat.instrument(inst);
    return inst;
  }

  private push(file: string, l: RecordedLine, m: MarketPush): void {
    switch (m.kind) {
      case 'trade': {
        const inst = this.inst(file, m.symbol);
        this.trades.push(m.symbol, m.data, m.first, 0);
        for (const t of this.pending.splice(0)) {
          const id = t.tradeId;
          if (!/^\d{1,19}$/.test(id)) throw new ParseError('frame.data.v', `must be an integer trade id, got ${JSON.stringify(id)}`);
          this.cat.row('trades', inst.symbol, [
            msToNs(t.ts), l.ns, toSteps(t.price, inst.tick, 'price'), toSteps(t.qty, inst.lot, 'quantity'),
            t.takerSide === 'BUY' ? AGGRESSOR.BUY : AGGRESSOR.SELL, BigInt(id),
          ]);
        }
        this.report.count('bhtrade trade pushes');
        return;
      }
      case 'diffDepth':
        for (const d of m.data) this.depth(file, l, m.symbol, d, m.first);
        this.report.count('bhtrade diffDepth pushes');
        return;
      case 'kline': {
        const inst = this.inst(file, m.symbol);
        for (const k of m.data) {
          this.cat.row('klines', inst.symbol, [
            msToNs(k.time), l.ns, m.interval, msToNs(k.time), toSteps(k.open, inst.tick, 'open'), toSteps(k.high, inst.tick, 'high'),
            toSteps(k.low, inst.tick, 'low'), toSteps(k.close, inst.tick, 'close'), toSteps(k.volume, inst.lot, 'volume'), 0,
          ]);
        }
        return;
      }
      case 'realtimes':
        for (const r of m.data) {
          const inst = this.inst(file, r.symbol);
          this.cat.row('tickers', inst.symbol, [
            msToNs(r.time), l.ns, toSteps(r.close, inst.tick, 'close'), toSteps(r.open, inst.tick, 'open'), toSteps(r.high, inst.tick, 'high'),
            toSteps(r.low, inst.tick, 'low'), toSteps(r.volume, inst.lot, 'volume'), r.quoteVolume,
          ]);
        }
        return;
      case 'index':
        for (const x of m.data) {
          const inst = this.inst(file, x.symbol);
          this.cat.row('index', inst.symbol, [l.ns, l.ns, x.index, x.edp]);
        }
        return;
      case 'depth':
      case 'mergedDepth':
      case 'bookTicker':
      case 'unknown':
        // Whole-book views and top-of-book are derived from the diffs on replay; they are counted, not stored.
        this.report.count(`bhtrade ${m.kind === 'unknown' ? m.topic : m.kind} pushes ignored`);
        return;
      default: {
        const never: never = m;
        throw new ParseError('frame.topic', `is not handled: ${JSON.stringify((never as WireObject)['kind'])}`);
      }
    }
  }

  private depth(file: string, l: RecordedLine, symbol: string, d: DepthTick, first: boolean): void {
    const inst = this.inst(file, symbol);
    const { sequence, suffix } = splitVersion(d.version);
    const known = this.suffixes.get(inst.symbol);
    if (known !== undefined && known !== suffix) {
      this.report.problem(file, l.line, `the book version suffix of ${inst.symbol} changed from "${known}" to "${suffix}" (a new book): later versions keep the first suffix`);
    }
    if (known === undefined) this.suffixes.set(inst.symbol, suffix);
    writeDepth(this.cat, inst, { tsEvent: msToNs(d.time), tsLocal: l.ns, sequence, snapshot: first, gap: false, bids: d.bids, asks: d.asks }, { [VERSION_SUFFIX_KEY]: known ?? suffix });
  }
}

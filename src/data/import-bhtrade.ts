/** Imports recordings of our venue's market socket (`<ns> <frame>` lines, frames as the venue sent them) into catalog rows. */
import { ParseError } from '../core/errors.ts';
import type { TradeEvent } from '../model/events.ts';
import { parseMarketMessage, type DepthTick, type MarketPush } from '../model/marketstream.ts';
import { parseBrokerInfo } from '../model/instrument.ts';
import { parseDepth } from '../model/market.ts';
import { asObject, parseWireJson, reqString, type WireObject } from '../model/wire.ts';
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
  /** Instruments the recording's own brokerInfo line lists (used where the mapping names none). */
  private readonly listed = new Map<string, Instrument>();
  /** Symbols whose next depth message follows a recorded gap or reconnect. */
  private readonly gapped = new Set<string>();
  /** The last diff sequence of each symbol, to find diffs lost where the recorder could not mark them (a damaged member). */
  private readonly lastSequence = new Map<string, bigint>();
  /** A version gap found in a diff, listed unless the recorder's own !gap line for it follows (it comes right after that diff). */
  private readonly unmarked = new Map<string, { atNs: string; reason: string }>();

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

  /**
   * Reads one of the recorder's own lines, `<ns> !<marker> <json>`: the session, the venue's brokerInfo
   * (the instruments), a reconnect or a version gap (the books are out of step until a snapshot), a REST snapshot.
   */
  marker(file: string, l: RecordedLine): void {
    const sp = l.frame.indexOf(' ');
    const kind = l.frame.slice(1, sp < 0 ? undefined : sp);
    const payload = sp < 0 ? '' : l.frame.slice(sp + 1);
    try {
      switch (kind) {
        case 'session':
          this.report.count('bhtrade sessions');
          return;
        case 'instruments':
          for (const inst of instrumentsOf(parseWireJson(payload))) this.listed.set(inst.symbol, inst);
          return;
        case 'reconnect':
          for (const symbol of this.suffixes.keys()) this.markGap(file, l, symbol, 'the market socket reconnected: frames in between were not received');
          return;
        case 'gap': {
          const symbol = reqString(asObject(parseWireJson(payload), 'gap'), 'symbol', 'gap');
          this.markGap(file, l, symbol, `the recorder found a version gap: ${payload.slice(0, 200)}`);
          return;
        }
        case 'snapshot':
          this.restSnapshot(file, l, asObject(parseWireJson(payload), 'snapshot'));
          return;
        default:
          this.report.problem(file, l.line, `unknown recorder marker !${kind.slice(0, 24)}; skipped`);
      }
    } catch (e) {
      this.report.problem(file, l.line, `recorder marker !${kind}: ${(e as Error).message}; skipped`);
    }
  }

  /** Lists the version gaps found in the diffs that no recorder line marked; call once after the last input. */
  finish(): void {
    for (const symbol of [...this.unmarked.keys()]) this.listUnmarked(symbol);
  }

  private listUnmarked(symbol: string): void {
    const g = this.unmarked.get(symbol);
    if (g === undefined) return;
    this.unmarked.delete(symbol);
    this.report.gap({ symbol, ...g });
    this.report.count('bhtrade version gaps found in the diffs');
  }

  private markGap(file: string, l: RecordedLine, symbol: string, reason: string): void {
    this.unmarked.delete(symbol);
    this.gapped.add(symbol);
    this.report.gap({ symbol, atNs: l.ns.toString(), reason });
    this.report.count('bhtrade recorded gaps');
  }

  private restSnapshot(file: string, l: RecordedLine, o: WireObject): void {
    const symbol = reqString(o, 'symbol', 'snapshot');
    if (o['status'] !== 200) {
      this.report.problem(file, l.line, `the REST snapshot of ${symbol} failed with status ${String(o['status'])}; skipped`);
      return;
    }
    const d = parseDepth(o['body'], 'snapshot.body');
    const inst = this.inst(file, symbol);
    const time = d.time === undefined ? l.ns : msToNs(d.time);
    this.listUnmarked(symbol);
    writeDepth(this.cat, inst, { tsEvent: time, tsLocal: l.ns, sequence: 0n, snapshot: true, rest: true, gap: false, bids: d.bids, asks: d.asks });
    this.gapped.delete(symbol);
    this.lastSequence.delete(symbol);
    this.report.count('bhtrade REST snapshots');
  }

  private inst(file: string, symbol: string): Instrument {
    const known = this.cat.instrumentOf(symbol);
    if (known) return known;
    const mapped = this.mapping.find(file, symbol) ?? this.listed.get(symbol);
    const inst: Instrument = mapped ?? {
      symbol, kind: 'spot', tick: FALLBACK_STEP, lot: FALLBACK_STEP, multiplier: '1', base: symbol, quote: symbol, margin: symbol, contiguousVersions: true,
    };
    if (!mapped) this.report.problem(file, 0, `no instrument mapping for ${symbol} and no brokerInfo line lists it: prices and quantities are stored in steps of ${FALLBACK_STEP}`);
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
        this.report.count('bhtrade kline pushes');
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
        this.report.count('bhtrade realtimes pushes');
        return;
      case 'index':
        for (const x of m.data) {
          const inst = this.inst(file, x.symbol);
          this.cat.row('index', inst.symbol, [l.ns, l.ns, x.index, x.edp]);
        }
        this.report.count('bhtrade index pushes');
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
    this.listUnmarked(inst.symbol);
    const prev = this.lastSequence.get(inst.symbol);
    this.lastSequence.set(inst.symbol, sequence);
    const lost = !first && inst.contiguousVersions === true && prev !== undefined && sequence !== prev + 1n;
    if (lost) this.unmarked.set(inst.symbol, { atNs: l.ns.toString(), reason: `version gap: ${prev + 1n} expected, ${sequence} came (line ${l.line} of ${file})` });
    // A version jump is not flagged on the row: the replayed book finds it in the versions, as live.
    const gap = this.gapped.delete(inst.symbol) && !first;
    writeDepth(this.cat, inst, { tsEvent: msToNs(d.time), tsLocal: l.ns, sequence, snapshot: first, gap, bids: d.bids, asks: d.asks }, { [VERSION_SUFFIX_KEY]: known ?? suffix });
  }
}

/** Returns the instruments of a brokerInfo answer: steps from PRICE_FILTER and LOT_SIZE, else from the precisions. */
export function instrumentsOf(raw: unknown): Instrument[] {
  const info = parseBrokerInfo(raw, 'instruments');
  const out: Instrument[] = [];
  const step = (filters: readonly { filterType: string }[], type: 'PRICE_FILTER' | 'LOT_SIZE'): string | undefined => {
    const f = filters.find((x) => x.filterType === type) as { tickSize?: string; stepSize?: string } | undefined;
    return type === 'PRICE_FILTER' ? f?.tickSize : f?.stepSize;
  };
  for (const s of info.symbols) {
    out.push({
      symbol: s.symbol, kind: 'spot', tick: step(s.filters, 'PRICE_FILTER') ?? s.quotePrecision, lot: step(s.filters, 'LOT_SIZE') ?? s.baseAssetPrecision,
      multiplier: '1', base: s.baseAsset, quote: s.quoteAsset, margin: s.quoteAsset, contiguousVersions: true,
    });
  }
  for (const c of info.contracts) {
    // A contract's baseAsset is its own symbol on this venue: the underlying names the asset it is on.
    out.push({
      symbol: c.symbol, kind: c.inverse ? 'inverse' : 'linear', tick: step(c.filters, 'PRICE_FILTER') ?? c.quoteAssetPrecision,
      lot: step(c.filters, 'LOT_SIZE') ?? c.baseAssetPrecision, multiplier: c.contractMultiplier, base: c.underlying ?? c.baseAsset, quote: c.quoteAsset,
      margin: c.marginToken, contiguousVersions: true, index: c.index,
    });
  }
  return out;
}

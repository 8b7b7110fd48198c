/** Imports Binance raw-stream recordings (`<ns> <json>` lines of spot, USD-M and COIN-M streams): snapshots, U/u/pu diffs with gap checks, trades. */
import { ParseError } from '../core/errors.ts';
import { asObject, at, levelOf, listOf, reqBool, reqString, type WireObject } from '../model/wire.ts';
import type { CatalogWriter } from './catalog.ts';
import { writeDepth } from './depth-rows.ts';
import { toSteps, type Instrument } from './instruments.ts';
import type { RecordedLine } from './lines.ts';
import type { InstrumentMapping } from './mapping.ts';
import { msToNs } from './ns.ts';
import type { ConvertReport } from './report.ts';
import { AGGRESSOR } from './tables.ts';

// Book continuity, checked message by message across the files of one symbol:
// - spot diffs count update ids one by one: a diff's U must be the previous diff's u + 1;
// - futures diffs name the previous diff's u as pu;
// - after a REST snapshot at lastUpdateId L, the diffs must reach past L without a hole: either the
//   diffs already seen got to L, or the next diff starts at or before L + 1 (spot) / has pu ≤ L (futures).
// A break is a gap: reported, and flagged on the message's first row so that replay resyncs as live would.

interface BookTrack {
  lastU: bigint | undefined;
  /** A snapshot's id that the diffs have not yet been seen to reach. */
  pendingSnapshot: bigint | undefined;
}

/** State carried across the files of one conversion (a symbol's book continues from one file into the next). */
export class BinanceImporter {
  private readonly books = new Map<string, BookTrack>();
  private readonly unmapped = new Set<string>();

  constructor(private readonly cat: CatalogWriter, private readonly mapping: InstrumentMapping, private readonly report: ConvertReport) {}

  /** Imports one recorded line of `file`; a bad line is reported with its number and skipped. */
  line(file: string, l: RecordedLine, state: { symbol?: string }): void {
    let o: WireObject;
    try {
      o = asObject(JSON.parse(l.frame), 'frame');
    } catch (e) {
      this.report.problem(file, l.line, `not a JSON object (${(e as Error).message}); skipped`);
      return;
    }
    try {
      if (o['lastUpdateId'] !== undefined) {
        this.snapshot(file, l, o, state);
        return;
      }
      const stream = reqString(o, 'stream', 'frame');
      const data = asObject(o['data'], 'frame.data');
      const kind = stream.split('@')[1] ?? '';
      state.symbol ??= reqString(data, 's', 'frame.data');
      switch (kind) {
        case 'depth':
          this.diff(file, l, data);
          return;
        case 'trade':
          this.trade(file, l, data);
          return;
        default:
          this.report.count(`binance ${kind} ignored`);
      }
    } catch (e) {
      this.report.problem(file, l.line, `${(e as Error).message}; skipped`);
    }
  }

  private inst(file: string, sourceSymbol: string | undefined): Instrument | undefined {
    const inst = this.mapping.find(file, sourceSymbol);
    if (!inst) {
      const key = `${file}|${sourceSymbol ?? ''}`;
      if (!this.unmapped.has(key)) {
        this.unmapped.add(key);
        this.report.problem(file, 0, `no instrument mapping for ${sourceSymbol ?? 'its symbol'}: add an entry to the mapping (--map); its messages are skipped`);
      }
      this.report.count('binance messages without a mapping');
      return undefined;
    }
    const binance = asBinance(inst);
    this.cat.instrument(binance);
    return binance;
  }

  private track(symbol: string): BookTrack {
    let t = this.books.get(symbol);
    if (!t) this.books.set(symbol, (t = { lastU: undefined, pendingSnapshot: undefined }));
    return t;
  }

  private snapshot(file: string, l: RecordedLine, o: WireObject, state: { symbol?: string }): void {
    const source = typeof o['symbol'] === 'string' ? o['symbol'] : state.symbol;
    const inst = this.inst(file, source);
    if (!inst) return;
    const id = BigInt(String(o['lastUpdateId']));
    const tsEvent = typeof o['E'] === 'number' ? msToNs(o['E']) : l.ns;
    writeDepth(this.cat, inst, {
      tsEvent, tsLocal: l.ns, sequence: id, snapshot: true, gap: false,
      bids: listOf(o['bids'], 'frame.bids', levelOf), asks: listOf(o['asks'], 'frame.asks', levelOf),
    });
    const t = this.track(inst.symbol);
    t.pendingSnapshot = t.lastU !== undefined && t.lastU >= id ? undefined : id;
    this.report.count('binance snapshots');
  }

  private diff(file: string, l: RecordedLine, d: WireObject): void {
    const inst = this.inst(file, reqString(d, 's', 'data'));
    if (!inst) return;
    const U = bigId(d, 'U');
    const u = bigId(d, 'u');
    const pu = d['pu'] === undefined ? undefined : bigId(d, 'pu');
    const bids = listOf(d['b'], 'data.b', levelOf);
    const asks = listOf(d['a'], 'data.a', levelOf);
    const t = this.track(inst.symbol);
    let gap: string | undefined;
    if (t.pendingSnapshot !== undefined && u > t.pendingSnapshot) {
      const s = t.pendingSnapshot;
      if (pu !== undefined ? pu > s : U > s + 1n) gap = `the snapshot at ${s} is older than the first diff after it (U=${U}${pu === undefined ? '' : `, pu=${pu}`})`;
      t.pendingSnapshot = undefined;
    } else if (t.lastU !== undefined && t.pendingSnapshot === undefined) {
      if (pu !== undefined ? pu !== t.lastU : U !== t.lastU + 1n) gap = `diff ${U}..${u} does not follow ${t.lastU}${pu === undefined ? '' : ` (pu=${pu})`}`;
    }
    writeDepth(this.cat, inst, { tsEvent: msToNs(numberOf(d, 'E')), tsLocal: l.ns, sequence: u, snapshot: false, gap: gap !== undefined, bids, asks });
    t.lastU = u;
    if (gap !== undefined) {
      this.report.gap({ symbol: inst.symbol, atNs: l.ns.toString(), reason: gap });
      this.report.problem(file, l.line, `version gap in ${inst.symbol}: ${gap}`);
    }
    this.report.count('binance depth diffs');
  }

  private trade(file: string, l: RecordedLine, d: WireObject): void {
    const inst = this.inst(file, reqString(d, 's', 'data'));
    if (!inst) return;
    const price = toSteps(reqString(d, 'p', 'data'), inst.tick, 'data.p');
    const qty = toSteps(reqString(d, 'q', 'data'), inst.lot, 'data.q');
    const aggressor = reqBool(d, 'm', 'data') ? AGGRESSOR.SELL : AGGRESSOR.BUY;
    this.cat.row('trades', inst.symbol, [msToNs(numberOf(d, 'T')), l.ns, price, qty, aggressor, bigId(d, 't')]);
    this.report.count('binance trades');
  }
}

/** Returns the instrument as Binance data needs it: update ids only increase, they do not count diffs one by one. */
export function asBinance(inst: Instrument): Instrument {
  return { ...inst, contiguousVersions: false };
}

function numberOf(o: WireObject, key: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new ParseError(at('data', key), `must be an integer, got ${JSON.stringify(v)}`);
  return v;
}

function bigId(o: WireObject, key: string): bigint {
  return BigInt(numberOf(o, key));
}

/** Imports Binance REST answers saved as JSON: klines arrays, trades lists and funding-rate lists. */
import { ParseError } from '../core/errors.ts';
import { KLINE_INTERVALS, type KlineInterval } from '../model/enums.ts';
import { FUNDING_INTERVAL_MS } from '../model/market.ts';
import { asArray, asObject, at, reqBool, reqDecimal, reqString, type WireObject } from '../model/wire.ts';
import type { CatalogWriter } from './catalog.ts';
import { asBinance } from './import-binance.ts';
import { toSteps, type Instrument } from './instruments.ts';
import type { InstrumentMapping } from './mapping.ts';
import { msToNs } from './ns.ts';
import type { ConvertReport } from './report.ts';
import { AGGRESSOR, KLINE_FLAG } from './tables.ts';

/** The kinds of REST JSON this importer knows, told apart by the shape of the first element. */
export type RestKind = 'klines' | 'trades' | 'funding';

const MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Returns the kind of a parsed REST answer, or undefined when it is none of them. */
export function restKind(raw: unknown): RestKind | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const first: unknown = raw[0];
  if (Array.isArray(first)) return 'klines';
  if (typeof first !== 'object' || first === null) return undefined;
  if ('fundingRate' in first) return 'funding';
  if ('isBuyerMaker' in first) return 'trades';
  return undefined;
}

/** Returns the interval whose length is `ms`, from a kline's open and close times. */
function intervalOf(ms: number): KlineInterval | undefined {
  return KLINE_INTERVALS.find((iv) => iv !== '1M' && MS[iv.slice(-1)]! * Number(iv.slice(0, -1)) === ms);
}

function int(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new ParseError(path, `must be an integer, got ${JSON.stringify(v)}`);
  return v;
}

/**
 * Imports one REST answer; each bad element is reported with its index and skipped. REST answers have no
 * receive time: a kline's local time is its close time + 1 ms (when it is known complete), a trade's and a funding rate's their own time.
 */
export function importRest(file: string, raw: unknown, kind: RestKind, cat: CatalogWriter, mapping: InstrumentMapping, report: ConvertReport): void {
  const list = asArray(raw, file);
  const instOf = (source: string | undefined): Instrument | undefined => {
    const found = mapping.find(file, source);
    if (!found) return undefined;
    const inst = asBinance(found);
    cat.instrument(inst);
    return inst;
  };
  const fileInst = kind === 'funding' ? undefined : instOf(undefined);
  if (kind !== 'funding' && !fileInst) {
    report.problem(file, 0, `no instrument mapping matches this file: add an entry with files: "${file.split('/').pop()}" to the mapping (--map); ${list.length} rows skipped`);
    return;
  }
  for (let i = 0; i < list.length; i++) {
    const path = `${file}[${i}]`;
    try {
      switch (kind) {
        case 'klines': kline(list[i], path, fileInst!, cat); break;
        case 'trades': trade(asObject(list[i], path), path, fileInst!, cat); break;
        case 'funding': {
          const o = asObject(list[i], path);
          const inst = instOf(reqString(o, 'symbol', path));
          if (!inst) throw new ParseError(at(path, 'symbol'), `has no instrument mapping: ${String(o['symbol'])}`);
          funding(o, path, inst, cat);
          break;
        }
        default: {
          const never: never = kind;
          throw new ParseError('kind', `unknown REST kind ${String(never)}`);
        }
      }
      report.count(`rest ${kind}`);
    } catch (e) {
      report.problem(file, i + 1, `${(e as Error).message}; skipped`);
    }
  }
}

function kline(el: unknown, path: string, inst: Instrument, cat: CatalogWriter): void {
  const a = asArray(el, path);
  const open = int(a[0], at(path, 0));
  const close = int(a[6], at(path, 6));
  const interval = intervalOf(close + 1 - open);
  if (!interval) throw new ParseError(path, `open ${open} and close ${close} span no known kline interval`);
  const d = (j: number, unit: string): bigint => {
    const v = a[j];
    if (typeof v !== 'string') throw new ParseError(at(path, j), `must be a decimal string, got ${JSON.stringify(v)}`);
    return toSteps(v, unit, at(path, j));
  };
  cat.row('klines', inst.symbol, [
    msToNs(close), msToNs(close + 1), interval, msToNs(open), d(1, inst.tick), d(2, inst.tick), d(3, inst.tick), d(4, inst.tick), d(5, inst.lot), KLINE_FLAG.CLOSED,
  ]);
}

function trade(o: WireObject, path: string, inst: Instrument, cat: CatalogWriter): void {
  const time = msToNs(int(o['time'], at(path, 'time')));
  cat.row('trades', inst.symbol, [
    time, time, toSteps(reqDecimal(o, 'price', path), inst.tick, at(path, 'price')), toSteps(reqDecimal(o, 'qty', path), inst.lot, at(path, 'qty')),
    reqBool(o, 'isBuyerMaker', path) ? AGGRESSOR.SELL : AGGRESSOR.BUY, BigInt(int(o['id'], at(path, 'id'))),
  ]);
}

function funding(o: WireObject, path: string, inst: Instrument, cat: CatalogWriter): void {
  const t = int(o['fundingTime'], at(path, 'fundingTime'));
  // The venue stamps funding a few ms after the 8-hour boundary; the interval is the 8 hours up to that boundary.
  const end = t - (t % FUNDING_INTERVAL_MS);
  cat.row('funding', inst.symbol, [msToNs(t), msToNs(t), reqDecimal(o, 'fundingRate', path), msToNs(end - FUNDING_INTERVAL_MS), msToNs(end)]);
}

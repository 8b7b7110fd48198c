/** `data convert`: reads recordings (ours or Binance raw streams) and REST JSON answers, and writes them into a catalog. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CatalogWriter, type CatalogFile, type CatalogIndex } from './catalog.ts';
import { BhtradeImporter } from './import-bhtrade.ts';
import { BinanceImporter } from './import-binance.ts';
import { importRest, restKind } from './import-rest.ts';
import { recordedLines } from './lines.ts';
import { InstrumentMapping } from './mapping.ts';
import { ConvertReport } from './report.ts';

export interface ConvertOptions {
  /** Files or folders (folders are read for *.gz, *.json, *.jsonl and *.log files, recursively). */
  readonly inputs: readonly string[];
  readonly out: string;
  readonly mapping?: InstrumentMapping;
}

export interface ConvertResult {
  readonly index: CatalogIndex;
  readonly report: ConvertReport;
  /** Files of an earlier conversion into the same catalog that this one wrote again (same table, symbol and day). */
  readonly replaced: readonly CatalogFile[];
}

const INPUT_RE = /\.(gz|json|jsonl|ndjson|log)$/i;
/** The names a folder is read for, as INPUT_RE takes them. */
export const INPUT_KINDS = '*.gz, *.json, *.jsonl, *.ndjson, *.log';

/** Returns the input files in name order (recordings rotate by time, so name order is time order). */
export function expandInputs(inputs: readonly string[], report: ConvertReport): string[] {
  const out: string[] = [];
  const walk = (p: string, top: boolean): void => {
    let st;
    try {
      st = statSync(p);
    } catch {
      report.problem(p, 0, 'cannot be read (no such file or folder); skipped');
      return;
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(join(p, name), false);
    } else if (top || INPUT_RE.test(p)) {
      out.push(p);
    }
  };
  for (const i of inputs) walk(i, true);
  return out.sort();
}

/** Converts every input into the catalog at `out`; problems are collected in the report, never thrown past one input. */
export async function convert(o: ConvertOptions): Promise<ConvertResult> {
  const report = new ConvertReport();
  const mapping = o.mapping ?? new InstrumentMapping([]);
  const cat = new CatalogWriter(o.out, report);
  const binance = new BinanceImporter(cat, mapping, report);
  const ours = new BhtradeImporter(cat, mapping, report);
  for (const file of expandInputs(o.inputs, report)) {
    try {
      if (/\.json$/i.test(file)) {
        let raw: unknown;
        try {
          raw = JSON.parse(readFileSync(file, 'utf8'));
        } catch (e) {
          report.problem(file, 0, `is not valid JSON (${(e as Error).message}); skipped`);
          continue;
        }
        const kind = restKind(raw);
        if (!kind) {
          const snapshot = typeof raw === 'object' && raw !== null && !Array.isArray(raw) && 'lastUpdateId' in raw;
          report.problem(file, 0, snapshot
            ? 'is a REST depth snapshot on its own: without the diffs it starts it makes no book (a snapshot is read inside a raw-stream recording); skipped'
            : 'is not a klines, trades or funding-rate list; skipped');
          continue;
        }
        importRest(file, raw, kind, cat, mapping, report);
        continue;
      }
      const state: { symbol?: string } = {};
      let other: string | undefined;
      for await (const l of recordedLines(file, report)) {
        // A run's recording folder holds its orders stream beside the market: not market data, skipped whole.
        if (other === undefined && l.frame.startsWith('!session ')) other = otherStream(l.frame);
        if (other !== undefined) {
          report.count(`bhtrade ${other} stream lines skipped (not market data)`);
          continue;
        }
        if (l.frame.startsWith('{"stream"') || l.frame.startsWith('{"lastUpdateId"')) binance.line(file, l, state);
        else if (l.frame.startsWith('!')) ours.marker(file, l);
        else ours.line(file, l);
      }
    } catch (e) {
      report.problem(file, 0, `conversion of this file stopped: ${(e as Error).message}`);
    }
  }
  ours.finish();
  const index = cat.finish(report.gaps);
  return { index, report, replaced: cat.replaced };
}

/** Returns the stream a recorder's `!session` line names when it is not the market's (a run's `orders`), else undefined. */
function otherStream(frame: string): string | undefined {
  const m = /"stream":"([A-Za-z0-9_-]+)"/.exec(frame);
  return m === null || m[1] === 'market' ? undefined : m[1];
}

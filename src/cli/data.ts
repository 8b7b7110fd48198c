/** `bhtrade data convert|ls|info`: builds a Parquet catalog from recordings and REST answers, and shows what one holds. */
import { stderr, stdout } from 'node:process';
import { BhError } from '../core/errors.ts';
import { convert, expandInputs, INPUT_KINDS } from '../data/convert.ts';
import { ConvertReport } from '../data/report.ts';
import { formatInfo, formatLs } from '../data/info.ts';
import { readCatalog } from '../data/catalog.ts';
import { loadMapping } from '../data/mapping.ts';
import { outProblem, valueProblem } from './load-config.ts';

/** The help of `bhtrade data`. */
export const DATA_HELP = `Usage:
  npx bhtrade data convert RAW... --out CATALOG [--map MAPPING.yaml]
        convert recordings (bhtrade record's capture files, Binance raw streams; gzip or plain) and
        Binance REST JSON (klines, trades, funding rates) into a Parquet catalog. RAW: files or folders.
        --map: the instruments of inputs that do not carry their own (Binance), e.g. config/data/binance-samples.yaml
  npx bhtrade data ls CATALOG     one line per symbol and table: events and days
  npx bhtrade data info CATALOG   instruments, event counts, time ranges (UTC) and gaps

Exit codes: 0, 1 when a conversion found problems (each named with its file and line; the rest is
converted), 2 for bad usage. Formats and tables: docs/data.md.
`;

/** Shown problems at most; the rest are counted. */
const SHOWN = 50;

/** Runs `bhtrade data ...`; returns the exit code (2 for bad usage, 1 when a conversion found problems). */
export async function dataCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    switch (sub) {
      case 'convert':
        return await convertCommand(rest);
      case 'ls':
      case 'info': {
        if (rest.length !== 1) return usage(`data ${sub} needs one CATALOG folder`);
        const index = readCatalog(rest[0]!);
        stdout.write(sub === 'ls' ? formatLs(index) : formatInfo(index));
        return 0;
      }
      case undefined:
      case 'help':
      case '--help':
        stdout.write(DATA_HELP);
        return 0;
      default:
        return usage(`unknown data command '${sub}'`);
    }
  } catch (e) {
    stderr.write(`bhtrade data: ${e instanceof BhError || e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
}

function usage(msg: string): number {
  stderr.write(`bhtrade data: ${msg}\n\n${DATA_HELP}`);
  return 2;
}

async function convertCommand(argv: readonly string[]): Promise<number> {
  const inputs: string[] = [];
  let out: string | undefined;
  let map: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--out' || a === '--map') {
      const v = argv[++i];
      const bad = valueProblem(a, v);
      if (bad !== undefined) return usage(bad);
      if (a === '--out') out = v;
      else map = v;
    } else if (a.startsWith('--')) {
      return usage(`unknown option ${a}`);
    } else {
      inputs.push(a);
    }
  }
  if (!out) return usage('convert needs --out CATALOG');
  if (inputs.length === 0) return usage('convert needs at least one RAW input');
  const outBad = outProblem(out);
  if (outBad !== undefined) return usage(`--out ${out}: ${outBad}`);
  const found = new ConvertReport();
  const files = expandInputs(inputs, found);
  if (files.length === 0) {
    for (const p of found.problems) stderr.write(`${p.file}: ${p.message}\n`);
    stderr.write(`bhtrade data convert: no input file found (folders are read for ${INPUT_KINDS}); ${out} was not written\n`);
    return 1;
  }
  const { index, report, replaced } = await convert({ inputs, out, mapping: map === undefined ? undefined : loadMapping(map) });
  stdout.write(`read ${files.length} file(s):\n`);
  for (const [what, n] of [...report.counts].sort()) stdout.write(`  ${what}: ${n}\n`);
  const events = index.files.reduce((s, f) => s + f.events, 0);
  const symbols = new Set(index.files.map((f) => f.symbol)).size;
  stdout.write(`wrote catalog ${out}: ${events} events of ${symbols} symbol(s) in ${index.files.length} Parquet files, ${index.gaps.length} gap(s)${index.gaps.length > 0 ? ' (npx bhtrade data info lists them)' : ''}\n`);
  for (const f of replaced) {
    stdout.write(`replaced ${f.path} (${f.events} events of an earlier conversion; the recordings of one day are kept together only when converted in one command)\n`);
  }
  for (const p of report.problems.slice(0, SHOWN)) stderr.write(`${p.file}${p.line > 0 ? `:${p.line}` : ''}: ${p.message}\n`);
  if (report.problemCount > SHOWN) stderr.write(`... and ${report.problemCount - SHOWN} more problems\n`);
  if (report.problemCount > 0) {
    stderr.write(`bhtrade data convert: ${report.problemCount} problem(s) (see above); everything else was converted\n`);
    return 1;
  }
  return 0;
}

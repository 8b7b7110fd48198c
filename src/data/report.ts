/** What a conversion found: counts, problems with their file and line, and version gaps, so nothing is lost silently. */

/** A version gap in a book's diffs. */
export interface GapRecord {
  readonly symbol: string;
  /** Local time (ns, as a decimal string for JSON) of the first message after the gap. */
  readonly atNs: string;
  readonly reason: string;
}

/** One problem, located where it was found. */
export interface Problem {
  readonly file: string;
  /** 1-based line (or array element) number; 0 when the problem concerns the whole file. */
  readonly line: number;
  readonly message: string;
}

const MAX_PROBLEMS_KEPT = 1000;

/** Counts and problems of one conversion; problems past the first 1000 are only counted. */
export class ConvertReport {
  readonly problems: Problem[] = [];
  problemCount = 0;
  readonly gaps: GapRecord[] = [];
  /** Messages by what became of them, e.g. "binance depth", "ignored bookTicker". */
  readonly counts = new Map<string, number>();

  /** Records a problem (bad line, bad value, truncated file) that cost the data it names and nothing else. */
  problem(file: string, line: number, message: string): void {
    this.problemCount += 1;
    if (this.problems.length < MAX_PROBLEMS_KEPT) this.problems.push({ file, line, message });
  }

  /** Records a version gap. */
  gap(g: GapRecord): void {
    this.gaps.push(g);
  }

  /** Adds `n` to a named count. */
  count(what: string, n = 1): void {
    this.counts.set(what, (this.counts.get(what) ?? 0) + n);
  }
}

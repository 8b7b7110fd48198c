/** Index prices per index symbol and their EDP: the average of the index over the last 10 minutes of clock time. */
import type { Clock } from '../../core/clock.ts';
import { divRound, type Amount } from '../ledger/amount.ts';

/** Length of the EDP window: 10 minutes. */
export const EDP_WINDOW_MS = 10 * 60_000;

interface Sample {
  readonly t: number;
  readonly price: Amount;
}

/**
 * Keeps each index symbol's recent prices. EDP is the plain mean of the samples set within the
 * window (prices are set on a regular beat by the market agents, so it equals the time average),
 * rounded down; with no sample in the window it is the latest index.
 */
export class IndexPrices {
  private readonly samples = new Map<string, Sample[]>();

  constructor(private readonly clock: Clock, private readonly windowMs = EDP_WINDOW_MS) {}

  /** Records the index price of `symbol` at the clock's time. */
  set(symbol: string, price: Amount): void {
    if (price <= 0n) throw new RangeError(`index price of ${symbol} must be positive`);
    let list = this.samples.get(symbol);
    if (!list) {
      list = [];
      this.samples.set(symbol, list);
    }
    list.push({ t: this.clock.now(), price });
    this.trim(list);
  }

  private trim(list: Sample[]): void {
    const from = this.clock.now() - this.windowMs;
    let drop = 0;
    while (drop < list.length - 1 && list[drop]!.t <= from) drop++;
    if (drop > 0) list.splice(0, drop);
  }

  /** Returns the latest index of `symbol`, or undefined before the first. */
  index(symbol: string): Amount | undefined {
    const list = this.samples.get(symbol);
    return list?.[list.length - 1]?.price;
  }

  /** Returns the EDP of `symbol`: the mean index over the last 10 minutes, or undefined before the first. */
  edp(symbol: string): Amount | undefined {
    const list = this.samples.get(symbol);
    if (!list || list.length === 0) return undefined;
    this.trim(list);
    const from = this.clock.now() - this.windowMs;
    const inWindow = list.filter((s) => s.t > from);
    if (inWindow.length === 0) return list[list.length - 1]!.price;
    const sum = inWindow.reduce((a, s) => a + s.price, 0n);
    return divRound(sum, BigInt(inWindow.length), 'floor');
  }

  /** Returns the kept samples as plain data (exportState): symbol → [time, price] pairs. */
  exportData(): [string, [number, string][]][] {
    return [...this.samples.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, list]) => [k, list.map((x): [number, string] => [x.t, x.price.toString()])]);
  }

  /** Loads exported samples. */
  importData(d: readonly [string, [number, string][]][]): void {
    for (const [k, list] of d) this.samples.set(k, list.map(([t, p]) => ({ t, price: BigInt(p) })));
  }

  /** Returns the symbols that have an index, sorted. */
  symbols(): string[] {
    return [...this.samples.keys()].sort();
  }
}

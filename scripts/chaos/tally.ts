/** What the chaos run found, row by row, and the table it prints: every row must be 0 (conservation "yes") for the run to pass. */

/** The findings; each list holds one line per finding so a failing row can be explained. */
export interface Tally {
  readonly stateDiff: string[];
  readonly duplicates: Set<string>;
  /** 418 bans the venue issued, summed over its restarts. */
  bans: number;
  readonly riskBreaches: Set<string>;
  readonly unhandled: string[];
  readonly frozen: string[];
  readonly ordersLeft: string[];
  /** Exits of the bot or the venue the run did not ask for, and graceful stops that did not exit 0. */
  readonly exits: string[];
  readonly notConserved: Set<string>;
  /** Rounds run per fault kind. */
  readonly rounds: Map<string, number>;
}

export function newTally(): Tally {
  return {
    stateDiff: [], duplicates: new Set(), bans: 0, riskBreaches: new Set(), unhandled: [], frozen: [], ordersLeft: [], exits: [], notConserved: new Set(), rounds: new Map(),
  };
}

/** Returns the table's rows: name, value shown, and whether the row passes. */
export function rows(t: Tally): [string, string, boolean][] {
  const n = (name: string, v: number): [string, string, boolean] => [name, String(v), v === 0];
  return [
    n('state difference between bot and venue', t.stateDiff.length),
    n('duplicate orders', t.duplicates.size),
    n('418 bans', t.bans),
    n('risk limits breached', t.riskBreaches.size),
    n('unhandled rejections', t.unhandled.length),
    n('strategies frozen', t.frozen.length),
    n('orders left after stop', t.ordersLeft.length),
    n('unexpected exits', t.exits.length),
    ['money conserved on the venue', t.notConserved.size === 0 ? 'yes' : 'no', t.notConserved.size === 0],
  ];
}

/** Returns the printed table, the fault rounds, and the lines behind every failing row. */
export function report(t: Tally, header: string): string {
  const rs = rows(t);
  const w = Math.max(...rs.map(([name]) => name.length));
  const out = [header, `| ${'check'.padEnd(w)} | result |`, `| ${'-'.repeat(w)} | ------ |`];
  for (const [name, v] of rs) out.push(`| ${name.padEnd(w)} | ${v.padStart(6)} |`);
  out.push(`fault rounds: ${[...t.rounds].map(([k, v]) => `${k} ${v}`).join(', ')}`);
  const details: [string, Iterable<string>][] = [
    ['state difference', t.stateDiff], ['duplicate', t.duplicates], ['risk', t.riskBreaches], ['unhandled', t.unhandled],
    ['frozen', t.frozen], ['left', t.ordersLeft], ['exit', t.exits], ['not conserved', t.notConserved],
  ];
  for (const [what, lines] of details) for (const l of [...lines].slice(0, 20)) out.push(`  ${what}: ${l}`);
  return out.join('\n');
}

/** True when every row passes. */
export function passed(t: Tally): boolean {
  return rows(t).every(([, , ok]) => ok);
}

/**
 * The state of the machine, measured at the start of `npm run bench`: a fixed reference workload and
 * how often the CPU is taken from a busy thread. On a shared virtual machine both change from hour to
 * hour (the same code has run 3 to 4 times slower on one day than on another), so a figure is compared
 * only with figures printed under a similar `machine:` line.
 */
import { fillReportFrame } from './report-frame.ts';

/** One fill report, as the report-to-strategy bench sends it. */
const REPORT = fillReportFrame('bench-r1-1', 1, 1_700_000_000_001);

const PARSES = 50_000;
const SPIN_NS = 1_000_000_000n;
/** A gap between two clock reads of a spinning thread longer than this is a pause (the thread was not running). */
const PAUSE_NS = 5_000;

/** Returns the median nanoseconds of one JSON.parse of REPORT, over 5 batches after a warm-up. */
function parseNs(): number {
  let sink = 0;
  const batch = (): number => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < PARSES; i++) sink += (JSON.parse(REPORT) as { X: string }).X.length;
    return Number(process.hrtime.bigint() - t0) / PARSES;
  };
  batch();
  const runs = [batch(), batch(), batch(), batch(), batch()].sort((a, b) => a - b);
  if (sink === 0) throw new Error('machine: reference workload parsed nothing');
  return runs[2]!;
}

/** Spins for one second reading the clock; returns the pauses seen: count, median length (ns) and their share of the second. */
function pauses(): { count: number; medianNs: number; share: number } {
  const gaps: number[] = [];
  const t0 = process.hrtime.bigint();
  let last = t0;
  let now = t0;
  while (now - t0 < SPIN_NS) {
    now = process.hrtime.bigint();
    const d = Number(now - last);
    if (d > PAUSE_NS) gaps.push(d);
    last = now;
  }
  gaps.sort((a, b) => a - b);
  const total = gaps.reduce((a, b) => a + b, 0);
  return { count: gaps.length, medianNs: gaps.length === 0 ? 0 : gaps[gaps.length >> 1]!, share: total / Number(now - t0) };
}

/** Returns the `machine:` line. */
export function machineLine(): string {
  const ns = parseNs();
  const p = pauses();
  return `machine: JSON.parse of a ${REPORT.length}-byte execution report ${Math.round(ns).toLocaleString('en-US')} ns (reference workload); `
    + `a spinning thread was paused ${p.count.toLocaleString('en-US')} times in 1 s (gaps over ${PAUSE_NS / 1000} µs, median ${(p.medianNs / 1000).toFixed(1)} µs, `
    + `${(p.share * 100).toFixed(1)} % of the time)`;
}

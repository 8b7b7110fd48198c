/** The chaos run's fault plan: every fault kind in a seeded order, at seeded gaps, each block of rounds holding every kind once. */
import { Rng } from '../../src/core/random.ts';

/** The fault kinds the chaos run switches on, each at least once. */
export const FAULT_KINDS = [
  'dropSockets', 'reorder', 'delay', 'duplicate', 'error5xx', 'timeout504', 'storm429', 'listenKeyExpiry', 'venueKill', 'botKill',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** One round: wait `gapMs`, switch `kind` on (for `windowMs` when it is a setting), then wait until every strategy placed an order again. */
export interface Round {
  readonly kind: FaultKind;
  readonly gapMs: number;
  readonly windowMs: number;
  /** How long a killed venue stays down before its restart. */
  readonly downMs: number;
}

/** Returns an endless seeded sequence of rounds over `kinds`: each block of kinds.length rounds is a shuffle of all of them, every draw made for every round so the times do not depend on the kinds. */
export function* faultPlan(seed: number, kinds: readonly FaultKind[]): Generator<Round> {
  const rng = new Rng(seed);
  for (;;) {
    const block = [...kinds];
    for (let i = block.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [block[i], block[j]] = [block[j]!, block[i]!];
    }
    for (const kind of block) {
      yield { kind, gapMs: rng.int(500, 6000), windowMs: rng.int(3000, 8000), downMs: rng.int(200, 3000) };
    }
  }
}

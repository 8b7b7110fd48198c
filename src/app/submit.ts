/** The function strategies' intents go through: the risk gate over the portfolio's snapshot, then the executor; a denial is answered at once with its `CODE: key=value` line. */
import type { Logger } from '../core/logger.ts';
import { renderDenial, type OrderIntent, type PortfolioSnapshot, type RiskGate } from '../risk/index.ts';
import type { StrategyIntent, SubmitIntent } from '../strategy/index.ts';

// The strategy layer cannot import risk; this line makes the compiler check its intents are the gate's.
const asOrderIntent: (i: StrategyIntent) => OrderIntent = (i) => i;

export interface SubmitDeps {
  readonly gate: RiskGate;
  /** Returns the portfolio snapshot of this instant (with open orders counted by the executor). */
  readonly snapshot: () => PortfolioSnapshot;
  /** Hands an accepted intent to the executor (which returns at once; outcomes arrive as bus events). */
  readonly execute: (intent: OrderIntent) => void;
  readonly log: Logger;
}

/** Returns the SubmitIntent the strategy host injects into every strategy's order API. */
export function makeSubmit(d: SubmitDeps): SubmitIntent {
  return (si) => {
    const intent = asOrderIntent(si);
    const r = d.gate.check(intent, d.snapshot());
    if (!r.ok) {
      const text = renderDenial(r.denial);
      d.log.debug({ strategy: intent.strategyId, kind: intent.kind }, `denied ${text}`);
      return { ok: false, code: r.denial.code, text };
    }
    for (const a of r.adjusted) d.log.debug({ strategy: intent.strategyId }, `adjusted ${renderDenial(a)}`);
    d.execute(r.intent);
    return { ok: true };
  };
}

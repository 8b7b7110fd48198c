/** What the strategy host is given of the executor: the function strategies' intents go through the executor's submit, which checks each with the risk gate before anything is sent; a denial is answered at once with its `CODE: key=value` line. */
import type { ExecutionEvent } from '../execution/order-store.ts';
import type { OrderIntent } from '../risk/index.ts';
import type { OrderFeed } from '../execution/order-feed.ts';
import type { OrderSource, StrategyIntent, SubmitIntent } from '../strategy/index.ts';

// The strategy layer cannot import risk; this line makes the compiler check its intents are the gate's.
const asOrderIntent: (i: StrategyIntent) => OrderIntent = (i) => i;

/** The part of the OrderExecutor the submit function uses. */
export interface IntentSink {
  submit(intent: OrderIntent): string;
  on(listener: (ev: ExecutionEvent) => void): () => void;
}

/** Returns the SubmitIntent the strategy host injects into every strategy's order API. */
export function makeSubmit(executor: IntentSink): SubmitIntent {
  // The executor reports a denial synchronously inside submit(); catch the one of the call in progress.
  let denied: Extract<ExecutionEvent, { type: 'denied' }> | undefined;
  let inCall = false;
  executor.on((ev) => {
    if (inCall && ev.type === 'denied') denied = ev;
  });
  return (si) => {
    denied = undefined;
    inCall = true;
    try {
      executor.submit(asOrderIntent(si));
    } finally {
      inCall = false;
    }
    const d = denied as Extract<ExecutionEvent, { type: 'denied' }> | undefined;
    return d === undefined ? { ok: true } : { ok: false, code: d.denial.code, text: d.text };
  };
}

/** Returns the executor's order feed as the strategy host reads it. */
export function feedSource(executor: { readonly feed: OrderFeed }): OrderSource {
  const feed = executor.feed;
  return {
    follow: (l) => feed.on({ order: (v) => l.order(v), fill: (f) => l.fill(f) }),
    get: (id) => feed.get(id),
    open: (strategyId, symbol, pending) => feed.open(strategyId, symbol, pending),
  };
}

/** The commented strategy template and config that `bhtrade new-strategy NAME` writes. */
import { STRATEGY_API_VERSION } from './define.ts';

/** Returns the text of strategies/NAME.ts: a small, loadable strategy that explains each part of the API. */
export function strategyTemplate(name: string): string {
  return `// ${name}: a strategy written from the bhtrade template. Run it with \`npx bhtrade run config/${name}.yaml\`.
// Everything a strategy needs comes from 'bhtrade' (zod's \`z\` included), never from its source tree.
import { defineStrategy, fromTicks, toTicks, z } from 'bhtrade';

export default defineStrategy({
  manifest: {
    name: '${name}',
    // The plugin API this file was written for: the host refuses a newer minor or another major.
    apiVersion: '${STRATEGY_API_VERSION}',
    // The params block of the config, validated at load: a bad or unknown key stops the run with its path.
    // Amounts stay decimal strings: they are sent exactly as written.
    params: z.strictObject({
      quantity: z.string().regex(/^\\d+(\\.\\d+)?$/).default('0.001'),
      offsetTicks: z.number().int().min(1).default(10),
    }),
    // The market events it receives besides the default book snapshots and trades, e.g.
    // streams: { klines: ['1m'], ticker: true } for onKline and onTicker (docs/strategies.md, Market streams).
  },

  // Called once per configured instance. \`ctx\` is all a strategy sees: ctx.params (typed from the
  // schema above), ctx.symbols, ctx.instrument(symbol), ctx.portfolio (read-only), ctx.clock,
  // ctx.log, ctx.bus (read-only streams) and ctx.orders (place, cancel, replace, cancelAll,
  // closePosition: each returns at once; the order goes through the risk gate, then the executor).
  create(ctx) {
    const symbol = ctx.symbols[0]!;
    const inst = ctx.instrument(symbol);
    let resting: string | undefined;

    return {
      start() {
        ctx.log.info({ symbol, tick: inst.tickSize }, 'started');
      },

      // Market events arrive for ctx.symbols only; prices are the venue's decimal strings.
      onTrade(ev) {
        if (resting !== undefined) return;
        // Buy offsetTicks below the last trade: prices as whole ticks (exact integers), never floats.
        const price = fromTicks(inst, toTicks(inst, ev.price) - ctx.params.offsetTicks);
        resting = ctx.orders.place({ symbol, side: 'BUY', type: 'LIMIT', price, quantity: ctx.params.quantity });
      },

      // Each change of this strategy's own orders, once and in order; every order ends in FILLED, CANCELED or REJECTED.
      onOrder(ev) {
        if (ev.clientOrderId === resting && (ev.status === 'FILLED' || ev.status === 'CANCELED' || ev.status === 'REJECTED')) resting = undefined;
      },

      // Each fill once, as soon as the venue reports it; ctx.portfolio.book(symbol) already holds it.
      onFill(fill) {
        ctx.log.info({ price: fill.price, qty: fill.qty, position: ctx.portfolio.book(symbol).net }, 'filled');
      },

      // An intent was refused locally (docs/risk-codes.md): nothing was sent. \`text\` reads like "LOT_SIZE: qty=0.0001 minQty=0.001".
      onDenied(notice) {
        ctx.log.warn(notice.text);
        if (notice.clientOrderId === resting) resting = undefined;
      },

      // Called on shutdown (and after a failure): leave nothing behind.
      stop() {
        ctx.orders.cancelAll(symbol);
      },
    };
  },
});
`;
}

/** Returns the text of config/NAME.yaml: the new strategy alone on the embedded venue. */
export function strategyConfigTemplate(name: string, id: string): string {
  return `# ${name} on the embedded simulated venue. Run: npx bhtrade run config/${name}.yaml --duration 1m
# Backtest: npx bhtrade backtest config/${name}.yaml (without a backtest: section, on the 2-minute sample that ships with bhtrade)
# Every key is described in docs/config.md.
venue: embedded

strategies:
  - id: ${id}                          # 1-12 letters, digits or _: prefixes this strategy's clientOrderIds
    use: ../strategies/${name}.ts      # a .ts or .js path (relative to this file) or an npm package name
    symbols: [BTCUSDT]
    params:
      quantity: "0.001"
      offsetTicks: 10

status:
  every: 5s

stop:
  cancelAll: true
`;
}

/** Read-only views of the executor's portfolio and orders: the one a strategy gets (scoped to its own orders) and the lines of the status. */
import { Decimal } from '../core/fixed.ts';
import type { Instrument } from '../model/index.ts';
import { isWorking, type LocalOrder } from '../execution/order-state.ts';
import type { Portfolio } from '../execution/portfolio/portfolio.ts';
import type { PortfolioView, StrategyStatus } from '../strategy/index.ts';
import type { StrategyLine } from './status.ts';

/** What the views read. */
export interface ViewSources {
  readonly portfolio: Portfolio;
  readonly orders: () => readonly LocalOrder[];
  readonly instruments: ReadonlyMap<string, Instrument>;
}

/** Returns the read-only portfolio view of one strategy: account balances and positions, its own open orders, PnL of its symbols. */
export function strategyView(src: ViewSources, strategyId: string, symbols: readonly string[]): PortfolioView {
  return {
    balance(asset, account = 'spot') {
      const v = src.portfolio.view();
      if (account === 'spot') return v.spot[asset] ?? { free: '0', locked: '0' };
      const c = v.contract[asset];
      return c === undefined ? { free: '0', locked: '0' } : { free: c.availableMargin, locked: new Decimal(c.total).minus(c.availableMargin).toFixed() };
    },
    positions(symbol) {
      return src.portfolio.view().positions.filter((p) => p.symbol === symbol).map((p) => ({ symbol: p.symbol, side: p.side, quantity: p.qty, avgPrice: p.avgPrice }));
    },
    openOrders(symbol) {
      return src.orders().filter((o) => o.strategyId === strategyId && isWorking(o) && (symbol === undefined || o.symbol === symbol)).map((o) => ({
        clientOrderId: o.clientOrderId, symbol: o.symbol, side: o.side, price: o.price, origQty: o.origQty, executedQty: o.executedQty, status: o.phase,
      }));
    },
    pnl() {
      const { realized, unrealized } = pnlOf(src, symbols);
      return { realized: sum(Object.values(realized)), unrealized: sum(Object.values(unrealized)) };
    },
  };
}

/** Returns the status line fields of each strategy. */
export function statusLines(src: ViewSources, strategies: readonly StrategyStatus[], symbolsOf: (id: string) => readonly string[]): StrategyLine[] {
  const working = src.orders().filter(isWorking);
  const v = src.portfolio.view();
  return strategies.map((s) => {
    const symbols = symbolsOf(s.id);
    const positions: { symbol: string; qty: string; unit: string }[] = [];
    for (const symbol of symbols) {
      const inst = src.instruments.get(symbol);
      if (inst === undefined) continue;
      if (inst.kind === 'spot') {
        positions.push({ symbol, qty: v.inventory.find((i) => i.symbol === symbol)?.qty ?? '0', unit: inst.baseAsset });
        continue;
      }
      let net = new Decimal(0);
      for (const p of v.positions) {
        if (p.symbol === symbol) net = p.side === 'LONG' ? net.plus(p.qty) : net.minus(p.qty);
      }
      positions.push({ symbol, qty: net.toFixed(), unit: 'contracts' });
    }
    const { realized, unrealized } = pnlOf(src, symbols);
    const pnl: Record<string, string> = {};
    for (const [asset, x] of [...Object.entries(realized), ...Object.entries(unrealized)]) pnl[asset] = new Decimal(pnl[asset] ?? '0').plus(x).toFixed();
    return { id: s.id, state: s.state, openOrders: working.filter((o) => o.strategyId === s.id).length, positions, pnl };
  });
}

/** Realized and unrealized PnL of the symbols, by the asset they are counted in (quote for spot, margin token for contracts). */
function pnlOf(src: ViewSources, symbols: readonly string[]): { realized: Record<string, string>; unrealized: Record<string, string> } {
  const v = src.portfolio.view();
  const realized: Record<string, string> = {};
  const unrealized: Record<string, string> = {};
  const add = (into: Record<string, string>, asset: string, x: string | undefined): void => {
    if (x !== undefined) into[asset] = new Decimal(into[asset] ?? '0').plus(x).toFixed();
  };
  for (const symbol of symbols) {
    const inst = src.instruments.get(symbol);
    if (inst === undefined) continue;
    const asset = inst.kind === 'spot' ? inst.quoteAsset : inst.marginToken ?? inst.quoteAsset;
    add(realized, asset, v.realized[symbol]);
    for (const i of v.inventory) if (i.symbol === symbol) add(unrealized, asset, i.unrealizedPnl);
    for (const p of v.positions) if (p.symbol === symbol) add(unrealized, asset, p.unrealizedPnl);
  }
  return { realized, unrealized };
}

function sum(xs: readonly string[]): string {
  return xs.reduce((a, x) => a.plus(x), new Decimal(0)).toFixed();
}

/** Read-only views of the executor's books, orders and account: the one a strategy gets (its own book and orders, the account's balances) and the lines of the status. */
import { Decimal, formatDown } from '../core/fixed.ts';
import type { BookPnl, Instrument } from '../model/index.ts';
import type { OrderFeed } from '../execution/order-feed.ts';
import type { Portfolio } from '../execution/portfolio/portfolio.ts';
import { pnlAsset, type StrategyBooks } from '../execution/strategy-book.ts';
import type { PortfolioView, StrategyStatus } from '../strategy/index.ts';
import type { AssetPnl, StrategyLine } from './status.ts';

/** What the views read. */
export interface ViewSources {
  readonly portfolio: Portfolio;
  readonly feed: OrderFeed;
  readonly books: StrategyBooks;
  readonly instruments: ReadonlyMap<string, Instrument>;
  /** A strategy's accounting asset, when the config names one. */
  readonly accountingAsset?: (strategyId: string) => string | undefined;
}

/** Returns the read-only portfolio view of one strategy: the account's balances, its own book, orders and PnL. */
export function strategyView(src: ViewSources, strategyId: string, symbols: readonly string[]): PortfolioView {
  return {
    balance(asset, account = 'spot') {
      const v = src.portfolio.view();
      if (account === 'spot') return v.spot[asset] ?? { free: '0', locked: '0' };
      const c = v.contract[asset];
      if (c === undefined) return { free: '0', locked: '0' };
      // The bot's figure carries inverse PnL exactly; the strategy reads it as the venue's account shows it, at the margin precision rounded down.
      const scale = marginScale(src.instruments, asset);
      const shown = (d: string): Decimal => (scale === undefined ? new Decimal(d) : new Decimal(formatDown(new Decimal(d), scale)));
      const free = shown(c.availableMargin);
      return { free: free.toFixed(), locked: shown(c.total).minus(free).toFixed() };
    },
    positions(symbol) {
      return src.books.symbol(strategyId, symbol).sides.map((s) => ({ symbol, side: s.side, quantity: s.qty, avgPrice: s.avgPrice }));
    },
    book: (symbol) => src.books.symbol(strategyId, symbol),
    openOrders: (symbol) => src.feed.open(strategyId, symbol),
    pnl: () => src.books.pnl(strategyId, symbols, src.accountingAsset?.(strategyId)),
  };
}

/** Returns the decimals of a margin token: the finest margin precision of the contracts margined in it; undefined when none is. */
function marginScale(instruments: ReadonlyMap<string, Instrument>, token: string): number | undefined {
  let scale: number | undefined;
  for (const i of instruments.values()) {
    if (i.marginToken === token && i.marginPrecision !== undefined) scale = Math.max(scale ?? 0, i.marginPrecision);
  }
  return scale;
}

/** Returns the status line fields of each strategy: its own working orders (unknown outcomes left out), net positions and PnL gross, fees and net. */
export function statusLines(src: ViewSources, strategies: readonly StrategyStatus[], symbolsOf: (id: string) => readonly string[]): StrategyLine[] {
  return strategies.map((s) => {
    const symbols = symbolsOf(s.id);
    const positions: { symbol: string; qty: string; unit: string }[] = [];
    for (const symbol of symbols) {
      const inst = src.instruments.get(symbol);
      if (inst === undefined) continue;
      positions.push({ symbol, qty: src.books.symbol(s.id, symbol).net, unit: inst.kind === 'spot' ? inst.baseAsset : 'contracts' });
    }
    const p = src.books.pnl(s.id, symbols, src.accountingAsset?.(s.id));
    // What cannot be priced in the accounting asset is shown in its own, each asset over the symbols counted in it.
    const others = p.unconverted.map((asset) => src.books.pnl(s.id, symbols.filter((x) => src.instruments.has(x) && pnlAsset(src.instruments.get(x)!) === asset), asset));
    return { id: s.id, state: s.state, openOrders: src.feed.open(s.id).length, positions, pnl: assetPnl(p), otherPnl: others.map(assetPnl) };
  });
}

/** Returns a book's PnL as a status line shows it: gross is realized before fees plus unrealized. */
function assetPnl(p: BookPnl): AssetPnl {
  return { asset: p.asset, gross: new Decimal(p.realizedGross).plus(p.unrealized).toFixed(), fees: p.fees, net: p.net };
}

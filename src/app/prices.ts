/** Keeps the portfolio's last and mark prices (the risk gate's price band, unrealized PnL): seeded from REST at start, then moved by trades and index pushes. */
import { addScaled, compareDecimal, Decimal, isDecimalString, scaled, scaledText } from '../core/fixed.ts';
import type { Logger } from '../core/logger.ts';
import type { EventBus } from '../bus/index.ts';
import type { Instrument } from '../model/index.ts';
import type { Portfolio } from '../execution/portfolio/portfolio.ts';
import type { VenueRestClient } from '../venue/rest-client.ts';

/** Reads the last price (and, for contracts, the index as mark) of each symbol once; a symbol whose read fails waits for its first trade. */
export async function seedPrices(rest: VenueRestClient, portfolio: Portfolio, symbols: readonly string[], instruments: ReadonlyMap<string, Instrument>, log: Logger): Promise<void> {
  for (const symbol of new Set(symbols)) {
    const inst = instruments.get(symbol);
    if (inst === undefined) continue;
    try {
      if (inst.kind === 'spot') {
        const t = await rest.tickerPrice({ symbol });
        const last = Array.isArray(t) ? undefined : (t as { price: string }).price;
        // A venue with no trade yet answers 0: no reference beats a wrong one.
        if (last !== undefined && compareDecimal(last, '0') > 0) portfolio.setPrice(symbol, { last });
        continue;
      }
      const t = await rest.contractTicker24hr({ symbol });
      const one = Array.isArray(t) ? t.find((x) => x.symbol === symbol) : t;
      if (one !== undefined && compareDecimal(one.lastPrice, '0') > 0) portfolio.setPrice(symbol, { last: one.lastPrice });
      if (inst.index !== undefined) {
        const idx = await rest.contractIndex({ symbols: inst.index });
        const mark = idx.index[inst.index];
        if (mark !== undefined && compareDecimal(mark, '0') > 0) portfolio.setPrice(symbol, { mark });
      }
    } catch (err) {
      log.warn({ symbol, err: String(err) }, 'no starting price: the price band waits for the first trade');
    }
  }
}

/** Moves last prices with trades, spot mids with books, and contracts' marks with their index pushes. */
export function followPrices(bus: EventBus, portfolio: Portfolio, instruments: ReadonlyMap<string, Instrument>): void {
  bus.subscribe('trade', (ev) => portfolio.setPrice(ev.symbol, { last: ev.price }), { label: 'prices' });
  // The best prices each mid was taken from: most books move below the top, and then the mid is the same.
  const tops = new Map<string, { bid: string; ask: string }>();
  bus.subscribe('depthSnapshot', (ev) => {
    const bid = ev.bids[0]?.[0];
    const ask = ev.asks[0]?.[0];
    if (bid === undefined || ask === undefined || instruments.get(ev.symbol)?.kind !== 'spot') return;
    const top = tops.get(ev.symbol);
    if (top !== undefined && top.bid === bid && top.ask === ask) return;
    if (compareDecimal(bid, ask) >= 0) return;
    tops.set(ev.symbol, { bid, ask });
    portfolio.setPrice(ev.symbol, { mid: midOf(bid, ask) });
  }, { label: 'mids' });
  const byIndex = new Map<string, string[]>();
  for (const i of instruments.values()) if (i.index !== undefined) byIndex.set(i.index, [...(byIndex.get(i.index) ?? []), i.symbol]);
  bus.subscribe('index', (ev) => {
    for (const contract of byIndex.get(ev.symbol) ?? []) portfolio.setPrice(contract, { mark: ev.index });
  }, { label: 'marks' });
}

/** Returns (bid + ask) ÷ 2 exactly, as decimal.js's toFixed() writes it (no trailing zeros): halving a scaled sum needs at most one more decimal. */
function midOf(bid: string, ask: string): string {
  if (!isDecimalString(bid) || !isDecimalString(ask)) return new Decimal(bid).plus(ask).div(2).toFixed();
  const sum = addScaled(scaled(bid), scaled(ask));
  return sum.units % 2n === 0n ? scaledText({ units: sum.units / 2n, scale: sum.scale }) : scaledText({ units: sum.units * 5n, scale: sum.scale + 1 });
}

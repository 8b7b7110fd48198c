// Paper trading on a real recording: the committed Binance sample replayed by the simulated venue (market: replay) reaches a bot over REST and the market WebSocket as the same book, level by level, as a direct replay of the catalog.
import { afterEach, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { ReplayMarket } from '../../src/app/replay-market.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { createLogger } from '../../src/core/logger.ts';
import { replay } from '../../src/data/replay.ts';
import type { BusEvent, Level } from '../../src/model/index.ts';
import { loadVenueConfig, type VenueConfig } from '../../src/sim/server/config.ts';
import { startVenue, type RunningVenue } from '../../src/sim/server/start.ts';
import { MarketWsClient } from '../../src/venue/market-ws.ts';
import { VenueRestClient } from '../../src/venue/rest-client.ts';

const CATALOG = resolve('backtest/data/binance-samples');
/** The first recorded BTCUSDT book change of the sample (catalog.json), where the venue's replay starts by default. */
const FIRST_BOOK_NS = 1723161253937085768n;
const T0 = 1_800_000_000_000;
const KEY = 'tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW';
const SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
const LEVELS = 100;

/** Lets socket I/O run without moving virtual time; fails after `maxWallMs` (a hang, never a slow machine: nothing here waits on time). */
async function waitFor(what: string, probe: () => boolean, maxWallMs = 60_000): Promise<void> {
  const start = performance.now();
  while (!probe()) {
    if (performance.now() - start > maxWallMs) throw new Error(`${what}: not seen`);
    await new Promise<void>((r) => setImmediate(r));
  }
}

/** The recording read straight from the catalog: each BTCUSDT event with its receive time (µs). */
async function directReplay(): Promise<{ ev: BusEvent; us: number }[]> {
  const out: { ev: BusEvent; us: number }[] = [];
  await replay({ catalog: CATALOG, symbols: ['BTCUSDT'], tables: ['book_deltas', 'trades'], from: FIRST_BOOK_NS, sink: (ev, us) => out.push({ ev, us }) });
  return out;
}

/** A book built from depth events by hand: a snapshot replaces it, a diff sets or removes levels. */
class DirectBook {
  private readonly sides = [new Map<string, string>(), new Map<string, string>()] as const;

  apply(ev: BusEvent): void {
    if (ev.kind !== 'depthSnapshot' && ev.kind !== 'depthUpdate') return;
    if (ev.kind === 'depthSnapshot') for (const s of this.sides) s.clear();
    for (const [i, levels] of [ev.bids, ev.asks].entries()) {
      for (const [p, q] of levels) {
        if (/^0(\.0*)?$/.test(q)) this.sides[i]!.delete(p);
        else this.sides[i]!.set(p, q);
      }
    }
  }

  /** Returns the best `n` levels of a side with the venue's number texts (the test compares texts, so it parses only to sort and to drop trailing zeros). */
  top(side: 0 | 1, n: number): Level[] {
    const norm = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
    return [...this.sides[side].entries()]
      .sort(([a], [b]) => (side === 0 ? Number(b) - Number(a) : Number(a) - Number(b)))
      .slice(0, n)
      .map(([p, q]) => [norm(p), norm(q)]);
  }
}

let venue: RunningVenue | undefined;
let ws: MarketWsClient | undefined;
let rest: VenueRestClient | undefined;
afterEach(async () => {
  await ws?.stop();
  await rest?.close();
  await venue?.stop();
  ws = undefined;
  rest = undefined;
  venue = undefined;
});

/** Starts the committed paper venue (config/paper-venue.yaml) on a virtual clock with its replayed market. */
async function startPaperVenue(over: Partial<NonNullable<VenueConfig['market']>> = {}): Promise<{ clock: VirtualClock; market: ReplayMarket; logs: string[] }> {
  const config = loadVenueConfig('config/paper-venue.yaml');
  const clock = new VirtualClock(T0);
  const logs: string[] = [];
  const log = createLogger({ destination: { write: (line: string) => void logs.push((JSON.parse(line) as { msg: string }).msg) } });
  const market = new ReplayMarket({ ...config.market!, ...over }, clock, log);
  venue = await startVenue({ config, clock, host: '127.0.0.1', port: 0, feed: (v) => market.attach(v) });
  rest = new VenueRestClient({ baseUrl: venue.server.restUrl, apiKey: KEY, secret: SECRET, clock });
  return { clock, market, logs };
}

describe('paper trading on the committed recording', () => {
  it('serves a bot over REST and the market WebSocket the same book, level by level, as a direct replay of the catalog at the same instants', async () => {
    const recording = await directReplay();
    const firstUs = recording[0]!.us;
    const { clock, market } = await startPaperVenue();
    ws = new MarketWsClient({ wsUrl: venue!.server.wsUrl, clock, sink: () => undefined, backoff: { initialMs: 200, maxMs: 2000, seed: 7 } });
    const book = ws.watchBook('BTCUSDT');
    ws.start();
    await waitFor('market socket ready', () => ws!.state === 'ready');

    const direct = new DirectBook();
    let next = 0;
    let compared = 0;
    // Instants on the venue's 300 ms diff cadence (its pushes start when the socket connects at T0): every 3 s through the recording.
    const endUs = recording[recording.length - 1]!.us;
    for (let t = T0 + 3000; T0 + (endUs - firstUs) / 1000 + 3000 > t; t += 3000) {
      await market.readThrough(t);
      await clock.advanceTo(t);
      // The recorded events the venue's clock has reached: due at T0 + (receive time − first receive time), speed 1.
      while (next < recording.length && T0 + (recording[next]!.us - firstUs) / 1000 <= t) direct.apply(recording[next++]!.ev);
      const want = { bids: direct.top(0, LEVELS), asks: direct.top(1, LEVELS) };
      const got = await rest!.depth({ symbol: 'BTCUSDT', limit: LEVELS });
      expect({ at: t, bids: got.bids, asks: got.asks }).toEqual({ at: t, ...want });
      // The push at this instant reaches the bot's own book (built from the snapshot and every diff since).
      await waitFor(`the bot's book at ${t}`, () => JSON.stringify(book.bids(LEVELS)) === JSON.stringify(want.bids) && JSON.stringify(book.asks(LEVELS)) === JSON.stringify(want.asks), 30_000)
        .catch(() => expect({ at: t, bids: book.bids(LEVELS), asks: book.asks(LEVELS) }).toEqual({ at: t, ...want }));
      compared++;
      if (process.env.DBG) console.log(t - T0, next, want.bids.length, want.asks.length, want.bids[0], want.asks[0], book.stats());
    }
    expect(next).toBe(recording.length);
    expect(compared).toBeGreaterThanOrEqual(39);
    expect(book.stats().gaps).toBe(0);
  });
});

/** Matching-engine throughput: one seeded workload of adds, cancels and marketable orders on SimVenue (accounts and fees settled) and on nodejs-order-book. */
import { OrderBook as PeerBook, Side } from 'nodejs-order-book';
import { VirtualClock } from '../src/core/clock.ts';
import { VenueError } from '../src/core/errors.ts';
import { Rng } from '../src/core/random.ts';
import { SimVenue } from '../src/sim/engine/venue.ts';

const OPS = 200_000;
const MAKERS = 4;
const MID = 1_000_000; // ticks of 0.01: a price of 10 000.00

type Op =
  | { k: 'add'; who: number; side: 'BUY' | 'SELL'; ticks: number; lots: number }
  | { k: 'cancel'; target: number }
  | { k: 'take'; side: 'BUY' | 'SELL'; lots: number };

/** Returns the seeded operation sequence: 55% resting limit adds, 25% cancels of an earlier add, 20% marketable orders. */
export function workload(seed: number): Op[] {
  const rng = new Rng(seed);
  const ops: Op[] = [];
  let adds = 0;
  for (let i = 0; i < OPS; i++) {
    const r = rng.next();
    if (r < 0.55 || adds === 0) {
      const side = rng.chance(0.5) ? 'BUY' : 'SELL';
      const off = 1 + rng.int(0, 49);
      ops.push({ k: 'add', who: rng.int(0, MAKERS - 1), side, ticks: side === 'BUY' ? MID - off : MID + off, lots: rng.int(1, 20) });
      adds++;
    } else if (r < 0.8) {
      ops.push({ k: 'cancel', target: rng.int(0, adds - 1) });
    } else {
      ops.push({ k: 'take', side: rng.chance(0.5) ? 'BUY' : 'SELL', lots: rng.int(1, 30) });
    }
  }
  return ops;
}

function mix(ops: Op[]): string {
  const n = { add: 0, cancel: 0, take: 0 };
  for (const o of ops) n[o.k]++;
  return `adds ${n.add} (${pct(n.add)}), cancels ${n.cancel} (${pct(n.cancel)}), marketable ${n.take} (${pct(n.take)})`;
}

function pct(n: number): string {
  return `${((100 * n) / OPS).toFixed(1)}%`;
}

function price(ticks: number): string {
  return `${Math.floor(ticks / 100)}.${String(ticks % 100).padStart(2, '0')}`;
}

function qty(lots: number): string {
  return `${Math.floor(lots / 1000)}.${String(lots % 1000).padStart(3, '0')}`;
}

const BTCUSDT = {
  symbol: 'BTCUSDT', status: 'TRADING', baseAsset: 'BTC', baseAssetPrecision: '0.001', quoteAsset: 'USDT', quotePrecision: '0.01', icebergAllowed: false,
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '10000', stepSize: '0.001' },
    { filterType: 'MIN_NOTIONAL', minNotional: '1' },
  ],
};

/** Parameters of one op as the REST layer would hand them over (strings); undefined for a cancel. */
export type OpParams = ({ symbol: string; side: string; type: string; quantity: string; price: string; timeInForce?: string } | undefined)[];

/** Returns the parameters of every op, made once before any timed run (the engine does not change them). */
export function paramsOf(ops: Op[]): OpParams {
  return ops.map((o) =>
    o.k === 'add'
      ? { symbol: 'BTCUSDT', side: o.side, type: 'LIMIT', quantity: qty(o.lots), price: price(o.ticks) }
      : o.k === 'take'
        ? { symbol: 'BTCUSDT', side: o.side, type: 'LIMIT', timeInForce: 'IOC', quantity: qty(o.lots), price: price(o.side === 'BUY' ? MID * 2 : MID / 2) }
        : undefined,
  );
}

/** Runs the workload on SimVenue; returns ops/s and counts. */
export function runOurs(ops: Op[], listen: boolean, params: OpParams = paramsOf(ops)): { opsPerSec: number; events: number; refused: number; refusedOrders: number } {
  const deposits = { BTC: '1000000', USDT: '100000000000' };
  const accounts = [...Array(MAKERS + 1).keys()].map((i) => ({ name: `u${i}`, deposits }));
  const venue = new SimVenue({ seed: 1, instruments: { symbols: [BTCUSDT] }, accounts, keepEventLog: false }, new VirtualClock(1_700_000_000_000));
  const acc = accounts.map((a) => venue.accountOf(venue.user(a.name)));
  // The ids of added orders and their owners, as a client keeps them to cancel later (no object per order).
  const addedIds: string[] = [];
  const addedWho = new Uint8Array(ops.length);
  let events = 0;
  if (listen) venue.subscribe(() => events++);
  let refused = 0;
  let refusedOrders = 0;
  const t0 = performance.now();
  for (let i = 0; i < ops.length; i++) {
    const o = ops[i]!;
    try {
      if (o.k === 'add') {
        addedWho[addedIds.length] = o.who;
        addedIds.push(venue.newSpotOrder(acc[o.who]!, params[i]!).orderId);
      }
      else if (o.k === 'take') venue.newSpotOrder(acc[MAKERS]!, params[i]!);
      else {
        // The engine's non-throwing cancel, as a driver expecting refusals uses it (the REST edge throws).
        if (venue.tryCancelSpotOrder(acc[addedWho[o.target]!]!, { orderId: addedIds[o.target]! }) !== 0) refused++;
      }
    } catch (e) {
      if (!(e instanceof VenueError)) throw e;
      refusedOrders++;
    }
  }
  const ms = performance.now() - t0;
  const audit = venue.ledger.audit();
  for (const a of audit) if (a.users + a.fees + a.insurance + a.clearing !== a.inflow - a.outflow) throw new Error(`funds not conserved in ${a.asset}`);
  if (refusedOrders > 0) throw new Error(`${refusedOrders} orders of the workload were refused: the workload is not what it claims`);
  return { opsPerSec: (ops.length / ms) * 1000, events, refused, refusedOrders };
}

/** Returns the peer's order ids, made once before any timed run. */
function peerIds(ops: Op[]): string[] {
  return ops.map((o, i) => (o.k === 'add' ? `o${i}` : ''));
}

/** Runs the same workload on nodejs-order-book (marketable orders as its market orders). */
function runPeer(ops: Op[], ids: string[] = peerIds(ops)): number {
  const book = new PeerBook();
  const addIds: string[] = [];
  const t0 = performance.now();
  for (let i = 0; i < ops.length; i++) {
    const o = ops[i]!;
    if (o.k === 'add') {
      book.limit({ id: ids[i]!, side: o.side === 'BUY' ? Side.BUY : Side.SELL, size: o.lots, price: o.ticks });
      addIds.push(ids[i]!);
    } else if (o.k === 'take') {
      book.market({ side: o.side === 'BUY' ? Side.BUY : Side.SELL, size: o.lots });
    } else {
      book.cancel(addIds[o.target]!);
    }
  }
  const ms = performance.now() - t0;
  return (ops.length / ms) * 1000;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Prints both throughputs and the ratio: the median of five alternating runs of each (a shared machine varies run to run), so neither side always runs on the other's garbage. */
export async function run(): Promise<void> {
  const ops = workload(20200927);
  console.log(`engine workload: ${OPS} ops, mix: ${mix(ops)}`);
  console.log('  ours = SimVenue spot: string params parsed and validated, funds locked, every fill settled with fees in the ledger, balances checked conserved at the end');
  // One warm-up pass each on a shorter prefix so both run JIT-compiled.
  runOurs(ops.slice(0, 20_000), true);
  runOurs(ops.slice(0, 20_000), false);
  runPeer(ops.slice(0, 20_000));
  // Inputs of both sides made once, so neither timed loop copies the harness's fresh objects.
  const params = paramsOf(ops);
  const ids = peerIds(ops);
  const quiet: number[] = [];
  const peers: number[] = [];
  let refused = 0;
  for (let i = 0; i < 5; i++) {
    const q = runOurs(ops, false, params);
    refused = q.refused;
    quiet.push(q.opsPerSec);
    peers.push(runPeer(ops, ids));
  }
  const heard = runOurs(ops, true, params);
  const ours = median(quiet);
  const peer = median(peers);
  const list = (xs: number[]): string => xs.map((x) => Math.round(x)).join(', ');
  console.log(`  ours with no event listener (event bodies not built):    ${Math.round(ours)} ops/s (median of ${list(quiet)}; ${refused} refused cancels of filled or cancelled orders)`);
  console.log(`  nodejs-order-book (no accounts, no events):               ${Math.round(peer)} ops/s (median of ${list(peers)})`);
  console.log(`  ours with every event built and published to a listener: ${Math.round(heard.opsPerSec)} ops/s (${heard.events} events)`);
  console.log(`bench engine: ${Math.round(ours)} ops/s vs nodejs-order-book ${Math.round(peer)} ops/s, ratio ${(ours / peer).toFixed(2)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

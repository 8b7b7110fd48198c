// The backtest gateway words each refusal as the simulated venue (and so the live client) does for its code: `venue -1158: create limit maker order failed`, not a text of its own.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { VenueError } from '../../../src/core/errors.ts';
import { BacktestExchange, constantLatency, riskAverse, SpotAccount } from '../../../src/backtest/index.ts';
import { ContractAccount } from '../../../src/backtest/exchange/contract-account.ts';
import { ExchangeGateway, type GatewayMarket } from '../../../src/backtest/run/exchange-gateway.ts';
import { simInstrumentOf } from '../../../src/backtest/run/instruments.ts';
import { reject } from '../../../src/sim/engine/reject.ts';
import type { ContractOrderRequest, SpotOrderRequest } from '../../../src/model/index.ts';
import { contractInstrument } from '../fixtures.ts';

const BTCUSDT = { symbol: 'BTCUSDT', kind: 'spot', tick: '0.01', lot: '0.0001', multiplier: '1', base: 'BTC', quote: 'USDT', margin: 'USDT', contiguousVersions: true } as const;

/** Runs the clock until `p` settles and returns the VenueError it rejected with. */
async function refusedOn(clock: VirtualClock, p: Promise<unknown>): Promise<VenueError> {
  let done = false;
  const out = p.then(() => undefined, (e: unknown) => e).finally(() => {
    done = true;
  });
  for (let i = 0; i < 100 && !done; i++) await clock.advance(5);
  const e = await out;
  if (!(e instanceof VenueError)) throw new Error(`not refused: ${String(e)}`);
  return e;
}

/** A gateway on one market with 10 ms latency each way, a recorded ask at 60000.00 and a bid at 59999.00, 100000 USDT and no BTC. */
function setup() {
  const clock = new VirtualClock(1_000_000);
  const inst = simInstrumentOf(BTCUSDT);
  const account = new SpotAccount({ clock, inst, balances: { USDT: '100000' }, makerFee: '0', takerFee: '0.001' });
  const late: { gw?: ExchangeGateway } = {};
  const exchange = new BacktestExchange({ clock, inst, queue: riskAverse, latency: constantLatency(10, 10), account, onReport: (r) => late.gw?.onReport('BTCUSDT', r) });
  exchange.onRecorded({ kind: 'depth', time: clock.now(), side: 1, priceTicks: 6_000_000, lots: 1_000_000 });
  exchange.onRecorded({ kind: 'depth', time: clock.now(), side: 0, priceTicks: 5_999_900, lots: 1_000_000 });
  const market: GatewayMarket = { inst, exchange, account };
  const gw = new ExchangeGateway(clock, [market], () => undefined, { order: () => undefined, fill: () => undefined });
  late.gw = gw;
  /** Runs the clock until `p` settles and returns what it rejected with. */
  const refusal = (p: Promise<unknown>): Promise<VenueError> => refusedOn(clock, p);
  const settle = async (p: Promise<unknown>): Promise<void> => {
    let done = false;
    void p.finally(() => {
      done = true;
    });
    for (let i = 0; i < 100 && !done; i++) await clock.advance(5);
    await p;
  };
  return { gw, refusal, settle };
}

let n = 0;
const order = (o: Partial<SpotOrderRequest>): SpotOrderRequest => ({ account: 'spot', symbol: 'BTCUSDT', clientOrderId: `o${++n}`, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000.00', quantity: '0.0010', ...o } as SpotOrderRequest);
const spotRef = (clientOrderId: string) => ({ account: 'spot' as const, symbol: 'BTCUSDT', clientOrderId });
/** The text the live client gives for the simulated venue's answer with `code`. */
const simulated = (code: number, args: string[] = []): string => `venue ${code}: ${reject(code, args).message}`;

describe('the backtest gateway\'s refusal texts', () => {
  it('gives a crossing LIMIT_MAKER the text the live client gives', async () => {
    const { gw, refusal } = setup();
    const e = await refusal(gw.place(order({ type: 'LIMIT_MAKER', price: '60000.00', timeInForce: undefined })));
    expect(e.venueCode).toBe(-1158);
    expect(e.message).toBe('venue -1158: create limit maker order failed');
  });

  it('words every code the exchange and the gateway refuse with as the simulated venue does', async () => {
    const { gw, refusal, settle } = setup();
    await settle(gw.place(order({ clientOrderId: 'filled', price: '60000.00' })));
    await settle(gw.place(order({ clientOrderId: 'resting' })));
    await settle(gw.cancel(spotRef('resting')));
    const cases: [string, () => Promise<unknown>, number, string[]?][] = [
      // Refused by the exchange, after the entry latency.
      ['maker that would take', () => gw.place(order({ type: 'LIMIT_MAKER', price: '60000.00', timeInForce: undefined })), -1158],
      ['balance insufficient', () => gw.place(order({ price: '59000.00', quantity: '10' })), -1131],
      ['sell without the base', () => gw.place(order({ side: 'SELL', price: '61000.00', quantity: '1' })), -1131],
      ['cancel of a filled order', () => gw.cancel(spotRef('filled')), -1139],
      ['cancel of a cancelled order', () => gw.cancel(spotRef('resting')), -1142],
      // Refused by the gateway before sending.
      ['price off the tick', () => gw.place(order({ price: '59000.001' })), -1134],
      ['price too high', () => gw.place(order({ price: '200000000.00' })), -1132],
      ['quantity too large', () => gw.place(order({ quantity: '200000000' })), -1135],
      ['price not a number', () => gw.place(order({ price: 'abc' })), -1130, ['price']],
      ['quantity off the step', () => gw.place(order({ quantity: '0.00011' })), -1137],
      ['quantity not a number', () => gw.place(order({ quantity: 'x' })), -1130, ['quantity']],
      ['market buy by quote of 0', () => gw.place(order({ type: 'MARKET', price: undefined, timeInForce: undefined, quantity: '0' })), -1137],
      ['duplicate clientOrderId', () => gw.place(order({ clientOrderId: 'filled' })), -1141],
      ['cancel of an unknown order', () => gw.cancel(spotRef('nope')), -2013],
      ['query of an unknown order', () => gw.getOrder(spotRef('nope')), -2013],
    ];
    for (const [name, p, code, args] of cases) {
      const e = await refusal(p()).catch((err: unknown) => { throw new Error(`${name}: ${String(err)}`); });
      expect(e.venueCode, name).toBe(code);
      expect(e.message, name).toBe(simulated(code, args));
    }
    // A code the simulated venue never sends (it answers an unknown symbol with -1130) keeps venue-errors.md's text.
    const unknown = await refusal(gw.place(order({ symbol: 'NOPEUSDT' })));
    expect(unknown.message).toBe('venue -1121: Invalid symbol.');
  });

  it('names the parameter in a contract order\'s -1105 as the simulated venue does, with the other enum and type codes', async () => {
    const clock = new VirtualClock(1_000_000);
    const inst = contractInstrument();
    const account = new ContractAccount({ clock, inst, balance: '10', fees: { maker: '0', taker: '0' } });
    const late: { gw?: ExchangeGateway } = {};
    const exchange = new BacktestExchange({ clock, inst, queue: riskAverse, latency: constantLatency(10, 10), account, onReport: (r) => late.gw?.onReport(inst.symbol, r) });
    exchange.onRecorded({ kind: 'depth', time: clock.now(), side: 1, priceTicks: 800_200, lots: 1_000 });
    exchange.onRecorded({ kind: 'depth', time: clock.now(), side: 0, priceTicks: 800_000, lots: 1_000 });
    const gw = new ExchangeGateway(clock, [{ inst, exchange, account }], () => undefined, { order: () => undefined, fill: () => undefined });
    late.gw = gw;
    let k = 0;
    const c = (o: Partial<ContractOrderRequest> & Record<string, unknown>): ContractOrderRequest => ({
      account: 'contract', symbol: inst.symbol, clientOrderId: `k${++k}`, side: 'BUY_OPEN', orderType: 'LIMIT', priceType: 'INPUT', quantity: '1', price: '7000', leverage: '10', ...o,
    } as ContractOrderRequest);
    const cases: [string, ContractOrderRequest, number, string[]?][] = [
      ['STOP without a trigger price', c({ orderType: 'STOP' }), -1105, ['triggerPrice']],
      ['bad side', c({ side: 'BUY' as never }), -1117],
      ['bad order type', c({ orderType: 'STOP_LIMIT' as never }), -1116],
      ['bad time in force', c({ timeInForce: 'GTX' as never }), -1115],
      ['bad price type', c({ priceType: 'BEST' as never, price: undefined }), -1154],
      ['close above the position', c({ side: 'SELL_CLOSE', leverage: undefined }), -1156],
    ];
    for (const [name, req, code, args] of cases) {
      const e = await refusedOn(clock, gw.place(req));
      expect(e.venueCode, name).toBe(code);
      expect(e.message, name).toBe(simulated(code, args));
    }
  });
});

import { describe, expect, it } from 'vitest';
import { FundingSchedule, IndexPrices, settleFunding, type Positions } from '../../../src/sim/contracts/index.ts';
import { fmtAmount, toAmount, type Amount, type Ledger } from '../../../src/sim/ledger/index.ts';
import { inverseSpec, world } from './fixtures.ts';

const A = toAmount;
const SYMBOL = 'BTC-PERP-REV';

function open(positions: Positions, acct: string, side: 'LONG' | 'SHORT', qty: string, price: string): void {
  const lock = positions.lockOrderMargin(acct, SYMBOL, A(qty), A(price), A('10'));
  positions.openFill({ accountId: acct, symbol: SYMBOL, side, qty: A(qty), price: A(price), leverage: A('10'), isMaker: false, release: lock });
}

function total(ledger: Ledger): Amount {
  const a = ledger.audit().find((x) => x.asset === 'TBTC')!;
  return a.users + a.fees + a.insurance + a.clearing - (a.inflow - a.outflow);
}

describe('funding', () => {
  it('moves position value × rate from the long to the short when the rate is positive, and back when negative', () => {
    const { positions, ledger, trader } = world([inverseSpec()]);
    const long = trader('TBTC', '1');
    const short = trader('TBTC', '1');
    open(positions, long, 'LONG', '1000', '10000');
    open(positions, short, 'SHORT', '1000', '10000');
    const freeLong = ledger.balance(long, 'TBTC').free;
    const freeShort = ledger.balance(short, 'TBTC').free;
    // value 1000 / 10000 = 0.1; 0.1 × 0.0001 = 0.00001
    const r = settleFunding(positions, SYMBOL, A('0.0001'), A('10000'));
    expect(r).toEqual({
      payments: [{ accountId: long, side: 'LONG', amount: A('-0.00001') }, { accountId: short, side: 'SHORT', amount: A('0.00001') }].sort((x, y) => (x.accountId < y.accountId ? -1 : 1)),
      collected: A('0.00001'), paid: A('0.00001'), residue: 0n, unpaid: 0n,
    });
    expect(ledger.balance(long, 'TBTC').free).toBe(freeLong - A('0.00001'));
    expect(ledger.balance(short, 'TBTC').free).toBe(freeShort + A('0.00001'));
    expect(ledger.flows(long, 'TBTC').at(-1)).toMatchObject({ flowType: 'FUNDING_SETTLEMENT', change: A('-0.00001') });
    expect(ledger.flows(short, 'TBTC').at(-1)).toMatchObject({ flowType: 'FUNDING_SETTLEMENT', change: A('0.00001') });
    settleFunding(positions, SYMBOL, A('-0.0002'), A('10000'));
    expect(ledger.balance(long, 'TBTC').free).toBe(freeLong + A('0.00001'));
    expect(ledger.balance(short, 'TBTC').free).toBe(freeShort - A('0.00001'));
    expect(positions.get(short, SYMBOL, 'SHORT')!.realizedPnl - positions.get(long, SYMBOL, 'LONG')!.realizedPnl).toBe(A('-0.00002'));
    expect(total(ledger)).toBe(0n);
  });

  it('rounds the payer up and the receiver down and puts the residue in the insurance fund', () => {
    const { positions, ledger, trader } = world([inverseSpec()]);
    const long = trader('TBTC', '1');
    const short = trader('TBTC', '1');
    open(positions, long, 'LONG', '1000', '30000');
    open(positions, short, 'SHORT', '1000', '30000');
    // value 1000/30000 = 0.0333…; × 0.0001 = 0.00000333…: the long pays …334, the short gets …333
    const r = settleFunding(positions, SYMBOL, A('0.0001'), A('30000'));
    expect(r.collected - r.paid).toBe(1n);
    expect(r.residue).toBe(1n);
    expect(ledger.insuranceFund('TBTC')).toBe(1n);
    expect(ledger.insuranceRecords('TBTC')).toHaveLength(1);
    expect(ledger.pool('clearing', 'TBTC')).toBe(0n);
    expect(total(ledger)).toBe(0n);
  });

  it('takes what the payer lacks in free funds from its position margin', () => {
    const { positions, ledger, trader } = world([inverseSpec()]);
    const long = trader('TBTC', '0.01');
    const short = trader('TBTC', '1');
    open(positions, long, 'LONG', '1000', '10000'); // uses all 0.01 as margin
    open(positions, short, 'SHORT', '1000', '10000');
    expect(ledger.balance(long, 'TBTC').free).toBe(0n);
    settleFunding(positions, SYMBOL, A('0.01'), A('10000')); // 0.001
    expect(positions.get(long, SYMBOL, 'LONG')!.margin).toBe(A('0.009'));
    expect(ledger.balance(long, 'TBTC')).toEqual({ free: 0n, locked: A('0.009') });
    expect(total(ledger)).toBe(0n);
  });

  it('settles every 8 hours on the clock and records the published interval bounds, rate and index', async () => {
    const { positions, ledger, trader, clock } = world([inverseSpec()]);
    const indexes = new IndexPrices(clock);
    indexes.set('BTCUSDT', A('8243.21666667'));
    const long = trader('TBTC', '1');
    const short = trader('TBTC', '1');
    open(positions, long, 'LONG', '1000', '10000');
    open(positions, short, 'SHORT', '1000', '10000');
    const rate = A('-0.000048567445464006');
    const schedule = new FundingSchedule(clock, positions, indexes, { rate: () => rate, mark: () => A('10000') });
    // The clock starts at 1570708800000, the published intervalStart.
    expect(schedule.nextFundingTime()).toBe(1_570_737_600_000);
    schedule.start();
    const freeShort = ledger.balance(short, 'TBTC').free;
    await clock.advanceTo(1_570_737_600_000 - 1);
    expect(schedule.records()).toEqual([]);
    await clock.advanceTo(1_570_737_600_000);
    expect(schedule.records()).toEqual([{ symbol: SYMBOL, intervalStart: 1_570_708_800_000, intervalEnd: 1_570_737_600_000, rate, index: A('8243.21666667') }]);
    // Negative rate: shorts pay longs 0.1 × 0.000048567445464006, rounded up.
    expect(fmtAmount(freeShort - ledger.balance(short, 'TBTC').free)).toBe('0.000004856744546401');
    await clock.advance(8 * 3600_000);
    expect(schedule.records().map((r) => r.intervalEnd)).toEqual([1_570_737_600_000, 1_570_766_400_000]);
    expect(schedule.currentRate(SYMBOL)).toMatchObject({ intervalStart: 1_570_766_400_000, intervalEnd: 1_570_795_200_000 });
    schedule.stop();
    await clock.advance(8 * 3600_000);
    expect(schedule.records()).toHaveLength(2);
    expect(total(ledger)).toBe(0n);
  });
});

describe('index and EDP', () => {
  it('gives the latest index and the mean of the last 10 minutes as EDP', async () => {
    const { clock } = world([]);
    const idx = new IndexPrices(clock);
    expect(idx.index('BTCUSDT')).toBeUndefined();
    expect(idx.edp('BTCUSDT')).toBeUndefined();
    idx.set('BTCUSDT', A('100'));
    await clock.advance(5 * 60_000);
    idx.set('BTCUSDT', A('200'));
    await clock.advance(4 * 60_000);
    idx.set('BTCUSDT', A('300'));
    expect(idx.index('BTCUSDT')).toBe(A('300'));
    expect(idx.edp('BTCUSDT')).toBe(A('200'));
    await clock.advance(2 * 60_000); // the sample at 100 is now older than 10 minutes
    expect(idx.edp('BTCUSDT')).toBe(A('250'));
    await clock.advance(60 * 60_000);
    expect(idx.edp('BTCUSDT')).toBe(A('300'));
    idx.set('HTUSDT', A('5.0941'));
    expect(idx.symbols()).toEqual(['BTCUSDT', 'HTUSDT']);
  });
});

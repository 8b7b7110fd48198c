// The backtest exchange's contracts account on the simulated venue's ledger: funding of an inverse position over 24 h and a liquidation at flp, by hand.
import { describe, expect, it } from 'vitest';
import { ContractAccount } from '../../src/backtest/exchange/contract-account.ts';
import { VirtualClock } from '../../src/core/clock.ts';
import { fmtAmount, toAmount } from '../../src/sim/ledger/amount.ts';
import { contractInstrument, harness, limit } from './fixtures.ts';

// 2019-10-10 12:00 UTC: a funding boundary (04:00, 12:00, 20:00 UTC) of the published fundingRate sample.
const T0 = 1_570_708_800_000;
const H = 3_600_000;
const P = 800_000; // 8000.00

/** An exchange of BTC-PERP-REV (inverse, multiplier 1) at T0 settling through a contracts account holding `balance` TBTC. */
function world(balance: string, makerFee = '0', takerFee = '0') {
  const inst = contractInstrument();
  const clock = new VirtualClock(T0);
  const acc = new ContractAccount({ clock, inst, balance, fees: { maker: makerFee, taker: takerFee } });
  return { acc, h: harness({ clock, account: acc, inst }) };
}

describe('contracts account', () => {
  it('funding of an inverse position over 24 h equals the hand computation', () => {
    const { acc, h } = world('1', '0', '0');
    h.at({ kind: 'mark', time: T0, price: '8000' });
    h.at({ kind: 'depth', time: T0, side: 1, priceTicks: P, lots: 5000 });
    h.ex.submit(limit('open', 'BUY_OPEN', P, 1000, { timeInForce: 'IOC' }));
    h.clock.advanceToSync(T0);
    expect(h.fills().map((r) => [r.lastPriceTicks, r.lastLots])).toEqual([[P, 1000]]);
    // Rates per 8 h interval: +0.0001 (longs pay), −0.00005 (longs receive), +0.0002.
    const rates = new Map([[T0, '0.0001'], [T0 + 8 * H, '-0.00005'], [T0 + 16 * H, '0.0002']]);
    acc.startFunding((start) => rates.get(start) ?? '0');
    h.clock.advanceToSync(T0 + 24 * H);
    // Value of 1000 inverse contracts at 8000 = 1000 × 1 / 8000 = 0.125 TBTC.
    // Paid 0.125 × 0.0001 + 0.125 × 0.0002 = 0.0000375; received 0.125 × 0.00005 = 0.00000625.
    expect(acc.fundingRecords().map((r) => r.intervalEnd)).toEqual([T0 + 8 * H, T0 + 16 * H, T0 + 24 * H]);
    expect(fmtAmount(acc.fundingPaid)).toBe('0.0000375');
    expect(fmtAmount(acc.fundingReceived)).toBe('0.00000625');
    expect(fmtAmount(acc.balance())).toBe('0.99996875');
  });

  it('liquidates at flp: not a tick above it, at it the margin is lost and close orders end', () => {
    const { acc, h } = world('1', '0', '0');
    h.at({ kind: 'depth', time: T0, side: 1, priceTicks: P, lots: 5000 });
    h.ex.submit(limit('open', 'BUY_OPEN', P, 1000, { timeInForce: 'IOC', leverage: '10' }));
    h.clock.advanceToSync(T0);
    // Margin = value / leverage = 0.125 / 10 = 0.0125 TBTC; maintenance rate 0.005 (first tier).
    // flp (inverse long) = qty × m × (1 + mm) / (margin + qty × m / avg) = 1005 / (0.0125 + 0.125) = 7309.0909… → 7309.09 (down to the tick).
    expect(fmtAmount(acc.positions.get(acc.accountId, 'BTC-PERP-REV', 'LONG')!.margin)).toBe('0.0125');
    h.ex.submit(limit('tp', 'SELL_CLOSE', 900_000, 1000));
    h.clock.advanceToSync(T0 + 1);
    h.at({ kind: 'mark', time: T0 + 2, price: '7309.1' });
    expect(acc.liquidations).toEqual([]);
    h.at({ kind: 'mark', time: T0 + 3, price: '7309.09' });
    expect(acc.liquidations.map((l) => [fmtAmount(l.flp), fmtAmount(l.price), fmtAmount(l.margin)])).toEqual([['7309.09', '7309.09', '0.0125']]);
    expect(acc.positions.list(acc.accountId)).toEqual([]);
    expect(fmtAmount(acc.balance())).toBe('0.9875');
    expect(acc.trips.stats()).toEqual({ count: 1, wins: 0, losses: 1, grossWin: '0', grossLoss: '-0.0125' });
    expect(h.reports.filter((r) => r.clientOrderId === 'tp').map((r) => r.execType)).toEqual(['NEW', 'EXPIRED']);
  });

  it('refuses an open beyond free margin with -1131 and a close beyond the position with -1156, changing nothing', () => {
    const { acc, h } = world('0.01', '0.0002', '0.00075');
    h.ex.submit(limit('big', 'BUY_OPEN', P, 1000, { leverage: '10' }));
    h.ex.submit(limit('close', 'SELL_CLOSE', P, 1));
    h.clock.advanceToSync(T0);
    expect(h.reports.map((r) => [r.clientOrderId, r.code])).toEqual([['big', -1131], ['close', -1156]]);
    expect(acc.ledger.balance(acc.accountId, 'TBTC')).toEqual({ free: toAmount('0.01'), locked: 0n });
  });

  it('runs the venue validation: an open needs a leverage within the risk tier', () => {
    const { acc, h } = world('1');
    h.ex.submit(limit('nolev', 'BUY_OPEN', P, 10, { leverage: undefined }));
    h.ex.submit(limit('toohigh', 'BUY_OPEN', P, 10, { leverage: '101' }));
    h.ex.submit(limit('ok', 'BUY_OPEN', P, 10, { leverage: '100' }));
    h.clock.advanceToSync(T0);
    // -1105 "Parameter 'leverage' was empty."; -1130 leverage above 1 / initialMargin = 100.
    expect(h.reports.map((r) => [r.clientOrderId, r.execType, r.code])).toEqual([['nolev', 'REJECTED', -1105], ['toohigh', 'REJECTED', -1130], ['ok', 'NEW', 0]]);
    expect(acc.ledger.balance(acc.accountId, 'TBTC').locked).toBeGreaterThan(0n);
  });

  it('a STOP holds nothing while it waits; at its trigger it is priced, reserves its margin and trades, or ends when it no longer fits', () => {
    const { acc, h } = world('0.02');
    h.at({ kind: 'trade', time: T0, priceTicks: P, lots: 1, takerSide: 0 });
    h.at({ kind: 'depth', time: T0, side: 1, priceTicks: P + 200, lots: 5000 });
    h.ex.submit(limit('fits', 'BUY_OPEN', 0, 1000, { type: 'STOP', priceType: 'MARKET', triggerTicks: P + 100, leverage: '10' }));
    h.ex.submit(limit('big', 'BUY_OPEN', 0, 2000, { type: 'STOP', priceType: 'MARKET', triggerTicks: P + 100, leverage: '10' }));
    h.clock.advanceToSync(T0 + 1);
    expect(acc.ledger.balance(acc.accountId, 'TBTC')).toEqual({ free: toAmount('0.02'), locked: 0n });
    h.at({ kind: 'trade', time: T0 + 2, priceTicks: P + 100, lots: 1, takerSide: 0 });
    // MARKET prices a buy at last × 1.05 = 8505.00; it takes the ask at 8002.00. The second needs 2 × the margin and no longer fits.
    expect(h.reports.map((r) => [r.clientOrderId, r.execType, r.lastPriceTicks])).toEqual([
      ['fits', 'NEW', 0], ['big', 'NEW', 0], ['fits', 'TRIGGERED', 0], ['fits', 'TRADE', P + 200], ['big', 'TRIGGERED', 0], ['big', 'EXPIRED', 0],
    ]);
    expect(fmtAmount(acc.positions.get(acc.accountId, 'BTC-PERP-REV', 'LONG')!.position)).toBe('1000');
  });

  it('linear: PnL and fees of a round trip on BTC-PERP-BUSDT equal the hand computation', () => {
    const inst = contractInstrument('BTC-PERP-BUSDT', 'broker-info.capture-2020');
    const clock = new VirtualClock(T0);
    const acc = new ContractAccount({ clock, inst, balance: '10000', fees: { maker: '0.0002', taker: '0.00075' } });
    const h = harness({ clock, account: acc, inst });
    h.at({ kind: 'depth', time: T0, side: 1, priceTicks: 90_000, lots: 5000 });
    h.ex.submit(limit('open', 'BUY_OPEN', 90_000, 1000, { timeInForce: 'IOC', leverage: '10' }));
    h.clock.advanceToSync(T0);
    h.at({ kind: 'depth', time: T0 + 1, side: 0, priceTicks: 91_000, lots: 5000 });
    h.ex.submit(limit('close', 'SELL_CLOSE', 91_000, 1000, { timeInForce: 'IOC' }));
    h.clock.advanceToSync(T0 + 2);
    // Value 1000 × 0.0001 × 9000 = 900, taker fee 0.675; closed at 9100: PnL 1000 × 0.0001 × 100 = 10, fee 910 × 0.00075 = 0.6825.
    expect(h.fills().map((r) => [r.clientOrderId, r.fee, r.feeAsset])).toEqual([['open', '0.675', 'BUSDT'], ['close', '0.6825', 'BUSDT']]);
    expect(fmtAmount(acc.balance())).toBe('10008.6425');
    expect(acc.trips.stats()).toEqual({ count: 1, wins: 1, losses: 0, grossWin: '8.6425', grossLoss: '0' });
  });

  it('takes the mark from the recorded mid where no mark is recorded, and liquidates at flp by it', () => {
    const inst = contractInstrument();
    const clock = new VirtualClock(T0);
    const acc = new ContractAccount({ clock, inst, balance: '1', fees: { maker: '0', taker: '0' } });
    const h = harness({ clock, account: acc, inst, markFromMid: true });
    h.at({ kind: 'depth', time: T0, side: 0, priceTicks: P - 1, lots: 5000 });
    h.at({ kind: 'depth', time: T0, side: 1, priceTicks: P, lots: 5000 });
    h.ex.submit(limit('open', 'BUY_OPEN', P, 1000, { timeInForce: 'IOC', leverage: '10' }));
    h.clock.advanceToSync(T0);
    // flp 7309.09 (see above); a mid of (7309.08 + 7309.10) / 2 = 7309.09 reaches it, one a tick higher does not.
    h.at({ kind: 'depth', time: T0 + 1, side: 0, priceTicks: 730_910, lots: 5 });
    h.at({ kind: 'depth', time: T0 + 1, side: 1, priceTicks: 730_912, lots: 5 });
    h.at({ kind: 'depth', time: T0 + 1, side: 0, priceTicks: P - 1, lots: 0 });
    h.at({ kind: 'depth', time: T0 + 1, side: 1, priceTicks: P, lots: 0 });
    expect(acc.equity() > 0n && acc.liquidations.length === 0).toBe(true);
    h.at({ kind: 'depth', time: T0 + 2, side: 0, priceTicks: 730_908, lots: 5 });
    h.at({ kind: 'depth', time: T0 + 2, side: 0, priceTicks: 730_910, lots: 0 });
    h.at({ kind: 'depth', time: T0 + 2, side: 1, priceTicks: 730_910, lots: 5 });
    h.at({ kind: 'depth', time: T0 + 2, side: 1, priceTicks: 730_912, lots: 0 });
    expect(acc.liquidations.map((l) => fmtAmount(l.price))).toEqual(['7309.09']);
  });
});

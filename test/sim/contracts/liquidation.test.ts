import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/core/fixed.ts';
import { flpOf, liquidateCrossed, type Positions } from '../../../src/sim/contracts/index.ts';
import { fmtAmount, toAmount, type Ledger } from '../../../src/sim/ledger/index.ts';
import { inverseSpec, world } from './fixtures.ts';

const A = toAmount;
const SYMBOL = 'BTC-PERP-REV';

/** Opens LONG 1000 @ 10000 at leverage 10 (margin 0.01 TBTC) for one trader and the matching SHORT for another. */
function longAndShort(positions: Positions, trader: (t: string, a: string) => string) {
  const long = trader('TBTC', '0.05');
  const short = trader('TBTC', '0.05');
  for (const [acct, side] of [[long, 'LONG'], [short, 'SHORT']] as const) {
    const lock = positions.lockOrderMargin(acct, SYMBOL, A('1000'), A('10000'), A('10'));
    positions.openFill({ accountId: acct, symbol: SYMBOL, side, qty: A('1000'), price: A('10000'), leverage: A('10'), isMaker: side === 'SHORT', release: lock });
  }
  return { long, short };
}

function total(ledger: Ledger): bigint {
  const a = ledger.audit().find((x) => x.asset === 'TBTC')!;
  return a.users + a.fees + a.insurance + a.clearing - (a.inflow - a.outflow);
}

describe('forced liquidation', () => {
  it('leaves a position alone until the mark reaches its flp', () => {
    const { positions, ledger, trader } = world([inverseSpec()]);
    const { long } = longAndShort(positions, trader);
    const flp = flpOf(positions, positions.get(long, SYMBOL, 'LONG')!)!;
    // 1000 × 1.005 / (0.01 + 0.1) = 9136.3636… → 9136.36
    expect(flp).toBe(A('9136.36'));
    expect(liquidateCrossed(positions, SYMBOL, A('9136.37'))).toEqual([]);
    expect(positions.get(long, SYMBOL, 'LONG')).toBeDefined();
    expect(ledger.insuranceRecords()).toEqual([]);
  });

  it('closes at the mark that crossed flp and pays the margin left beyond the loss into the insurance fund', () => {
    const { positions, ledger, trader, clock } = world([inverseSpec()]);
    ledger.seedInsurance('TBTC', A('1'));
    const { long, short } = longAndShort(positions, trader);
    const [liq] = liquidateCrossed(positions, SYMBOL, A('9136.36'));
    // loss 1000 × (1/10000 − 1/9136.36); left = margin − loss, about maintMargin × value
    const left = new Decimal('0.01').sub(new Decimal(1000).div('9136.36').sub('0.1'));
    expect(liq).toMatchObject({ accountId: long, side: 'LONG', qty: A('1000'), margin: A('0.01'), fromInsurance: 0n, uncovered: 0n });
    expect(fmtAmount(liq!.toInsurance, 12)).toBe(left.toFixed(12, Decimal.ROUND_DOWN));
    expect(fmtAmount(liq!.toInsurance, 8)).toBe('0.00054722');
    expect(positions.get(long, SYMBOL, 'LONG')).toBeUndefined();
    expect(positions.get(short, SYMBOL, 'SHORT')).toBeDefined();
    expect(ledger.balance(long, 'TBTC')).toEqual({ free: A('0.04'), locked: 0n });
    expect(ledger.flows(long, 'TBTC').at(-1)).toMatchObject({ flowType: 'LIQUIDATION', change: A('-0.01'), total: A('0.04') });
    const recs = ledger.insuranceRecords('TBTC');
    expect(recs).toHaveLength(2);
    expect(recs[1]).toMatchObject({ unit: 'TBTC', timestamp: clock.now(), value: A('1') + liq!.toInsurance });
    expect(BigInt(recs[1]!.id)).toBeGreaterThan(BigInt(recs[0]!.id));
    expect(total(ledger)).toBe(0n);
  });

  it('takes a loss beyond the margin from the insurance fund when the mark gaps past the bankruptcy price', () => {
    const { positions, ledger, trader } = world([inverseSpec()]);
    ledger.seedInsurance('TBTC', A('1'));
    const { long, short } = longAndShort(positions, trader);
    const [liq] = liquidateCrossed(positions, SYMBOL, A('8000'));
    // loss 1000 × (1/10000 − 1/8000) = −0.025 against margin 0.01: the fund pays 0.015
    expect(liq).toMatchObject({ pnl: A('-0.025'), margin: A('0.01'), toInsurance: 0n, fromInsurance: A('0.015'), uncovered: 0n });
    expect(ledger.insuranceFund('TBTC')).toBe(A('0.985'));
    expect(ledger.insuranceRecords('TBTC').map((r) => fmtAmount(r.value))).toEqual(['1', '0.985']);
    expect(ledger.balance(long, 'TBTC')).toEqual({ free: A('0.04'), locked: 0n });
    // The short's gain at 8000 is paid in full out of what the long and the fund put into clearing.
    const close = positions.closeFill({ accountId: short, symbol: SYMBOL, side: 'SHORT', qty: A('1000'), price: A('8000'), isMaker: false, reserved: false });
    expect(close.pnl).toBe(A('0.025'));
    expect(ledger.pool('clearing', 'TBTC')).toBe(0n);
    expect(ledger.balance(short, 'TBTC')).toEqual({ free: A('0.075'), locked: 0n });
    expect(total(ledger)).toBe(0n);
  });

  it('leaves what an empty fund cannot pay as a clearing deficit, never a negative fund or balance', () => {
    const { positions, ledger, trader } = world([inverseSpec()]);
    ledger.seedInsurance('TBTC', A('0.005'));
    const { long, short } = longAndShort(positions, trader);
    const [liq] = liquidateCrossed(positions, SYMBOL, A('8000'));
    expect(liq).toMatchObject({ fromInsurance: A('0.005'), uncovered: A('0.01') });
    expect(ledger.insuranceFund('TBTC')).toBe(0n);
    // Clearing holds the long's margin and the fund's 0.005; the short's gain of 0.025 then leaves it 0.01 short.
    expect(ledger.pool('clearing', 'TBTC')).toBe(A('0.015'));
    expect(ledger.balance(long, 'TBTC').free).toBe(A('0.04'));
    positions.closeFill({ accountId: short, symbol: SYMBOL, side: 'SHORT', qty: A('1000'), price: A('8000'), isMaker: false, reserved: false });
    expect(ledger.balance(short, 'TBTC')).toEqual({ free: A('0.075'), locked: 0n });
    expect(ledger.pool('clearing', 'TBTC')).toBe(-liq!.uncovered);
    expect(total(ledger)).toBe(0n);
  });

  it('liquidates a short when the mark rises to its flp', () => {
    const { positions, ledger, trader } = world([inverseSpec()]);
    ledger.seedInsurance('TBTC', A('1'));
    const { short } = longAndShort(positions, trader);
    // 1000 × 0.995 / (0.1 − 0.01) = 11055.555… → 11055.56
    expect(flpOf(positions, positions.get(short, SYMBOL, 'SHORT')!)).toBe(A('11055.56'));
    expect(liquidateCrossed(positions, SYMBOL, A('11055.55'))).toEqual([]);
    const [liq] = liquidateCrossed(positions, SYMBOL, A('11055.56'));
    expect(liq).toMatchObject({ accountId: short, side: 'SHORT', fromInsurance: 0n });
    expect(liq!.toInsurance > 0n).toBe(true);
    expect(total(ledger)).toBe(0n);
  });
});

import { describe, expect, it } from 'vitest';
import { fmtAmount, toAmount, WITHDRAWAL_STATUS, type WithdrawOutcome } from '../../../src/sim/ledger/index.ts';
import { expectVenueError, fundedUser, makeLedger } from './helpers.ts';

const A = toAmount;
const STEP = 1_000;

function setup() {
  const { ledger, clock } = makeLedger({ withdrawal: { stepMs: STEP, fees: { BHC: '0.1' }, requiredConfirmNum: 12 } });
  const u = fundedUser(ledger, { BHC: '20' });
  return { ledger, clock, u };
}

/** Returns the statuses the order passes through, one per step of clock time. */
async function walk(outcome: WithdrawOutcome) {
  const { ledger, clock, u } = setup();
  const r = ledger.withdraw({ userId: u.userId, tokenId: 'BHC', clientOrderId: 'w1', address: '0x815bF1c3cc0f49b8FC66B21A7e48fCb476051209', quantity: A('14'), outcome });
  const seen = [r.status];
  const locked = ledger.balance(u.spot, 'BHC');
  for (let i = 0; i < 6; i++) {
    await clock.advance(STEP);
    const s = ledger.withdrawal(u.userId, { orderId: r.orderId })!.status;
    if (s !== seen[seen.length - 1]) seen.push(s);
  }
  return { ledger, u, r, seen, locked };
}

describe('withdrawals', () => {
  it('walk the success path 1→3→5→8→6, locking quantity + fee, then burning the quantity and charging the fee', async () => {
    const { ledger, u, r, seen, locked } = await walk('success');
    expect(r).toMatchObject({ status: 1, success: true, needBrokerAudit: true });
    expect(locked).toEqual({ free: A('5.9'), locked: A('14.1') });
    expect(seen).toEqual([1, 3, 5, 8, 6]);
    expect(ledger.balance(u.spot, 'BHC')).toEqual({ free: A('5.9'), locked: 0n });
    const o = ledger.withdrawal(u.userId, { clientOrderId: 'w1' })!;
    expect(o).toMatchObject({ statusCode: 'WITHDRAWAL_SUCCESS_STATUS', status: WITHDRAWAL_STATUS.WITHDRAWAL_SUCCESS_STATUS, confirmNum: 12, requiredConfirmNum: 12, feeTokenId: 'BHC' });
    expect(fmtAmount(o.arriveQuantity)).toBe('14');
    expect(fmtAmount(o.fee)).toBe('0.1');
    expect(o.txid).not.toBe('');
    expect(ledger.pool('fees', 'BHC')).toBe(A('0.1'));
    const audit = ledger.audit().find((a) => a.asset === 'BHC')!;
    expect(audit).toMatchObject({ inflow: A('20'), outflow: A('14'), users: A('5.9'), fees: A('0.1') });
    expect(ledger.flows(u.spot, 'BHC').map((f) => [f.flowType, fmtAmount(f.change), fmtAmount(f.total)])).toEqual([
      ['DEPOSIT', '20', '20'],
      ['TRANSFER', '-14', '6'],
      ['FEE', '-0.1', '5.9'],
    ]);
  });

  it.each([
    ['brokerReject', [1, 2]],
    ['auditReject', [1, 3, 4]],
    ['failure', [1, 3, 5, 7]],
  ] as const)('end %s through %j and release every locked unit', async (outcome, path) => {
    const { ledger, u, seen } = await walk(outcome);
    expect(seen).toEqual(path);
    expect(ledger.balance(u.spot, 'BHC')).toEqual({ free: A('20'), locked: 0n });
    expect(ledger.pool('fees', 'BHC')).toBe(0n);
    expect(ledger.flows(u.spot, 'BHC').map((f) => f.flowType)).toEqual(['DEPOSIT']);
  });

  it('skip broker audit when the venue is configured without it', async () => {
    const { ledger, clock } = makeLedger({ withdrawal: { stepMs: STEP, brokerAudit: false } });
    const u = fundedUser(ledger, { USDT: '5' });
    const r = ledger.withdraw({ userId: u.userId, tokenId: 'USDT', clientOrderId: 'a', address: 'addr', quantity: A('5') });
    expect(r).toMatchObject({ status: 3, needBrokerAudit: false });
    await clock.advance(STEP * 3);
    expect(ledger.withdrawal(u.userId, { orderId: r.orderId })!.status).toBe(6);
    expect(ledger.balance(u.spot, 'USDT')).toEqual({ free: 0n, locked: 0n });
  });

  it('refuse bad requests with the venue codes and change nothing', () => {
    const { ledger, u } = setup();
    const req = { userId: u.userId, tokenId: 'BHC', clientOrderId: 'c1', address: 'addr', quantity: A('1') };
    ledger.withdraw(req);
    const before = ledger.snapshot();
    expectVenueError(() => ledger.withdraw({ ...req, clientOrderId: 'c2', quantity: 0n }), -1177);
    expectVenueError(() => ledger.withdraw({ ...req, clientOrderId: 'c2', quantity: -1n }), -1180);
    expectVenueError(() => ledger.withdraw({ ...req, clientOrderId: 'c2', address: '' }), -1173);
    expectVenueError(() => ledger.withdraw(req), -1174);
    expectVenueError(() => ledger.withdraw({ ...req, clientOrderId: 'c2', quantity: A('18.9') }), -1131); // 18.9 + 0.1 fee > 18.9 free
    expect(ledger.snapshot()).toBe(before);
    expect(ledger.withdrawals(u.userId)).toHaveLength(1);
  });
});

describe('deposits', () => {
  it('credit the main token account with a DEPOSIT flow and list the deposit order', () => {
    const { ledger, clock } = makeLedger();
    const userId = ledger.createUser();
    const d = ledger.deposit(userId, 'USDT', A('1100'));
    expect(d).toMatchObject({ token: 'USDT', quantity: A('1100'), time: clock.now() });
    expect(ledger.depositOrders(userId)).toEqual([d]);
    const spot = ledger.accountId(userId, 1, 0);
    expect(ledger.flows(spot)).toEqual([expect.objectContaining({ flowType: 'DEPOSIT', change: A('1100'), total: A('1100'), time: clock.now() })]);
    expectVenueError(() => ledger.deposit(userId, 'USDT', 0n), -1130);
    expectVenueError(() => ledger.deposit('nobody', 'USDT', A('1')), -1153);
  });
});

describe('withdrawals kept', () => {
  it('are bounded per user: past twice keepFinished the oldest finished ones are forgotten (their clientOrderIds free again), pending ones never', async () => {
    const { ledger, clock } = makeLedger({ withdrawal: { stepMs: STEP, keepFinished: 3 } });
    const u = fundedUser(ledger, { BHC: '100' });
    const other = fundedUser(ledger, { BHC: '100' });
    const out = (userId: string, id: string) => ledger.withdraw({ userId, tokenId: 'BHC', clientOrderId: id, address: '0xabc', quantity: A('1') });
    out(other.userId, 'o1');
    for (let i = 0; i < 6; i++) out(u.userId, `w${i}`);
    await clock.advance(10 * STEP);
    expect(ledger.withdrawals(u.userId)).toHaveLength(6);
    // The 7th passes twice the bound: the oldest finished are forgotten down to 3, the pending 7th kept.
    out(u.userId, 'w6');
    expect(ledger.withdrawals(u.userId).map((w) => w.clientOrderId)).toEqual(['w4', 'w5', 'w6']);
    expect(ledger.withdrawal(u.userId, { clientOrderId: 'w0' })).toBeUndefined();
    expectVenueError(() => out(u.userId, 'w5'), -1174);
    expect(out(u.userId, 'w0').success).toBe(true);
    // Another user's withdrawals are not touched; pending ones are never forgotten.
    expect(ledger.withdrawals(other.userId).map((w) => w.clientOrderId)).toEqual(['o1']);
    for (let i = 7; i < 20; i++) out(u.userId, `w${i}`);
    expect(ledger.withdrawals(u.userId).length).toBeLessThanOrEqual(2 * 3 + 14);
    await clock.advance(10 * STEP);
    out(u.userId, 'last');
    expect(ledger.withdrawals(u.userId)).toHaveLength(3);
    expect(ledger.balance(u.spot, 'BHC')).toEqual({ free: A('78'), locked: A('1') });
  });
});

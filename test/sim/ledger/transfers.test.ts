import { describe, expect, it } from 'vitest';
import { fmtAmount, toAmount } from '../../../src/sim/ledger/index.ts';
import { expectVenueError, fundedUser, makeLedger } from './helpers.ts';

const A = toAmount;

function setup() {
  const { ledger, clock } = makeLedger();
  const u = fundedUser(ledger, { BTC: '10' }, 2);
  const main = { userId: u.userId, accountIndex: 0 };
  const sub1 = { userId: u.userId, accountIndex: 1 };
  return { ledger, clock, u, main, sub1 };
}

describe('internal transfers', () => {
  it('lists the main account and sub-accounts by type then index, as the sub-account query does', () => {
    const { ledger, u } = setup();
    const list = ledger.accounts(u.userId).map((a) => [a.accountType, a.accountIndex]);
    expect(list).toEqual([[1, 0], [1, 1], [1, 2], [3, 0], [3, 1], [3, 2]]);
    const ids = ledger.accounts(u.userId).map((a) => a.accountId);
    expect(new Set(ids).size).toBe(6);
    for (const id of ids) expect(id).toMatch(/^\d{15,19}$/);
  });

  it('lets a main-account key move funds from the main token account to a sub contracts account and back, with USER_ACCOUNT_TRANSFER flows', () => {
    const { ledger, u, main } = setup();
    ledger.transfer(main, { fromAccountType: 1, fromAccountIndex: 0, toAccountType: 3, toAccountIndex: 2, tokenId: 'BTC', amount: A('2.5') });
    const sub2c = ledger.accountId(u.userId, 3, 2);
    expect(ledger.balance(sub2c, 'BTC').free).toBe(A('2.5'));
    ledger.transfer(main, { fromAccountType: 3, fromAccountIndex: 2, toAccountType: 1, toAccountIndex: 0, tokenId: 'BTC', amount: A('1') });
    expect(ledger.balance(u.spot, 'BTC').free).toBe(A('8.5'));
    const flows = ledger.flows(u.spot, 'BTC').map((f) => [f.flowType, fmtAmount(f.change), fmtAmount(f.total)]);
    expect(flows).toEqual([
      ['DEPOSIT', '10', '10'],
      ['USER_ACCOUNT_TRANSFER', '-2.5', '7.5'],
      ['USER_ACCOUNT_TRANSFER', '1', '8.5'],
    ]);
    const ids = ledger.flows(u.spot).map((f) => BigInt(f.id));
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
  });

  it('lets a sub-account key send only from its own token account to the main token account, with the parameters left empty', () => {
    const { ledger, u, main, sub1 } = setup();
    ledger.transfer(main, { fromAccountType: 1, fromAccountIndex: 0, toAccountType: 1, toAccountIndex: 1, tokenId: 'BTC', amount: A('3') });
    ledger.transfer(sub1, { tokenId: 'BTC', amount: A('1') });
    expect(ledger.balance(ledger.accountId(u.userId, 1, 1), 'BTC').free).toBe(A('2'));
    expect(ledger.balance(u.spot, 'BTC').free).toBe(A('8'));
    const before = ledger.snapshot();
    // A sub-account key naming any other route, even into itself from main, is refused.
    expectVenueError(() => ledger.transfer(sub1, { fromAccountType: 1, fromAccountIndex: 0, toAccountType: 1, toAccountIndex: 1, tokenId: 'BTC', amount: A('1') }), -1172);
    expectVenueError(() => ledger.transfer(sub1, { toAccountType: 3, tokenId: 'BTC', amount: A('1') }), -1172);
    expect(ledger.snapshot()).toBe(before);
  });

  it('refuses routes the rules forbid with -1172, malformed fields with -1130, short funds with -1131, changing nothing', () => {
    const { ledger, main } = setup();
    const before = ledger.snapshot();
    const route = (ft: number, fi: number, tt: number, ti: number, amount = A('1')) => () =>
      ledger.transfer(main, { fromAccountType: ft, fromAccountIndex: fi, toAccountType: tt, toAccountIndex: ti, tokenId: 'BTC', amount });
    expectVenueError(route(1, 1, 3, 1), -1172); // neither end the main token account
    expectVenueError(route(3, 0, 1, 2), -1172); // main contracts → sub token
    expectVenueError(route(1, 0, 1, 0), -1172); // same account
    expectVenueError(route(1, 0, 1, 9), -1172); // no such sub-account
    expectVenueError(route(1, 0, 2, 0), -1172); // options account: not kept by the simulated venue
    const bad = expectVenueError(route(1, 0, 7, 0), -1130);
    expect(bad.message).toBe("Data sent for paramter 'toAccountType' is not valid.");
    expectVenueError(route(1, 0, 3, -1), -1130);
    expectVenueError(route(1, 0, 3, 0, 0n), -1130);
    expectVenueError(() => ledger.transfer(main, { tokenId: 'BTC', amount: A('1') }), -1130);
    const short = expectVenueError(route(1, 0, 3, 0, A('10.000000000000000001')), -1131);
    expect(short.message).toBe('Balance insufficient ');
    expect(ledger.snapshot()).toBe(before);
  });

  it('moves funds between wallet and contract with the pending variant, and refuses option, same ends and sub keys', () => {
    const { ledger, u, main, sub1 } = setup();
    const r = ledger.transferPending(main, { from: 'wallet', to: 'contract', currency: 'BTC', amount: A('4') });
    expect(r).toBeUndefined();
    const contract = ledger.accountId(u.userId, 3, 0);
    expect(ledger.balance(contract, 'BTC').free).toBe(A('4'));
    expect(ledger.flows(contract).map((f) => f.flowType)).toEqual(['TRANSFER']);
    const before = ledger.snapshot();
    expectVenueError(() => ledger.transferPending(main, { from: 'option', to: 'wallet', currency: 'BTC', amount: A('1') }), -1172);
    expectVenueError(() => ledger.transferPending(main, { from: 'contract', to: 'contract', currency: 'BTC', amount: A('1') }), -1172);
    expectVenueError(() => ledger.transferPending(sub1, { from: 'wallet', to: 'contract', currency: 'BTC', amount: A('1') }), -1172);
    expectVenueError(() => ledger.transferPending(main, { from: 'bank', to: 'contract', currency: 'BTC', amount: A('1') }), -1130);
    expectVenueError(() => ledger.transferPending(main, { from: 'contract', to: 'wallet', currency: 'BTC', amount: A('5') }), -1131);
    expect(ledger.snapshot()).toBe(before);
  });

  it('maps API keys to their user and account index', () => {
    const { ledger, u } = setup();
    ledger.registerKey('k'.repeat(64), u.userId, 1);
    expect(ledger.keyOwner('k'.repeat(64))).toEqual({ userId: u.userId, accountIndex: 1 });
    expect(ledger.keyOwner('x')).toBeUndefined();
    expectVenueError(() => ledger.registerKey('z', u.userId, 5), -1171);
  });
});

// Transfers, pending transfers, deposits and withdrawals through SimVenue emit balance events; withdrawals walk their statuses on the clock; the contract account splits its margin.
import { describe, expect, it } from 'vitest';
import { VenueError } from '../../../src/core/errors.ts';
import type { SimEvent } from '../../../src/sim/engine/events.ts';
import { makeVenue } from './fixtures.ts';

const ONE = 10n ** 18n;

function setup() {
  const v = makeVenue({ withdrawal: { stepMs: 1000 } });
  const events: SimEvent[] = [];
  v.venue.subscribe((e) => events.push(e));
  const userId = v.venue.user('alice');
  return { ...v, events, userId, actor: { userId, accountIndex: 0 } };
}

const balances = (events: SimEvent[]) => events.flatMap((e) => (e.body.type === 'balance' ? [e.body] : []));

describe('account operations through SimVenue', () => {
  it('a transfer emits the balance of both accounts; a refused one changes nothing and emits nothing', () => {
    const { venue, events, actor, alice } = setup();
    const contract = venue.accountOf(actor.userId, 3);
    venue.transfer(actor, { fromAccountType: 1, fromAccountIndex: 0, toAccountType: 3, toAccountIndex: 0, tokenId: 'TBTC', amount: 2n * ONE });
    expect(balances(events)).toEqual([
      { type: 'balance', account: alice, asset: 'TBTC', free: '8', locked: '0' },
      { type: 'balance', account: contract, asset: 'TBTC', free: '2', locked: '0' },
    ]);
    const before = venue.snapshot();
    const seq = events.length;
    expect(() => venue.transfer(actor, { fromAccountType: 1, fromAccountIndex: 0, toAccountType: 3, toAccountIndex: 0, tokenId: 'TBTC', amount: 20n * ONE })).toThrow(VenueError);
    expect(venue.snapshot()).toBe(before);
    expect(events).toHaveLength(seq);
  });

  it('the pending wallet/contract transfer and a deposit emit balance events', () => {
    const { venue, events, actor, alice } = setup();
    venue.transferPending(actor, { from: 'wallet', to: 'contract', currency: 'TBTC', amount: ONE });
    const d = venue.deposit(actor.userId, 'ETH', '1.5');
    expect(d).toMatchObject({ token: 'ETH', quantity: 3n * ONE / 2n, accountId: alice });
    expect(balances(events).map((b) => [b.account, b.asset, b.free])).toEqual([
      [alice, 'TBTC', '9'],
      [venue.accountOf(actor.userId, 3), 'TBTC', '1'],
      [alice, 'ETH', '1001.5'],
    ]);
  });

  it('a withdrawal locks its funds, moves one status per step of the clock, and burns them on success', () => {
    const { venue, clock, events, actor, alice } = setup();
    const r = venue.withdraw({ userId: actor.userId, tokenId: 'BTC', clientOrderId: 'w1', address: 'addr', quantity: 3n * ONE });
    expect(r).toMatchObject({ status: 1, success: true });
    expect(balances(events).at(-1)).toEqual({ type: 'balance', account: alice, asset: 'BTC', free: '97', locked: '3' });
    const statuses = () => events.flatMap((e) => (e.body.type === 'withdrawal' ? [e.body.status] : []));
    expect(statuses()).toEqual([1]);
    clock.advanceToSync(clock.now() + 2000);
    expect(statuses()).toEqual([1, 3, 5]);
    clock.advanceToSync(clock.now() + 2000);
    expect(statuses()).toEqual([1, 3, 5, 8, 6]);
    expect(balances(events).at(-1)).toEqual({ type: 'balance', account: alice, asset: 'BTC', free: '97', locked: '0' });
    expect(venue.ledger.withdrawal(actor.userId, { clientOrderId: 'w1' })).toMatchObject({ status: 6, statusCode: 'WITHDRAWAL_SUCCESS_STATUS' });
  });

  it('a rejected withdrawal releases its funds at its last status', () => {
    const { venue, clock, events, actor, alice } = setup();
    venue.withdraw({ userId: actor.userId, tokenId: 'BTC', clientOrderId: 'w2', address: 'addr', quantity: ONE, outcome: 'auditReject' });
    clock.advanceToSync(clock.now() + 5000);
    expect(events.flatMap((e) => (e.body.type === 'withdrawal' ? [e.body.statusCode] : []))).toEqual(['BROKER_AUDITING_STATUS', 'AUDITING_STATUS', 'AUDIT_REJECT_STATUS']);
    expect(balances(events).at(-1)).toEqual({ type: 'balance', account: alice, asset: 'BTC', free: '100', locked: '0' });
  });

  it('the contract account splits total into available, position and order margin', () => {
    const { venue, actor } = setup();
    const bobId = venue.user('bob');
    venue.transfer(actor, { fromAccountType: 1, fromAccountIndex: 0, toAccountType: 3, toAccountIndex: 0, tokenId: 'TBTC', amount: 5n * ONE });
    venue.transfer({ userId: bobId, accountIndex: 0 }, { fromAccountType: 1, fromAccountIndex: 0, toAccountType: 3, toAccountIndex: 0, tokenId: 'TBTC', amount: 5n * ONE });
    const a = venue.accountOf(actor.userId, 3);
    const b = venue.accountOf(bobId, 3);
    venue.newContractOrder(b, { symbol: 'BTC-PERP-REV', side: 'SELL_OPEN', quantity: '1000', price: '10000', leverage: '10', clientOrderId: 's1' });
    venue.newContractOrder(a, { symbol: 'BTC-PERP-REV', side: 'BUY_OPEN', quantity: '1000', price: '10000', leverage: '10', clientOrderId: 'b1' });
    const open = venue.newContractOrder(a, { symbol: 'BTC-PERP-REV', side: 'BUY_OPEN', quantity: '500', price: '9000', leverage: '10', clientOrderId: 'b2' });
    const acc = venue.contractAccount(a).TBTC!;
    expect(acc.tokenId).toBe('TBTC');
    // Position margin 0.1 / 10; order margin = the open order's marginLocked; fee 0.1 × 0.00075 paid.
    expect(acc.positionMargin).toBe('0.01');
    expect(acc.orderMargin).toBe(open.marginLocked);
    const sum = [acc.availableMargin, acc.positionMargin, acc.orderMargin].reduce((s, x) => s + BigInt(x.replace('.', '').padEnd(9, '0')) , 0n);
    expect(Number(acc.total)).toBeCloseTo(5 - 0.000075, 8);
    // Each figure is cut down to 8 decimals, so the parts may fall short of the total by a unit or two.
    const gap = BigInt(acc.total.replace('.', '').padEnd(9, '0')) - sum;
    expect(gap >= 0n && gap <= 2n).toBe(true);
  });
});

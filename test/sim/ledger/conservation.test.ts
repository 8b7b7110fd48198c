import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.ts';
import { VenueError } from '../../../src/core/errors.ts';
import { contractSpec, liquidateCrossed, Positions, settleFunding } from '../../../src/sim/contracts/index.ts';
import { Ledger, ONE, type Amount } from '../../../src/sim/ledger/index.ts';
import { BTC_PERP_REV_INPUT } from '../contracts/fixtures.ts';

const ASSETS = ['BTC', 'USDT'] as const;
const USERS = 3;

/** Amounts from 10^-8 to 1000 with up to 8 decimals, and now and then an odd 18-decimal one. */
const amount = fc.oneof(
  fc.bigInt({ min: 1n, max: 100_000_000_000n }).map((n) => n * 10n ** 10n),
  fc.bigInt({ min: 1n, max: 10n ** 21n }),
);

const op = fc.oneof(
  { arbitrary: fc.record({ k: fc.constant('deposit' as const), u: fc.nat(USERS - 1), a: fc.nat(1), x: amount }), weight: 4 },
  { arbitrary: fc.record({ k: fc.constant('pending' as const), u: fc.nat(USERS - 1), x: amount.map((x) => x / 100n + 1n), toContract: fc.constant(true) }), weight: 3 },
  { arbitrary: fc.record({ k: fc.constant('transfer' as const), u: fc.nat(USERS - 1), a: fc.nat(1), x: amount.map((x) => x / 1000n + 1n), ft: fc.constantFrom(1, 1, 1, 2, 3, 4), fi: fc.constantFrom(0, 0, 1, 2), tt: fc.constantFrom(1, 3), ti: fc.nat(2), sub: fc.boolean() }), weight: 2 },
  fc.record({ k: fc.constant('pending' as const), u: fc.nat(USERS - 1), x: amount, toContract: fc.boolean() }),
  { arbitrary: fc.record({ k: fc.constant('fill' as const), b: fc.nat(USERS - 1), s: fc.nat(USERS - 1), price: fc.bigInt({ min: 10n ** 14n, max: 10n ** 20n }), qty: fc.bigInt({ min: 1n, max: 10n ** 19n }), over: fc.bigInt({ min: 0n, max: 10n ** 18n }), bm: fc.boolean() }), weight: 3 },
  fc.record({ k: fc.constant('withdraw' as const), u: fc.nat(USERS - 1), a: fc.nat(1), x: amount, outcome: fc.constantFrom('success', 'brokerReject', 'auditReject', 'failure') as fc.Arbitrary<'success'>, id: fc.nat(5) }),
  fc.record({ k: fc.constant('tick' as const), ms: fc.nat(200_000) }),
  { arbitrary: fc.record({ k: fc.constant('open' as const), u: fc.nat(USERS - 1), long: fc.boolean(), qty: fc.integer({ min: 1, max: 5000 }), price: fc.integer({ min: 5000, max: 15000 }), lev: fc.integer({ min: 1, max: 50 }) }), weight: 3 },
  { arbitrary: fc.record({ k: fc.constant('close' as const), u: fc.nat(USERS - 1), long: fc.boolean(), qty: fc.integer({ min: 1, max: 400 }), price: fc.integer({ min: 5000, max: 15000 }) }), weight: 4 },
  { arbitrary: fc.record({ k: fc.constant('margin' as const), u: fc.nat(USERS - 1), long: fc.boolean(), x: fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n }) }), weight: 3 },
  fc.record({ k: fc.constant('mark' as const), price: fc.integer({ min: 5000, max: 15000 }), rate: fc.integer({ min: -100, max: 100 }) }),
);

type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

function setup() {
  const clock = new VirtualClock(1_600_000_000_000);
  const ledger = new Ledger({ clock, spotFees: { maker: '0.0002', taker: '0.001' }, withdrawal: { stepMs: 50_000, fees: { BTC: '0.0005' } } });
  const spec = contractSpec({ ...BTC_PERP_REV_INPUT, marginToken: 'BTC', makerFee: '0.0002', takerFee: '0.00075' });
  const positions = new Positions(ledger, [spec]);
  ledger.seedInsurance('BTC', ONE);
  const users = Array.from({ length: USERS }, () => ledger.createUser({ subAccounts: 2 }));
  return { clock, ledger, positions, users, symbol: spec.symbol, liquidations: 0 };
}

type World = ReturnType<typeof setup>;

function run(w: World, o: Op): void {
  const { ledger, positions, users, symbol } = w;
  const A = BigInt;
  switch (o.k) {
    case 'deposit':
      ledger.deposit(users[o.u]!, ASSETS[o.a]!, o.x);
      return;
    case 'transfer':
      ledger.transfer({ userId: users[o.u]!, accountIndex: o.sub ? 1 : 0 }, o.sub ? { tokenId: ASSETS[o.a]!, amount: o.x } : { fromAccountType: o.ft, fromAccountIndex: o.fi, toAccountType: o.tt, toAccountIndex: o.ti, tokenId: ASSETS[o.a]!, amount: o.x });
      return;
    case 'pending':
      ledger.transferPending({ userId: users[o.u]!, accountIndex: 0 }, { from: o.toContract ? 'wallet' : 'contract', to: o.toContract ? 'contract' : 'wallet', currency: 'BTC', amount: o.x });
      return;
    case 'fill': {
      // Orders lock what they may pay (the buyer over-locks by `over`), then settle; a short lock refuses the whole fill.
      const buyer = ledger.accountId(users[o.b]!, 1, 0);
      const seller = ledger.accountId(users[o.s]!, 1, 0);
      const quote = (o.price * o.qty + ONE - 1n) / ONE;
      const release = quote + o.over;
      ledger.lock(buyer, 'USDT', release);
      try {
        ledger.lock(seller, 'BTC', o.qty);
      } catch (e) {
        ledger.unlock(buyer, 'USDT', release);
        throw e;
      }
      ledger.settleSpotFill({ base: 'BTC', quote: 'USDT', price: o.price, qty: o.qty, buyer: { accountId: buyer, isMaker: o.bm, release }, seller: { accountId: seller, isMaker: !o.bm } });
      return;
    }
    case 'withdraw':
      ledger.withdraw({ userId: users[o.u]!, tokenId: ASSETS[o.a]!, clientOrderId: `w${o.id}`, address: 'addr', quantity: o.x, outcome: o.outcome });
      return;
    case 'tick':
      w.clock.advanceToSync(w.clock.now() + o.ms);
      return;
    case 'open': {
      const acct = ledger.accountId(users[o.u]!, 3, 0);
      const lock = positions.lockOrderMargin(acct, symbol, A(o.qty) * ONE, A(o.price) * ONE, A(o.lev) * ONE);
      positions.openFill({ accountId: acct, symbol, side: o.long ? 'LONG' : 'SHORT', qty: A(o.qty) * ONE, price: A(o.price) * ONE, leverage: A(o.lev) * ONE, isMaker: false, release: lock });
      return;
    }
    case 'close':
      positions.closeFill({ accountId: ledger.accountId(users[o.u]!, 3, 0), symbol, side: o.long ? 'LONG' : 'SHORT', qty: A(o.qty) * ONE, price: A(o.price) * ONE, isMaker: true, reserved: false });
      return;
    case 'margin':
      positions.modifyMargin(ledger.accountId(users[o.u]!, 3, 0), symbol, o.long ? 'LONG' : 'SHORT', o.x, 10_000n * ONE);
      return;
    case 'mark':
      w.liquidations += liquidateCrossed(positions, symbol, A(o.price) * ONE).length;
      settleFunding(positions, symbol, A(o.rate) * 10n ** 13n, A(o.price) * ONE);
      return;
  }
}

function state(w: World): string {
  return w.ledger.snapshot() + JSON.stringify(w.positions.snapshotData());
}

function checkInvariants(w: World): void {
  for (const a of w.ledger.audit()) {
    expect(a.users + a.fees + a.insurance + a.clearing, a.asset).toBe(a.inflow - a.outflow);
    expect(a.fees >= 0n && a.insurance >= 0n).toBe(true);
  }
  for (const u of w.users) {
    for (const acct of w.ledger.accounts(u)) {
      for (const b of w.ledger.balances(acct.accountId)) expect(b.free >= 0n && b.locked >= 0n, `${acct.accountId} ${b.asset}`).toBe(true);
      // Locked contract funds always cover the margin the positions hold.
      const held = w.positions.list(acct.accountId).reduce((s: Amount, p) => s + p.margin, 0n);
      expect(w.ledger.balance(acct.accountId, 'BTC').locked >= held).toBe(true);
    }
  }
}

describe('money is conserved', () => {
  it('over random deposits, transfers, fills, withdrawals, positions, liquidations and funding; refused steps change nothing', () => {
    let refused = 0;
    const done = new Map<string, number>();
    let liquidations = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 20, maxLength: 80 }), (ops) => {
        const w = setup();
        for (const o of ops) {
          const before = state(w);
          try {
            run(w, o);
            done.set(o.k, (done.get(o.k) ?? 0) + 1);
          } catch (e) {
            if (!(e instanceof VenueError)) throw e;
            refused++;
            expect(state(w)).toBe(before);
          }
          checkInvariants(w);
        }
        w.clock.advanceToSync(w.clock.now() + 10 * 50_000);
        checkInvariants(w);
        liquidations += w.liquidations;
      }),
      { numRuns: 150, seed: 20_260_301 },
    );
    // Every kind of step succeeded repeatedly, refusals were common, and liquidations happened.
    for (const k of ['deposit', 'transfer', 'pending', 'fill', 'withdraw', 'tick', 'open', 'close', 'margin', 'mark']) expect(done.get(k) ?? 0, k).toBeGreaterThan(5);
    expect(refused).toBeGreaterThan(300);
    expect(liquidations).toBeGreaterThan(2);
  });
});

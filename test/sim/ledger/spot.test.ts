import { describe, expect, it } from 'vitest';
import { fmtAmount, toAmount } from '../../../src/sim/ledger/index.ts';
import { expectVenueError, fundedUser, makeLedger } from './helpers.ts';

const A = toAmount;

describe('spot fill settlement', () => {
  it('moves base and quote, charges each side its fee in what it receives, and writes TRADE and FEE flows', () => {
    // The published myTrades sample: 0.1 TBTC at 6826.06, taker seller paid 0.682606 BUSDT (rate 0.001).
    const { ledger } = makeLedger({ spotFees: { maker: '0.0002', taker: '0.001' } });
    const buyer = fundedUser(ledger, { BUSDT: '1000' });
    const seller = fundedUser(ledger, { TBTC: '1' });
    ledger.lock(buyer.spot, 'BUSDT', A('682.606'));
    ledger.lock(seller.spot, 'TBTC', A('0.1'));
    const r = ledger.settleSpotFill({ base: 'TBTC', quote: 'BUSDT', price: A('6826.06'), qty: A('0.1'), buyer: { accountId: buyer.spot, isMaker: true }, seller: { accountId: seller.spot, isMaker: false } });
    expect(fmtAmount(r.quoteQty)).toBe('682.606');
    expect(fmtAmount(r.sellerFee)).toBe('0.682606');
    expect(fmtAmount(r.buyerFee)).toBe('0.00002');
    expect(ledger.balance(buyer.spot, 'TBTC')).toEqual({ free: A('0.09998'), locked: 0n });
    expect(ledger.balance(buyer.spot, 'BUSDT')).toEqual({ free: A('317.394'), locked: 0n });
    expect(ledger.balance(seller.spot, 'BUSDT')).toEqual({ free: A('681.923394'), locked: 0n });
    expect(ledger.balance(seller.spot, 'TBTC')).toEqual({ free: A('0.9'), locked: 0n });
    expect(ledger.pool('fees', 'BUSDT')).toBe(A('0.682606'));
    expect(ledger.pool('fees', 'TBTC')).toBe(A('0.00002'));
    const sellerQuote = ledger.flows(seller.spot, 'BUSDT').map((f) => [f.flowType, fmtAmount(f.change), fmtAmount(f.total)]);
    expect(sellerQuote).toEqual([
      ['TRADE', '682.606', '682.606'],
      ['FEE', '-0.682606', '681.923394'],
    ]);
  });

  it('returns over-locked quote to free: a limit buy filled below its price, and a market buy on its last fill', () => {
    const { ledger } = makeLedger({ spotFees: { maker: '0', taker: '0' } });
    const buyer = fundedUser(ledger, { USDT: '1000' });
    const seller = fundedUser(ledger, { BTC: '1' });
    ledger.lock(buyer.spot, 'USDT', A('110')); // limit buy 1 @ 110
    ledger.lock(seller.spot, 'BTC', A('1'));
    ledger.settleSpotFill({ base: 'BTC', quote: 'USDT', price: A('100'), qty: A('1'), buyer: { accountId: buyer.spot, isMaker: false, release: A('110') }, seller: { accountId: seller.spot, isMaker: true } });
    expect(ledger.balance(buyer.spot, 'USDT')).toEqual({ free: A('900'), locked: 0n });
    // Market buy for 500 USDT of quote; one fill of 0.5 BTC at 99 uses 49.5, then the book is empty: the rest comes back.
    ledger.lock(buyer.spot, 'USDT', A('500'));
    ledger.lock(seller.spot, 'BTC', A('0'));
    const seller2 = fundedUser(ledger, { BTC: '0.5' });
    ledger.lock(seller2.spot, 'BTC', A('0.5'));
    ledger.settleSpotFill({ base: 'BTC', quote: 'USDT', price: A('99'), qty: A('0.5'), buyer: { accountId: buyer.spot, isMaker: false, release: A('500') }, seller: { accountId: seller2.spot, isMaker: true } });
    expect(ledger.balance(buyer.spot, 'USDT')).toEqual({ free: A('850.5'), locked: 0n });
    expect(ledger.balance(buyer.spot, 'BTC')).toEqual({ free: A('1.5'), locked: 0n });
  });

  it('refuses a fill whose locked funds are short and changes nothing', () => {
    const { ledger } = makeLedger();
    const buyer = fundedUser(ledger, { USDT: '1000' });
    const seller = fundedUser(ledger, { BTC: '1' });
    ledger.lock(buyer.spot, 'USDT', A('100'));
    ledger.lock(seller.spot, 'BTC', A('0.5'));
    const before = ledger.snapshot();
    expectVenueError(() => ledger.settleSpotFill({ base: 'BTC', quote: 'USDT', price: A('100'), qty: A('1'), buyer: { accountId: buyer.spot, isMaker: false }, seller: { accountId: seller.spot, isMaker: true } }), -1131);
    expectVenueError(() => ledger.settleSpotFill({ base: 'BTC', quote: 'USDT', price: A('100'), qty: A('1'), buyer: { accountId: buyer.spot, isMaker: false, release: A('50') }, seller: { accountId: seller.spot, isMaker: true } }), -1131);
    expect(ledger.snapshot()).toBe(before);
  });

  it('rounds a fee past 18 decimals up, so the venue never charges below the rate', () => {
    const { ledger } = makeLedger({ spotFees: { maker: '0.0003', taker: '0.0003' } });
    const buyer = fundedUser(ledger, { Q: '1' });
    const seller = fundedUser(ledger, { B: '1' });
    const qty = A('0.000000000000000001');
    ledger.lock(buyer.spot, 'Q', A('1'));
    ledger.lock(seller.spot, 'B', qty);
    const r = ledger.settleSpotFill({ base: 'B', quote: 'Q', price: A('1'), qty, buyer: { accountId: buyer.spot, isMaker: true, release: qty }, seller: { accountId: seller.spot, isMaker: true } });
    expect(r.buyerFee).toBe(1n);
    expect(r.sellerFee).toBe(1n);
    expect(ledger.balance(buyer.spot, 'B').free).toBe(0n);
  });

  it('keeps per-account fee rates apart from the default', () => {
    const { ledger } = makeLedger({ spotFees: { maker: '0.001', taker: '0.002' } });
    const vip = fundedUser(ledger, { USDT: '100' });
    ledger.setSpotFees({ maker: '0', taker: '0.0005' }, vip.spot);
    expect(ledger.spotFeesOf(vip.spot).taker).toBe(A('0.0005'));
    expect(ledger.spotFeesOf('another').taker).toBe(A('0.002'));
    expectVenueError(() => ledger.setSpotFees({ maker: '1', taker: '0' }), -1130);
  });
});

describe('credit and debit', () => {
  it('move money between an account and a system pool with the named flow, refusing a short debit', () => {
    const { ledger } = makeLedger();
    const u = fundedUser(ledger, { USDT: '10' });
    ledger.credit(u.spot, 'USDT', A('2'), 'MAKER_REWARD');
    expectVenueError(() => ledger.credit(u.spot, 'USDT', A('1'), 'MAKER_REWARD', 'fees'), -1131); // the fee pool holds nothing yet
    expect(ledger.pool('clearing', 'USDT')).toBe(A('-2'));
    ledger.lock(u.spot, 'USDT', A('3'));
    ledger.debit(u.spot, 'USDT', A('3'), 'SETTLEMENT', 'clearing', 'locked');
    expect(ledger.balance(u.spot, 'USDT')).toEqual({ free: A('9'), locked: 0n });
    expect(ledger.flows(u.spot).slice(1).map((f) => [f.flowType, fmtAmount(f.change), fmtAmount(f.total)])).toEqual([
      ['MAKER_REWARD', '2', '12'],
      ['SETTLEMENT', '-3', '9'],
    ]);
    const before = ledger.snapshot();
    expectVenueError(() => ledger.debit(u.spot, 'USDT', A('9.1'), 'FEE'), -1131);
    expectVenueError(() => ledger.credit(u.spot, 'USDT', 0n, 'PNL'), -1130);
    expect(ledger.snapshot()).toBe(before);
  });
});

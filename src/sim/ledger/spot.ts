/** Spot fill settlement: base and quote change hands between buyer and seller, locked funds are released, fees are charged, in one balanced step. */
import { mulAmount, ONE, toAmount, type Amount } from './amount.ts';
import type { BalanceBook } from './balances.ts';
import { insufficient, invalidParam } from './errors.ts';
import type { FeeRates, PoolPosting, Posting, SpotFill, SpotFillResult } from './types.ts';

/** Fee rates as Amounts (10^18 = 100%). */
export interface FeeRateAmounts {
  readonly maker: Amount;
  readonly taker: Amount;
}

/** Returns fee rates parsed from decimal strings; throws -1130 when a rate is not in [0, 1). */
export function parseFeeRates(rates: FeeRates): FeeRateAmounts {
  const maker = toAmount(rates.maker, 'maker');
  const taker = toAmount(rates.taker, 'taker');
  for (const [field, v] of [['maker', maker], ['taker', taker]] as const) {
    if (v < 0n || v >= ONE) throw invalidParam(field, 'a fee rate must be at least 0 and below 1', { rate: v.toString() });
  }
  return { maker, taker };
}

/**
 * Returns the fee on `amount` at `rate`, rounded up to the 10^-18 unit: the venue never charges
 * less than the exact rate, and a fee is never larger than the amount it is taken from (rate < 1).
 */
export function feeOn(amount: Amount, rate: Amount): Amount {
  return mulAmount(amount, rate, 'ceil');
}

/**
 * Settles one spot fill on `book` atomically and returns what moved. The buyer pays price × qty
 * quote (rounded up when the product passes 18 decimals) from locked quote and receives base less
 * its fee; the seller delivers qty base from locked base and receives quote less its fee. Each side's
 * `release` beyond its payment returns to free. Throws -1131 (nothing changed) when a side's
 * locked funds are short or its release is below its payment.
 */
export function settleSpotFill(book: BalanceBook, fill: SpotFill, ratesOf: (accountId: string) => FeeRateAmounts): SpotFillResult {
  const { base, quote, price, qty, buyer, seller } = fill;
  if (qty <= 0n) throw invalidParam('quantity', 'a fill quantity must be positive', { qty: qty.toString() });
  if (price <= 0n) throw invalidParam('price', 'a fill price must be positive', { price: price.toString() });
  const quoteQty = mulAmount(price, qty, 'ceil');
  const buyerRelease = buyer.release ?? quoteQty;
  const sellerRelease = seller.release ?? qty;
  if (buyerRelease < quoteQty) throw insufficient({ side: 'buyer', accountId: buyer.accountId, release: buyerRelease.toString(), pays: quoteQty.toString() });
  if (sellerRelease < qty) throw insufficient({ side: 'seller', accountId: seller.accountId, release: sellerRelease.toString(), pays: qty.toString() });
  return settleSpotQuote(book, base, quote, qty, quoteQty, buyer.accountId, buyer.isMaker, buyerRelease, seller.accountId, seller.isMaker, sellerRelease, ratesOf);
}

/**
 * Settles one spot fill whose quote amount the caller already has exactly (the engine's
 * ticks × lots × unit): the same step as settleSpotFill without rebuilding the product or
 * allocating the fill's description. Each release must cover what that side pays.
 */
export function settleSpotQuote(
  book: BalanceBook, base: string, quote: string, qty: Amount, quoteQty: Amount,
  buyerId: string, buyerMaker: boolean, buyerRelease: Amount, sellerId: string, sellerMaker: boolean, sellerRelease: Amount,
  ratesOf: (accountId: string) => FeeRateAmounts,
): SpotFillResult {
  if (buyerRelease < quoteQty) throw insufficient({ side: 'buyer', accountId: buyerId, release: buyerRelease.toString(), pays: quoteQty.toString() });
  if (sellerRelease < qty) throw insufficient({ side: 'seller', accountId: sellerId, release: sellerRelease.toString(), pays: qty.toString() });
  const buyerRates = ratesOf(buyerId);
  const sellerRates = ratesOf(sellerId);
  const buyerRate = buyerMaker ? buyerRates.maker : buyerRates.taker;
  const sellerRate = sellerMaker ? sellerRates.maker : sellerRates.taker;
  const buyerFee = buyerRate === 0n ? 0n : feeOn(qty, buyerRate);
  const sellerFee = sellerRate === 0n ? 0n : feeOn(quoteQty, sellerRate);
  settleSpotWithFees(book, base, quote, qty, quoteQty, buyerId, buyerRelease, sellerId, sellerRelease, buyerFee, sellerFee);
  return { quoteQty, buyerFee, sellerFee };
}

/**
 * Settles one spot fill whose fees the caller computed at the accounts' rates (rounded up, as feeOn):
 * the engine's path, which takes fees from per-instrument tables. Throws -1131 having changed nothing.
 */
export function settleSpotWithFees(
  book: BalanceBook, base: string, quote: string, qty: Amount, quoteQty: Amount,
  buyerId: string, buyerRelease: Amount, sellerId: string, sellerRelease: Amount, buyerFee: Amount, sellerFee: Amount,
): void {
  if (buyerRelease < quoteQty) throw insufficient({ side: 'buyer', accountId: buyerId, release: buyerRelease.toString(), pays: quoteQty.toString() });
  if (sellerRelease < qty) throw insufficient({ side: 'seller', accountId: sellerId, release: sellerRelease.toString(), pays: qty.toString() });
  if (buyerId !== sellerId && base !== quote) {
    book.spotFillStep(buyerId, sellerId, base, quote, qty, quoteQty, buyerRelease, sellerRelease, buyerFee, sellerFee);
    return;
  }
  const legs: Posting[] = [
    { accountId: buyerId, asset: quote, locked: -buyerRelease, free: buyerRelease - quoteQty, flow: 'TRADE' },
    { accountId: buyerId, asset: base, free: qty, flow: 'TRADE' },
    { accountId: sellerId, asset: base, locked: -sellerRelease, free: sellerRelease - qty, flow: 'TRADE' },
    { accountId: sellerId, asset: quote, free: quoteQty, flow: 'TRADE' },
  ];
  const pools: PoolPosting[] = [];
  if (buyerFee > 0n) {
    legs.push({ accountId: buyerId, asset: base, free: -buyerFee, flow: 'FEE' });
    pools.push({ pool: 'fees', asset: base, delta: buyerFee });
  }
  if (sellerFee > 0n) {
    legs.push({ accountId: sellerId, asset: quote, free: -sellerFee, flow: 'FEE' });
    pools.push({ pool: 'fees', asset: quote, delta: sellerFee });
  }
  book.post(legs, pools);
}

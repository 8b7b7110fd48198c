/** The account side of the backtest exchange: what an order reserves, what a fill settles, and what is freed when the order ends. */
import type { OrderRequest } from './types.ts';

/** What one fill cost in fees. */
export interface FillSettlement {
  /** Fee as a decimal text ('0' when none). */
  readonly fee: string;
  readonly feeAsset: string;
}

/** An order as the account sees it: its request, its limit in ticks, and lots still open. */
export interface AccountOrder {
  readonly orderId: string;
  readonly req: OrderRequest;
  /** Limit in ticks the order was priced at (Infinity or 0 for a spot MARKET order). */
  readonly limitTicks: number;
  readonly leavesLots: number;
  /** Quote left to spend of a spot MARKET BUY by amount, in qunits (−1 for other orders). */
  readonly budget: number;
}

/** The funds behind the exchange's orders; the simulated venue's ledger in ContractAccount and SpotAccount. */
export interface ExchangeAccount {
  /** Runs the simulated venue's own validation of a new order against this account (priced at its limit); returns 0 or the venue's code, changing nothing. */
  check?(o: AccountOrder): number;
  /** Reserves what a new order holds; returns 0, or the venue's refusal code (-1131 funds, -1156 close size) having changed nothing. */
  reserve(o: AccountOrder): number;
  /** Settles one fill of `lots` at `priceTicks`. */
  fill(o: AccountOrder, priceTicks: number, lots: number, isMaker: boolean): FillSettlement;
  /** Frees what is left of the order's reservation (on cancel, expiry, or after its last fill). */
  release(o: AccountOrder): void;
  /** Takes a new mark price (decimal text); returns the position sides it liquidated (their close orders end). */
  onMark?(price: string): readonly ('LONG' | 'SHORT')[];
}

/** An account that holds nothing and charges no fee (for scenario runs that only look at fills). */
export const noAccount: ExchangeAccount = {
  reserve: () => 0,
  fill: () => ({ fee: '0', feeAsset: '' }),
  release: () => undefined,
};

/** Balance-flow entries a backtest account's ledger keeps (as many as the venue's endpoint returns): nothing in a backtest reads them, and 100 000 per account would only fill the heap. */
export const BACKTEST_FLOWS = 500;

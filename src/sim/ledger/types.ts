/** The vocabulary of the simulated venue's accounts: users, accounts, balances, flows, transfers, deposits and withdrawals. */
import type { Clock } from '../../core/clock.ts';
import type { Amount } from './amount.ts';

/** A user id (decimal string). */
export type UserId = string;
/** A 64-bit account id as a decimal string, as the venue sends it. */
export type AccountId = string;

/** Account types the simulated venue keeps: 1 token (spot) trading, 3 contracts. Type 2 (options) does not exist here. */
export type SimAccountType = 1 | 3;

/** One account of a user, as the sub-account query lists it. */
export interface Account {
  readonly accountId: AccountId;
  readonly userId: UserId;
  readonly accountName: string;
  readonly accountType: SimAccountType;
  /** 0 the main account, 1 or more a sub-account. */
  readonly accountIndex: number;
}

/** Flow types of the balance-flow endpoint (venue-api.md, Balance flow entry). */
export const FLOW_TYPES = {
  TRADE: 1,
  FEE: 2,
  TRANSFER: 3,
  DEPOSIT: 4,
  MAKER_REWARD: 27,
  PNL: 28,
  SETTLEMENT: 30,
  LIQUIDATION: 31,
  FUNDING_SETTLEMENT: 32,
  USER_ACCOUNT_TRANSFER: 51,
} as const;
export type FlowType = keyof typeof FLOW_TYPES;

/** The flowName the venue shows for each flow type. */
export const FLOW_NAMES: Readonly<Record<FlowType, string>> = {
  TRADE: 'Trade',
  FEE: 'Fee',
  TRANSFER: 'Transfer',
  DEPOSIT: 'Deposit',
  MAKER_REWARD: 'Maker reward',
  PNL: 'PnL',
  SETTLEMENT: 'Settlement',
  LIQUIDATION: 'Liquidation',
  FUNDING_SETTLEMENT: 'Funding settlement',
  USER_ACCOUNT_TRANSFER: 'Transfer',
};

/** One balance-flow entry: written for every change of an account's total balance of an asset. */
export interface FlowEntry {
  /** Increasing decimal-string id. */
  readonly id: string;
  readonly accountId: AccountId;
  readonly asset: string;
  readonly flowType: FlowType;
  /** Signed change of the total (free + locked). */
  readonly change: Amount;
  /** Total (free + locked) after the change. */
  readonly total: Amount;
  /** Clock time in ms. */
  readonly time: number;
}

/** A balance of one asset in one account. */
export interface Balance {
  readonly free: Amount;
  readonly locked: Amount;
}

/**
 * One leg of an atomic ledger step: signed changes to the free and locked parts of one balance.
 * When free + locked changes, `flow` names the flow type written for it (one entry per account,
 * asset and flow type per step). A pure lock or unlock (free and locked move oppositely) writes no flow.
 */
export interface Posting {
  readonly accountId: AccountId;
  readonly asset: string;
  readonly free?: Amount;
  readonly locked?: Amount;
  readonly flow?: FlowType;
}

/** Maker and taker fee rates as decimal strings (e.g. "0.001"). */
export interface FeeRates {
  readonly maker: string;
  readonly taker: string;
}

/** One side of a spot fill. */
export interface SpotFillSide {
  readonly accountId: AccountId;
  readonly isMaker: boolean;
  /**
   * Locked funds this fill frees on this side: the buyer's quote, the seller's base. Defaults to
   * exactly what the side pays. Anything above the payment returns to free (a limit buy filled
   * below its price, or the remainder of a market buy's quote amount on its last fill).
   */
  readonly release?: Amount;
}

/** A spot fill to settle: `qty` base at `price` quote per base. */
export interface SpotFill {
  readonly base: string;
  readonly quote: string;
  readonly price: Amount;
  readonly qty: Amount;
  readonly buyer: SpotFillSide;
  readonly seller: SpotFillSide;
}

/** What a settled spot fill moved. Fees are charged in the asset each side receives. */
export interface SpotFillResult {
  /** price × qty, the quote paid by the buyer. */
  readonly quoteQty: Amount;
  /** Fee the buyer paid, in the base asset. */
  readonly buyerFee: Amount;
  /** Fee the seller paid, in the quote asset. */
  readonly sellerFee: Amount;
}

/** Who asks for a transfer: the user and the account index of the API key (0 a main-account key, ≥1 a sub-account key). */
export interface TransferActor {
  readonly userId: UserId;
  readonly accountIndex: number;
}

/** An internal account transfer (POST /openapi/v1/transfer). Type and index are left out by a sub-account key. */
export interface TransferRequest {
  readonly fromAccountType?: number;
  readonly fromAccountIndex?: number;
  readonly toAccountType?: number;
  readonly toAccountIndex?: number;
  readonly tokenId: string;
  readonly amount: Amount;
}

/** Ends of the pending wallet/contract transfer variant. */
export type PendingTransferEnd = 'wallet' | 'option' | 'contract';

/** The pending transfer variant (POST /openapi/v1/transfer with from, to, currency, amount). */
export interface PendingTransferRequest {
  readonly from: string;
  readonly to: string;
  readonly currency: string;
  readonly amount: Amount;
}

/** A scripted deposit, as the deposit-orders endpoint lists it. */
export interface DepositOrder {
  readonly orderId: string;
  readonly time: number;
  readonly userId: UserId;
  readonly accountId: AccountId;
  readonly token: string;
  readonly quantity: Amount;
}

/** Withdrawal status numbers of venue-api.md. */
export const WITHDRAWAL_STATUS = {
  BROKER_AUDITING_STATUS: 1,
  BROKER_REJECT_STATUS: 2,
  AUDITING_STATUS: 3,
  AUDIT_REJECT_STATUS: 4,
  PROCESSING_STATUS: 5,
  WITHDRAWAL_SUCCESS_STATUS: 6,
  WITHDRAWAL_FAILURE_STATUS: 7,
  BLOCK_MINING_STATUS: 8,
} as const;
export type WithdrawalStatusCode = keyof typeof WITHDRAWAL_STATUS;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUS)[WithdrawalStatusCode];

/**
 * How a withdrawal ends: `success` 1→3→5→8→6, `brokerReject` 1→2, `auditReject` 1→3→4,
 * `failure` 1→3→5→7. Funds are locked at the request, burnt on success, released otherwise.
 */
export type WithdrawOutcome = 'success' | 'brokerReject' | 'auditReject' | 'failure';

/** A withdrawal request from a user's main token account. */
export interface WithdrawRequest {
  readonly userId: UserId;
  readonly tokenId: string;
  readonly clientOrderId: string;
  readonly address: string;
  readonly addressExt?: string;
  readonly quantity: Amount;
  readonly chainType?: string;
  /** Overrides the configured outcome for this request. */
  readonly outcome?: WithdrawOutcome;
}

/** The withdraw endpoint's answer. */
export interface WithdrawResult {
  readonly status: WithdrawalStatus;
  readonly success: boolean;
  readonly needBrokerAudit: boolean;
  readonly orderId: string;
}

/** A withdrawal order as the withdrawal-orders endpoint lists it (amounts as Amounts; the server formats). */
export interface WithdrawalOrder {
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly userId: UserId;
  readonly accountId: AccountId;
  readonly time: number;
  readonly tokenId: string;
  readonly address: string;
  readonly addressExt: string;
  readonly quantity: Amount;
  readonly arriveQuantity: Amount;
  readonly fee: Amount;
  readonly feeTokenId: string;
  readonly status: WithdrawalStatus;
  readonly statusCode: WithdrawalStatusCode;
  readonly walletHandleTime: number;
  readonly requiredConfirmNum: number;
  readonly confirmNum: number;
  readonly txid: string;
  readonly outcome: WithdrawOutcome;
}

/** One insurance-fund record as the insurance endpoint returns it: the fund balance after a change. */
export interface InsuranceRecord {
  readonly id: string;
  readonly timestamp: number;
  readonly value: Amount;
  readonly unit: string;
}

/**
 * Money of the venue itself, kept outside user accounts: collected fees, the insurance fund, the
 * clearing pool that pays and receives contract PnL and funding, and `outside` — the world beyond
 * the venue, which deposits come from and withdrawals go to (its negative is net inflow).
 */
export type SystemPool = 'fees' | 'insurance' | 'clearing' | 'outside';

/** A change to a system pool inside an atomic ledger step. */
export interface PoolPosting {
  readonly pool: SystemPool;
  readonly asset: string;
  readonly delta: Amount;
}

/** Per asset: what came in from outside, what left, and where it sits now. The invariant is users + pools = inflow − outflow. */
export interface AssetAudit {
  readonly asset: string;
  readonly users: Amount;
  readonly fees: Amount;
  readonly insurance: Amount;
  readonly clearing: Amount;
  readonly inflow: Amount;
  readonly outflow: Amount;
}

/** Configuration of the ledger. Everything is optional except the clock. */
export interface LedgerConfig {
  readonly clock: Clock;
  /** First account id (64-bit); accounts take increasing ids from here. */
  readonly accountIdStart?: bigint;
  /** First user id. */
  readonly userIdStart?: bigint;
  /** First balance-flow id. */
  readonly flowIdStart?: bigint;
  /** First deposit / withdrawal order id. */
  readonly orderIdStart?: bigint;
  /** First insurance record id. */
  readonly insuranceIdStart?: bigint;
  /** Balance-flow entries kept per account (default 100 000). */
  readonly maxFlowsPerAccount?: number;
  /** Spot maker and taker fee rates (default 0.001 each). */
  readonly spotFees?: FeeRates;
  readonly withdrawal?: WithdrawalConfig;
}

/** How withdrawals behave. */
export interface WithdrawalConfig {
  /** Time between two status steps in ms (default 60 000). */
  readonly stepMs?: number;
  /** Default outcome (default success). */
  readonly outcome?: WithdrawOutcome;
  /** Fee per token as a decimal string (default "0"). */
  readonly fees?: Readonly<Record<string, string>>;
  /** Confirmations a success reaches (default 12). */
  readonly requiredConfirmNum?: number;
  /** Whether requests pass broker audit first (status 1); otherwise they start at 3. Default true. */
  readonly brokerAudit?: boolean;
  /** Finished withdrawals kept per user for the query endpoints (default 100 000); beyond twice that the oldest finished ones are forgotten. */
  readonly keepFinished?: number;
}

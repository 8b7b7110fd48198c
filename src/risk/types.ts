/** The risk gate's vocabulary: order intents, the portfolio snapshot it judges them against, its config, and check results. */
import type {
  ContractAccount,
  ContractOrderType,
  ContractSide,
  ContractTimeInForce,
  PositionSide,
  PriceType,
  SpotNewOrderType,
  SpotSide,
  SpotTimeInForce,
} from '../model/index.ts';

/** active: everything passes to the checks; reducing: only orders that reduce a position, closes and cancels; halted: only cancels. */
export type TradingState = 'active' | 'reducing' | 'halted';
export const TRADING_STATES: readonly TradingState[] = ['active', 'reducing', 'halted'];

interface IntentBase {
  /** The strategy that emitted the intent (order rate and daily loss are kept per strategy). */
  readonly strategyId: string;
  readonly symbol: string;
}

/** A new spot order. Decimals are strings exactly as they will be sent. */
export interface PlaceSpotIntent extends IntentBase {
  readonly kind: 'placeSpot';
  readonly clientOrderId: string;
  readonly side: SpotSide;
  readonly type: SpotNewOrderType;
  /** Required for LIMIT and LIMIT_MAKER; ignored for MARKET. */
  readonly price?: string;
  /** Base quantity; for a MARKET BUY the quote amount to spend, as on the wire. */
  readonly quantity: string;
  readonly timeInForce?: SpotTimeInForce;
}

/** A new contract order. */
export interface PlaceContractIntent extends IntentBase {
  readonly kind: 'placeContract';
  readonly clientOrderId: string;
  readonly side: ContractSide;
  readonly orderType: ContractOrderType;
  readonly priceType: PriceType;
  /** Required when priceType is INPUT. */
  readonly price?: string;
  /** Required for orderType STOP. */
  readonly triggerPrice?: string;
  /** Number of contracts. */
  readonly quantity: string;
  /** Required for BUY_OPEN and SELL_OPEN; not sent for closes. */
  readonly leverage?: string;
  readonly timeInForce?: ContractTimeInForce;
}

/** Cancels one order by its clientOrderId. */
export interface CancelIntent extends IntentBase {
  readonly kind: 'cancel';
  readonly clientOrderId: string;
}

/** Cancels every open order of the strategy, on one symbol or on all. */
export interface CancelAllIntent {
  readonly kind: 'cancelAll';
  readonly strategyId: string;
  readonly symbol?: string;
}

/** Cancels `replaces` and places `order` instead (the open-order count does not grow). */
export interface ReplaceIntent extends IntentBase {
  readonly kind: 'replace';
  /** clientOrderId of the order being replaced. */
  readonly replaces: string;
  readonly order: PlaceSpotIntent | PlaceContractIntent;
}

/**
 * Closes a position. The gate turns it into the concrete order it stands for: a spot SELL of the
 * base held, or a contract SELL_CLOSE (LONG) / BUY_CLOSE (SHORT); at `price` when given, else at market.
 */
export interface ClosePositionIntent extends IntentBase {
  readonly kind: 'closePosition';
  readonly clientOrderId: string;
  /** The position to close; spot holdings are LONG. */
  readonly side: PositionSide;
  /** Defaults to the whole position (spot: the free base, rounded down to the step). */
  readonly quantity?: string;
  readonly price?: string;
}

export type PlaceIntent = PlaceSpotIntent | PlaceContractIntent;
export type OrderIntent = PlaceSpotIntent | PlaceContractIntent | CancelIntent | CancelAllIntent | ReplaceIntent | ClosePositionIntent;
export type OrderIntentKind = OrderIntent['kind'];

export interface SnapshotBalance {
  readonly free: string;
  readonly locked: string;
}

/** One contract position (one side of one symbol). */
export interface SnapshotPosition {
  readonly symbol: string;
  readonly side: PositionSide;
  /** Contracts open. */
  readonly quantity: string;
  readonly avgPrice: string;
  readonly margin: string;
  readonly leverage?: string;
}

export interface SymbolPrices {
  readonly last?: string;
  readonly mark?: string;
  /** Mid of the best bid and ask: the spot band's reference until the first trade. */
  readonly mid?: string;
}

/** What the gate knows of the account and market at one instant; built by the portfolio, never mutated by the gate. */
export interface PortfolioSnapshot {
  /** Clock time of the snapshot (epoch ms); order-rate windows slide on it. */
  readonly now: number;
  /** Spot balances by asset. */
  readonly spot: Readonly<Record<string, SnapshotBalance>>;
  /** Contract account by margin token. */
  readonly contract: ContractAccount;
  readonly positions: readonly SnapshotPosition[];
  /** Open orders: symbol → strategyId → count. */
  readonly openOrders: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Last and mark price by symbol. */
  readonly prices: Readonly<Record<string, SymbolPrices>>;
  /** Realized plus unrealized PnL since the start of the day, by strategyId (in the strategy's accounting asset). */
  readonly pnlToday: Readonly<Record<string, string>>;
  /** What each strategy holds from its own fills, strategyId → symbol → quantity: spot base, or the contracts of the side a closePosition names (what it may close). */
  readonly held?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export type RoundingMode = 'round' | 'deny';

/** Limits of one symbol; any left out is not checked. */
export interface SymbolRiskLimits {
  /** Largest position after the order: spot base held, or contracts on one side. */
  readonly maxPosition?: string;
  /** Largest position value after the order: quote for spot, margin token for contracts (venue-notes.md §6). */
  readonly maxNotional?: string;
  /** Most open orders on the symbol, all strategies together, counting the new one. */
  readonly maxOpenOrders?: number;
  /** Limit prices must lie within ±this percent of the reference price; `off` checks nothing. */
  readonly priceBandPct?: string;
  /** Reference of the band; default last for spot, mark for contracts (last until a mark is known). */
  readonly priceBandRef?: 'last' | 'mark';
}

export interface OrderRateLimit {
  readonly perSecond?: number;
  readonly perMinute?: number;
}

/** Limits of one strategy; any left out is not checked. */
export interface StrategyRiskLimits {
  readonly orderRate?: OrderRateLimit;
  /** New risk is denied once the strategy's PnL today is below −dailyLossLimit. */
  readonly dailyLossLimit?: string;
}

/** Taker fee rates the funds checks reserve (the worse case of maker and taker). */
export interface FeeRates {
  readonly spot: string;
  readonly contract: string;
}

export interface RiskConfig {
  readonly tradingState: TradingState;
  /** round: price to the tick toward the passive side, quantity down to the step; deny: refuse values off the grid. */
  readonly rounding: RoundingMode;
  readonly fees: FeeRates;
  /** Limits for symbols not named in `symbols`, and for fields a symbol leaves out. */
  readonly defaults?: SymbolRiskLimits;
  readonly symbols?: Readonly<Record<string, SymbolRiskLimits>>;
  /** Limits for every strategy, and for fields a strategy entry leaves out. */
  readonly strategy?: StrategyRiskLimits;
  readonly strategies?: Readonly<Record<string, StrategyRiskLimits>>;
  /** A spot closePosition without a price sells as a LIMIT IOC this percent below the last price (default "1"). */
  readonly closeDistancePct?: string;
}

/** Every code a denial can carry. */
export const RISK_CODES = [
  'UNKNOWN_SYMBOL',
  'INVALID_INTENT',
  'TRADING_STATE',
  'SYMBOL_STATUS',
  'NO_POSITION',
  'NO_PRICE',
  'DAILY_LOSS',
  'PRICE_FILTER',
  'LOT_SIZE',
  'MIN_NOTIONAL',
  'PRICE_BAND',
  'MAX_OPEN_ORDERS',
  'MAX_POSITION',
  'MAX_NOTIONAL',
  'RISK_LIMIT_TIER',
  'SPOT_BALANCE',
  'CONTRACT_MARGIN',
  'ORDER_RATE',
] as const;
export type RiskCode = (typeof RISK_CODES)[number];

/** A local refusal: nothing was sent. Rendered as `CODE: key=value key=value`. */
export interface Denial {
  readonly code: RiskCode;
  readonly values: Readonly<Record<string, string>>;
}

/** A value the gate changed to fit a filter (rounding mode), in the same shape as a denial. */
export interface Adjustment {
  readonly code: RiskCode;
  readonly values: Readonly<Record<string, string>>;
}

/** What one check answers: the intent (possibly rounded) or a denial. */
export type CheckResult<T> =
  | { readonly ok: true; readonly intent: T; readonly adjusted?: Adjustment }
  | { readonly ok: false; readonly denial: Denial };

/** What the gate answers. `intent` is what to send: rounded, and a closePosition made concrete. */
export type GateResult =
  | { readonly ok: true; readonly intent: OrderIntent; readonly adjusted: readonly Adjustment[] }
  | { readonly ok: false; readonly denial: Denial };

/**
 * The RiskGate: runs the checks over an intent and a portfolio snapshot in one fixed order and
 * answers {ok, intent} or {ok: false, denial}. It never sends anything; it keeps only the trading
 * state (switchable while running) and the order-rate window of the orders it accepted.
 *
 * Order (the first denial wins; later checks see the rounded order):
 *   cancel / cancelAll pass at once;
 *   UNKNOWN_SYMBOL, INVALID_INTENT, TRADING_STATE, SYMBOL_STATUS, closePosition → order (NO_POSITION),
 *   DAILY_LOSS, PRICE_FILTER, LOT_SIZE, MIN_NOTIONAL, PRICE_BAND, MAX_OPEN_ORDERS, MAX_POSITION,
 *   MAX_NOTIONAL, RISK_LIMIT_TIER, SPOT_BALANCE or CONTRACT_MARGIN, ORDER_RATE.
 * NO_PRICE comes from whichever check needs a price the snapshot lacks.
 */
import type { Instrument } from '../model/index.ts';
import { checkFunds } from './checks/funds.ts';
import { checkLotSize, checkMinNotional, checkPriceFilter } from './checks/filters.ts';
import { checkMaxNotional, checkMaxOpenOrders, checkMaxPosition, checkPriceBand } from './checks/limits.ts';
import { checkDailyLoss, checkOrderRate, checkTradingState } from './checks/state.ts';
import { checkRiskLimitTier } from './checks/tiers.ts';
import { parseRiskConfig } from './config.ts';
import { checkSymbolStatus, checkWellFormed, resolveClose } from './intake.ts';
import { RateWindow } from './rate-window.ts';
import { assertNever, strategyLimits, type CheckContext } from './terms.ts';
import type { Adjustment, CheckResult, GateResult, OrderIntent, PlaceIntent, PortfolioSnapshot, RiskConfig, TradingState } from './types.ts';

/** A check over a placing order. */
export type OrderCheck = (order: PlaceIntent, ctx: CheckContext) => CheckResult<PlaceIntent>;

/** The order checks after intake, in the order the gate runs them. */
export const ORDER_CHECKS: readonly OrderCheck[] = [
  checkDailyLoss,
  checkPriceFilter,
  checkLotSize,
  checkMinNotional,
  checkPriceBand,
  checkMaxOpenOrders,
  checkMaxPosition,
  checkMaxNotional,
  checkRiskLimitTier,
  checkFunds,
  checkOrderRate,
];

export interface RiskGateOptions {
  /** Instruments by symbol (instrumentsOf(brokerInfo)). */
  readonly instruments: ReadonlyMap<string, Instrument>;
  /** A RiskConfig, or the raw config section to validate (ConfigError names the bad key). */
  readonly config: RiskConfig | unknown;
  /** The order-rate window; a fresh one by default. */
  readonly window?: RateWindow;
}

/** The composed risk checks; see the module comment for their order. */
export class RiskGate {
  private readonly instruments: ReadonlyMap<string, Instrument>;
  private readonly config: RiskConfig;
  private readonly window: RateWindow;
  private state: TradingState;

  constructor(opts: RiskGateOptions) {
    this.instruments = opts.instruments;
    this.config = parseRiskConfig(opts.config);
    this.window = opts.window ?? new RateWindow();
    this.state = this.config.tradingState;
  }

  /** Returns the trading state in force. */
  get tradingState(): TradingState {
    return this.state;
  }

  /** Returns true when some strategy has a daily loss limit (the executor then notes the unrealized PnL at each UTC midnight). */
  hasDailyLossLimit(): boolean {
    return this.config.strategy?.dailyLossLimit !== undefined || Object.values(this.config.strategies ?? {}).some((l) => l.dailyLossLimit !== undefined);
  }

  /** Returns the daily loss limit of a strategy (undefined: none), so that its day's PnL is figured only when a check reads it. */
  dailyLossLimit(strategyId: string): string | undefined {
    return strategyLimits(this.config, strategyId).dailyLossLimit;
  }

  /** Switches the trading state; the next check uses it. */
  setTradingState(state: TradingState): void {
    this.state = state;
  }

  /**
   * Returns {ok: true, intent, adjusted} with the intent to send (rounded to the filters, a
   * closePosition made concrete), or {ok: false, denial}. An accepted placing intent is recorded
   * in the order-rate window at the snapshot's time.
   */
  check(intent: OrderIntent, snapshot: PortfolioSnapshot): GateResult {
    if (intent.kind === 'cancel' || intent.kind === 'cancelAll') return { ok: true, intent, adjusted: [] };
    const instrument = this.instruments.get(intent.symbol);
    if (instrument === undefined) return { ok: false, denial: { code: 'UNKNOWN_SYMBOL', values: { symbol: String(intent.symbol) } } };
    const ctx: CheckContext = {
      instrument,
      snapshot,
      config: this.config,
      tradingState: this.state,
      window: this.window,
      replacing: intent.kind === 'replace',
    };
    for (const step of [checkWellFormed(intent, instrument), checkTradingState(intent, ctx)]) if (!step.ok) return step;
    const resolved = this.orderOf(intent, ctx);
    if (!resolved.ok) return resolved;
    let order = resolved.intent;
    const status = checkSymbolStatus(order, instrument);
    if (!status.ok) return status;
    const adjusted: Adjustment[] = [];
    for (const check of ORDER_CHECKS) {
      const r = check(order, ctx);
      if (!r.ok) return r;
      order = r.intent;
      if (r.adjusted !== undefined) adjusted.push(r.adjusted);
    }
    this.window.record(order.strategyId, snapshot.now);
    const out: OrderIntent = intent.kind === 'replace' ? { ...intent, order } : order;
    return { ok: true, intent: out, adjusted };
  }

  private orderOf(intent: Exclude<OrderIntent, { kind: 'cancel' | 'cancelAll' }>, ctx: CheckContext): CheckResult<PlaceIntent> {
    switch (intent.kind) {
      case 'placeSpot':
      case 'placeContract':
        return { ok: true, intent };
      case 'replace':
        return { ok: true, intent: intent.order };
      case 'closePosition':
        return resolveClose(intent, ctx.instrument, ctx.snapshot, this.config.closeDistancePct);
      default:
        return assertNever(intent);
    }
  }
}

/** risk: the gate between strategies and the executor — pure checks over an order intent and a portfolio snapshot, each denial a code with its numbers. */
export * from './types.ts';
export { deny, pass, renderDenial, RiskDeniedError } from './denial.ts';
export { RateWindow, LONGEST_WINDOW_MS } from './rate-window.ts';
export { orderMarginNeed, type OrderMarginNeed } from './margin.ts';
export { valueOf, isReducing, MARKET_BAND, type CheckContext } from './terms.ts';
export { checkPriceFilter, checkLotSize, checkMinNotional } from './checks/filters.ts';
export { checkPriceBand, checkMaxOpenOrders, checkMaxPosition, checkMaxNotional } from './checks/limits.ts';
export { checkRiskLimitTier, tierOf } from './checks/tiers.ts';
export { checkFunds } from './checks/funds.ts';
export { checkTradingState, checkDailyLoss, checkOrderRate } from './checks/state.ts';
export { checkWellFormed, checkSymbolStatus, resolveClose } from './intake.ts';
export { riskConfigSchema, runRiskConfigSchema, parseRiskConfig, DEFAULT_PRICE_BAND_PCT } from './config.ts';
export { RiskGate, ORDER_CHECKS, type OrderCheck, type RiskGateOptions } from './gate.ts';

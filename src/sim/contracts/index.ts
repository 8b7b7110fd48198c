/** The simulated venue's contract arithmetic and positions: the public surface the engine and the server use. */
export { contractSpec, type ContractSpec, type ContractSpecInput, type RiskLimit } from './spec.ts';
export {
  averagePrice,
  checkLeverage,
  contractFee,
  liquidationPrice,
  marginRate,
  MARGIN_RATE_DECIMALS,
  maxLeverage,
  orderMargin,
  pnl,
  positionLeverage,
  positionValue,
  riskTier,
  type OrderMargin,
  type PositionSide,
} from './math.ts';
export { Positions, type CloseFill, type CloseFillResult, type ContractBalance, type OpenFill, type OpenFillResult, type Position } from './positions.ts';
export { crossed, flpOf, liquidate, liquidateCrossed, type Liquidation } from './liquidation.ts';
export { FUNDING_INTERVAL_MS, FUNDING_OFFSET_MS, FundingSchedule, settleFunding, type FundingPayment, type FundingRecord, type FundingResult, type FundingSources } from './funding.ts';
export { EDP_WINDOW_MS, IndexPrices } from './index-price.ts';
export { positionView, positionWire, type PositionView, type PositionWire } from './view.ts';

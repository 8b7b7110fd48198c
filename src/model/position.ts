/** Contract positions as the positions endpoint reports them. */
import { POSITION_SIDES, type PositionSide } from './enums.ts';
import { asObject, listOf, reqDecimal, reqEnum, reqString } from './wire.ts';

export interface Position {
  readonly symbol: string;
  readonly side: PositionSide;
  readonly avgPrice: string;
  /** Contracts open. */
  readonly position: string;
  /** Contracts available to close. */
  readonly available: string;
  readonly leverage: string;
  readonly lastPrice: string;
  readonly positionValue: string;
  /** Forced liquidation price. */
  readonly flp: string;
  readonly margin: string;
  readonly marginRate: string;
  readonly unrealizedPnL: string;
  readonly profitRate: string;
  readonly realizedPnL: string;
}

/** Returns a contract position. */
export function parsePosition(raw: unknown, path = 'position'): Position {
  const o = asObject(raw, path);
  return {
    symbol: reqString(o, 'symbol', path),
    side: reqEnum(o, 'side', path, POSITION_SIDES),
    avgPrice: reqDecimal(o, 'avgPrice', path),
    position: reqDecimal(o, 'position', path),
    available: reqDecimal(o, 'available', path),
    leverage: reqDecimal(o, 'leverage', path),
    lastPrice: reqDecimal(o, 'lastPrice', path),
    positionValue: reqDecimal(o, 'positionValue', path),
    flp: reqDecimal(o, 'flp', path),
    margin: reqDecimal(o, 'margin', path),
    marginRate: reqDecimal(o, 'marginRate', path),
    unrealizedPnL: reqDecimal(o, 'unrealizedPnL', path),
    profitRate: reqDecimal(o, 'profitRate', path),
    realizedPnL: reqDecimal(o, 'realizedPnL', path),
  };
}

/** Returns a list of contract positions. */
export function parsePositionList(raw: unknown, path = 'positions'): readonly Position[] {
  return listOf(raw, path, parsePosition);
}

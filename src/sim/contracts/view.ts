/** A position as the positions endpoint shows it: derived figures at a mark price, and their wire text at the contract's precisions. */
import { divRound, fmtAmount, ONE, type Amount } from '../ledger/amount.ts';
import { liquidationPrice, MARGIN_RATE_DECIMALS, marginRate, pnl, positionValue, riskTier } from './math.ts';
import type { Position } from './positions.ts';
import type { ContractSpec } from './spec.ts';

/** A position with its figures at a mark price. */
export interface PositionView extends Position {
  readonly lastPrice: Amount;
  readonly positionValue: Amount;
  /** Forced-liquidation price; undefined when the position cannot be liquidated. */
  readonly flp: Amount | undefined;
  readonly unrealizedPnl: Amount;
  readonly marginRate: Amount;
  /** Unrealized PnL / margin (not recovered from the published sample). */
  readonly profitRate: Amount;
}

/** Returns the position's figures at `markPrice` (positionValue and unrealizedPnL use the mark, as in the published sample). */
export function positionView(spec: ContractSpec, p: Position, markPrice: Amount, lastPrice: Amount): PositionView {
  const value = positionValue(spec, p.position, markPrice, 'floor');
  const upnl = pnl(spec, p.side, p.position, p.avgPrice, markPrice, 'floor');
  const flp = liquidationPrice(spec, p.side, p.position, p.avgPrice, p.margin, riskTier(spec, p.position).maintMargin);
  return Object.assign({}, p, {
    lastPrice,
    positionValue: value,
    flp,
    unrealizedPnl: upnl,
    marginRate: marginRate(p.margin, upnl, value),
    profitRate: p.margin > 0n ? divRound(upnl * ONE, p.margin, 'trunc') : 0n,
  });
}

/** A position on the wire: every decimal a string. */
export interface PositionWire {
  symbol: string;
  side: string;
  avgPrice: string;
  position: string;
  available: string;
  leverage: string;
  lastPrice: string;
  positionValue: string;
  flp: string;
  margin: string;
  marginRate: string;
  unrealizedPnL: string;
  profitRate: string;
  realizedPnL: string;
}

/**
 * Returns the wire form: prices at the tick's decimals and margin-token figures at marginPrecision,
 * all rounded down (toward zero); marginRate at 2 decimals; an unreachable flp as "0".
 */
export function positionWire(spec: ContractSpec, v: PositionView): PositionWire {
  const price = (a: Amount): string => fmtAmount(a, spec.priceDecimals);
  const money = (a: Amount): string => fmtAmount(a, spec.marginDecimals);
  return {
    symbol: v.symbol,
    side: v.side,
    avgPrice: price(v.avgPrice),
    position: fmtAmount(v.position),
    available: fmtAmount(v.available),
    leverage: fmtAmount(v.leverage, 2),
    lastPrice: price(v.lastPrice),
    positionValue: money(v.positionValue),
    flp: v.flp === undefined ? '0' : price(v.flp),
    margin: money(v.margin),
    marginRate: fmtAmount(v.marginRate, MARGIN_RATE_DECIMALS),
    unrealizedPnL: money(v.unrealizedPnl),
    profitRate: fmtAmount(v.profitRate, 7),
    realizedPnL: money(v.realizedPnl),
  };
}

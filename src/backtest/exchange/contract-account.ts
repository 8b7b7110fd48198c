/**
 * A contracts account of the backtest exchange on the simulated venue's ledger and positions:
 * order margin locked at the taker rate and close quantity reserved as the venue does, fills settled
 * by Positions (maker/taker fees, inverse and linear PnL), funding every 8 hours by the venue's
 * FundingSchedule at recorded or configured rates, and liquidation when the mark crosses the flp.
 */
import type { Clock } from '../../core/clock.ts';
import { VenueError } from '../../core/errors.ts';
import { checkLeverage, FundingSchedule, IndexPrices, liquidateCrossed, pnl, type FundingRecord, type Liquidation, type PositionSide, type Positions } from '../../sim/contracts/index.ts';
import { ContractDesk } from '../../sim/engine/contract.ts';
import { EngineCore } from '../../sim/engine/core.ts';
import type { SimInstrument } from '../../sim/engine/instruments.ts';
import { fmtAmount, ledgerAmount, toAmount, type Amount } from '../../sim/ledger/amount.ts';
import { Ledger } from '../../sim/ledger/ledger.ts';
import type { FeeRates } from '../../sim/ledger/types.ts';
import { RoundTrips } from '../trades.ts';
import { BACKTEST_FLOWS, type AccountOrder, type ExchangeAccount, type FillSettlement } from './account.ts';
import { checkContract } from './venue-check.ts';

/** What an open order holds: margin for an open, reserved quantity for a close. */
interface Held {
  margin: Amount;
}

/** How the account starts. */
export interface ContractAccountOptions {
  readonly clock: Clock;
  readonly inst: SimInstrument;
  /** Starting balance of the margin token, decimal text. */
  readonly balance: string;
  /** Maker and taker fee rates (default: the venue's contract defaults). */
  readonly fees?: FeeRates;
  /** Called after a change no order report carries: a funding settlement or a liquidation. */
  readonly onChange?: () => void;
}

/** Where funding rates come from: recorded per interval start, or configured. */
export type FundingRateSource = (intervalStart: number) => string;

/** The backtest's contracts account for one contract. */
export class ContractAccount implements ExchangeAccount {
  readonly ledger: Ledger;
  readonly positions: Positions;
  readonly accountId: string;
  readonly symbol: string;
  readonly token: string;
  /** Liquidations so far, oldest first. */
  readonly liquidations: Liquidation[] = [];
  /** Round trips of the net position (long − short), their PnL net of fees and funding. */
  readonly trips = new RoundTrips();
  /** Funding this account paid (positive sum) and received, in the margin token. */
  fundingPaid: Amount = 0n;
  fundingReceived: Amount = 0n;
  private readonly held = new Map<string, Held>();
  private readonly desk: ContractDesk;
  private mark: Amount | undefined;
  private schedule: FundingSchedule | undefined;

  constructor(private readonly o: ContractAccountOptions) {
    const c = o.inst.contract;
    if (!c) throw new Error(`${o.inst.symbol} is not a contract`);
    this.symbol = c.symbol;
    this.token = c.marginToken;
    this.ledger = new Ledger({ clock: o.clock, spotFees: { maker: '0', taker: '0' }, maxFlowsPerAccount: BACKTEST_FLOWS });
    // The venue's contract desk over this ledger: its positions settle, its planning validates.
    const core = new EngineCore(o.clock, this.ledger, 'backtest', false);
    core.instruments.set(o.inst.symbol, o.inst);
    this.desk = new ContractDesk(core, o.fees);
    this.positions = this.desk.positions;
    const user = this.ledger.createUser();
    const amount = toAmount(o.balance, 'balance');
    if (amount > 0n) {
      this.ledger.deposit(user, this.token, amount);
      this.ledger.transferPending({ userId: user, accountIndex: 0 }, { from: 'wallet', to: 'contract', currency: this.token, amount });
    }
    this.accountId = this.ledger.accountId(user, 3, 0);
  }

  private qty(lots: number): Amount {
    return BigInt(lots) * this.o.inst.step.amount;
  }

  private price(ticks: number): Amount {
    return BigInt(ticks) * this.o.inst.tick.amount;
  }

  check(x: AccountOrder): number {
    return checkContract(this.desk, this.o.inst, this.accountId, x);
  }

  reserve(x: AccountOrder): number {
    const side = x.req.side;
    const qty = this.qty(x.req.lots);
    try {
      if (side === 'BUY_OPEN' || side === 'SELL_OPEN') {
        const leverage = toAmount(x.req.leverage ?? '', 'leverage');
        checkLeverage(this.positions.spec(this.symbol), qty, leverage);
        const m = this.positions.orderMargin(this.symbol, qty, this.price(x.limitTicks), leverage).total;
        if (this.ledger.balance(this.accountId, this.token).free < m) return -1131;
        this.ledger.lock(this.accountId, this.token, m);
        this.held.set(x.orderId, { margin: m });
        return 0;
      }
      if (side === 'BUY_CLOSE' || side === 'SELL_CLOSE') {
        this.positions.reserveClose(this.accountId, this.symbol, closes(side), qty);
        this.held.set(x.orderId, { margin: 0n });
        return 0;
      }
      return -1117;
    } catch (e) {
      if (e instanceof VenueError && typeof e.venueCode === 'number') return e.venueCode;
      return -1130;
    }
  }

  fill(x: AccountOrder, priceTicks: number, lots: number, isMaker: boolean): FillSettlement {
    const side = x.req.side;
    const h = this.held.get(x.orderId) ?? { margin: 0n };
    const qty = this.qty(lots);
    const price = this.price(priceTicks);
    if (side === 'BUY_OPEN' || side === 'SELL_OPEN') {
      // The last fill frees all that is left; others their share of it.
      const release = lots >= x.leavesLots ? h.margin : (h.margin * BigInt(lots)) / BigInt(x.leavesLots);
      const r = this.positions.openFill({ accountId: this.accountId, symbol: this.symbol, side: side === 'BUY_OPEN' ? 'LONG' : 'SHORT', qty, price, leverage: toAmount(x.req.leverage ?? '', 'leverage'), isMaker, release });
      h.margin -= release;
      this.trips.fill(ledgerAmount(-r.fee), ledgerAmount(this.netAmount()));
      return { fee: fmtAmount(r.fee), feeAsset: this.token };
    }
    const r = this.positions.closeFill({ accountId: this.accountId, symbol: this.symbol, side: closes(side), qty, price, isMaker, reserved: true });
    this.trips.fill(ledgerAmount(r.pnl - r.fee), ledgerAmount(this.netAmount()));
    return { fee: fmtAmount(r.fee), feeAsset: this.token };
  }

  /** Returns the net position, long less short, in contracts (decimal text). */
  netPosition(): string {
    return fmtAmount(this.netAmount());
  }

  /** The net position as the ledger holds it: what the round trips take, with no text made. */
  private netAmount(): Amount {
    let n = 0n;
    for (const p of this.positions.list(this.accountId, this.symbol)) n += p.side === 'LONG' ? p.position : -p.position;
    return n;
  }

  release(x: AccountOrder): void {
    const h = this.held.get(x.orderId);
    if (!h) return;
    this.held.delete(x.orderId);
    const side = x.req.side;
    if (side === 'BUY_OPEN' || side === 'SELL_OPEN') this.positions.releaseOrderMargin(this.accountId, this.symbol, h.margin);
    else if (x.leavesLots > 0) this.positions.releaseClose(this.accountId, this.symbol, closes(side), this.qty(x.leavesLots));
  }

  onMark(price: string): readonly PositionSide[] {
    this.mark = toAmount(price, 'mark');
    const done = liquidateCrossed(this.positions, this.symbol, this.mark);
    this.liquidations.push(...done);
    // A liquidation loses the position's margin: the trip ends with that loss.
    for (const l of done) this.trips.realize(ledgerAmount(-l.margin));
    if (done.length > 0) {
      this.trips.positionAfter(ledgerAmount(this.netAmount()));
      this.o.onChange?.();
    }
    return done.map((l) => l.side);
  }

  /** Starts funding at each 8-hour boundary of the clock (the venue's, 04:00, 12:00 and 20:00 UTC, unless `offsetMs` from midnight says otherwise), at `rate(intervalStart)` and the latest mark. */
  startFunding(rate: FundingRateSource, offsetMs?: number): void {
    if (this.schedule) return;
    this.schedule = new FundingSchedule(this.o.clock, this.positions, new IndexPrices(this.o.clock), {
      rate: (_symbol, start) => toAmount(rate(start), 'fundingRate'),
      mark: () => this.mark,
    }, {
      ...(offsetMs === undefined ? {} : { offsetMs }),
      afterInstant: true,
      onSettled: (_symbol, result) => {
        for (const p of result.payments) {
          if (p.accountId !== this.accountId) continue;
          if (p.amount < 0n) this.fundingPaid -= p.amount;
          else this.fundingReceived += p.amount;
          this.trips.realize(ledgerAmount(p.amount));
        }
        this.o.onChange?.();
      },
    });
    this.schedule.start();
  }

  /** Returns the latest mark price (undefined before the first). */
  markPrice(): Amount | undefined {
    return this.mark;
  }

  /** Returns the funding settlements so far. */
  fundingRecords(): FundingRecord[] {
    return this.schedule?.records() ?? [];
  }

  /** Returns the margin token's total balance (free and locked). */
  balance(): Amount {
    const b = this.ledger.balance(this.accountId, this.token);
    return b.free + b.locked;
  }

  /** Returns mark-to-market equity: balance plus the open positions' PnL at the mark (balance alone before any mark). */
  equity(): Amount {
    let e = this.balance();
    if (this.mark === undefined) return e;
    const spec = this.positions.spec(this.symbol);
    for (const p of this.positions.list(this.accountId, this.symbol)) e += pnl(spec, p.side, p.position, p.avgPrice, this.mark, 'floor');
    return e;
  }
}

/** Returns the position side a close order closes. */
function closes(side: string): PositionSide {
  return side === 'SELL_CLOSE' ? 'LONG' : 'SHORT';
}

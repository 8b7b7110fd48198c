/** Shared fixtures for contract tests: the published BTC-PERP-REV terms (venue-samples.md, contract brokerInfo) and a linear contract. */
import { VirtualClock } from '../../../src/core/clock.ts';
import { contractSpec, Positions, type ContractSpec } from '../../../src/sim/contracts/index.ts';
import { Ledger, toAmount } from '../../../src/sim/ledger/index.ts';

/** The published BTC-PERP-REV entry of the contract brokerInfo sample, all four risk tiers. */
export const BTC_PERP_REV_INPUT = {
  symbol: 'BTC-PERP-REV',
  inverse: true,
  contractMultiplier: '1.0',
  tickSize: '0.01',
  marginToken: 'TBTC',
  marginPrecision: '0.00000001',
  index: 'BTCUSDT',
  riskLimits: [
    { riskLimitId: '200000001', quantity: '1000000.0', initialMargin: '0.01', maintMargin: '0.005' },
    { riskLimitId: '200000002', quantity: '2000000.0', initialMargin: '0.02', maintMargin: '0.01' },
    { riskLimitId: '200000003', quantity: '3000000.0', initialMargin: '0.03', maintMargin: '0.015' },
    { riskLimitId: '200000004', quantity: '4000000.0', initialMargin: '0.04', maintMargin: '0.02' },
  ],
};

/** Returns the published inverse contract, with the given fee rates (default none, as in the published order sample). */
export function inverseSpec(makerFee = '0', takerFee = '0'): ContractSpec {
  return contractSpec({ ...BTC_PERP_REV_INPUT, makerFee, takerFee });
}

/** Returns a linear USDT-margined contract (multiplier 0.0001 as venue-notes.md §6 names it). */
export function linearSpec(makerFee = '0', takerFee = '0'): ContractSpec {
  return contractSpec({
    symbol: 'BTC-SWAP-USDT',
    inverse: false,
    contractMultiplier: '0.0001',
    tickSize: '0.5',
    marginToken: 'USDT',
    marginPrecision: '0.0001',
    index: 'BTCUSDT',
    riskLimits: [{ riskLimitId: '1', quantity: '1000000', initialMargin: '0.01', maintMargin: '0.005' }],
    makerFee,
    takerFee,
  });
}

/** A ledger, positions over the given specs, and a helper that funds a fresh user's contracts account. */
export function world(specs: ContractSpec[]) {
  const clock = new VirtualClock(1_570_708_800_000);
  const ledger = new Ledger({ clock, spotFees: { maker: '0', taker: '0' } });
  const positions = new Positions(ledger, specs);
  /** Returns the contracts account id of a new user holding `amount` of `token` there. */
  const trader = (token: string, amount: string): string => {
    const user = ledger.createUser();
    ledger.deposit(user, token, toAmount(amount));
    ledger.transferPending({ userId: user, accountIndex: 0 }, { from: 'wallet', to: 'contract', currency: token, amount: toAmount(amount) });
    return ledger.accountId(user, 3, 0);
  };
  return { clock, ledger, positions, trader };
}

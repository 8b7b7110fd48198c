/** Account and wallet routes: balances, deposits, withdrawals, sub-accounts, transfers and balance flow; amounts formatted here. */
import { scaleOf } from '../../core/fixed.ts';
import { AMOUNT_SCALE, fmtAmount, toAmount, type Amount } from '../ledger/amount.ts';
import { FLOW_NAMES, FLOW_TYPES, type FlowEntry, type WithdrawalOrder } from '../ledger/types.ts';
import type { SimVenue } from '../engine/venue.ts';
import type { VenueConfig } from './config.ts';
import { ApiError, apiError } from './errors.ts';
import type { Params } from './params.ts';
import { keyOf, type Ctx, type Route } from './route.ts';

/**
 * Returns a wallet movement's amount of `asset` as an Amount; -1130 when it is not a decimal, -1111 when it
 * carries more meaningful decimals than the asset allows (an asset no instrument names: the ledger's 18). Refused
 * here, before the engine: rounding it to the asset would move an amount the caller did not ask for.
 */
function amountParam(venue: SimVenue, p: Params, name: string, asset: string): Amount | undefined {
  const s = p.optDecimal(name);
  if (s === undefined) return undefined;
  if (scaleOf(s, name) > (venue.assetDecimals(asset) ?? AMOUNT_SCALE)) throw apiError(-1111);
  try {
    return toAmount(s, name);
  } catch {
    throw apiError(-1130, name);
  }
}

function smallInt(p: Params, name: string): number | undefined {
  const n = p.optInt(name);
  if (n !== undefined && n > 1_000_000) throw apiError(-1130, name);
  return n;
}

function withdrawalView(w: WithdrawalOrder): Record<string, unknown> {
  return {
    time: String(w.time), orderId: w.orderId, accountId: w.accountId, tokenId: w.tokenId, tokenName: w.tokenId,
    address: w.address, addressExt: w.addressExt, quantity: fmtAmount(w.quantity), arriveQuantity: fmtAmount(w.arriveQuantity),
    statusCode: w.statusCode, status: w.status, txid: w.txid, txidUrl: '', walletHandleTime: String(w.walletHandleTime),
    feeTokenId: w.feeTokenId, feeTokenName: w.feeTokenId, fee: fmtAmount(w.fee), requiredConfirmNum: w.requiredConfirmNum,
    confirmNum: w.confirmNum, kernelId: '', isInternalTransfer: false,
  };
}

function flowView(f: FlowEntry): Record<string, unknown> {
  return {
    id: f.id, accountId: f.accountId, tokenId: f.asset, tokenName: f.asset, flowTypeValue: FLOW_TYPES[f.flowType], flowType: f.flowType,
    flowName: FLOW_NAMES[f.flowType], change: fmtAmount(f.change), total: fmtAmount(f.total), created: String(f.time),
  };
}

/** Returns the account and wallet routes. */
export function accountRoutes(venue: SimVenue, c: VenueConfig): Route[] {
  const ledger = venue.ledger;
  const spotAccount = (x: Ctx): string => venue.accountOf(keyOf(x).userId, 1, keyOf(x).accountIndex);
  const addresses = (userId: string): readonly string[] => {
    const name = c.accounts.find((a) => { try { return venue.user(a.name) === userId; } catch { return false; } });
    return name?.withdrawAddresses ?? [];
  };
  return [
    {
      method: 'GET', path: 'main:account', security: 'USER_DATA', weight: 5,
      handle: (x) => ({ canTrade: true, canWithdraw: true, canDeposit: true, updateTime: String(x.now), ...venue.spotAccount(spotAccount(x)) }),
    },
    {
      method: 'GET', path: 'contract:account', security: 'USER_DATA', weight: 5,
      handle: (x) => venue.contractAccount(venue.accountOf(keyOf(x).userId, 3, keyOf(x).accountIndex)),
    },
    {
      method: 'GET', path: 'main:depositOrders', security: 'USER_DATA', weight: 5,
      handle: (x) => {
        const from = x.p.optId('fromId');
        const start = x.p.optInt('startTime');
        const end = x.p.optInt('endTime');
        const list = ledger.depositOrders(keyOf(x).userId).filter((d) => (from === undefined || BigInt(d.orderId) > BigInt(from)) &&
          (start === undefined || d.time >= start) && (end === undefined || d.time <= end));
        return list.slice(-x.p.limit(500, 1000)).map((d) => ({
          time: String(d.time), orderId: d.orderId, token: d.token, address: '', addressTag: '', fromAddress: '', fromAddressTag: '', quantity: fmtAmount(d.quantity),
        }));
      },
    },
    {
      method: 'GET', path: 'main:withdrawalOrders', security: 'USER_DATA', weight: 5,
      handle: (x) => {
        const start = x.p.optInt('startTime');
        const end = x.p.optInt('endTime');
        const from = x.p.optId('fromId');
        const list = ledger.withdrawals(keyOf(x).userId, x.p.opt('token')).filter((w) => (start === undefined || w.time >= start) &&
          (end === undefined || w.time <= end) && (from === undefined || BigInt(w.orderId) < BigInt(from)));
        return list.slice(-x.p.limit(500, 1000)).reverse().map(withdrawalView);
      },
    },
    {
      method: 'GET', path: 'main:withdraw/detail', security: 'USER_DATA', weight: 1,
      handle: (x) => {
        const by = { orderId: x.p.optId('orderId'), clientOrderId: x.p.opt('clientOrderId') };
        if (!by.orderId && !by.clientOrderId) throw apiError(-1105, 'orderId or clientOrderId');
        const w = ledger.withdrawal(keyOf(x).userId, by);
        if (!w) throw apiError(-2013);
        return withdrawalView(w);
      },
    },
    {
      method: 'POST', path: 'main:withdraw', security: 'WALLET', weight: 1,
      handle: (x) => {
        const userId = keyOf(x).userId;
        const address = x.p.opt('address') ?? '';
        const allowed = addresses(userId);
        if (address !== '' && allowed.length > 0 && !allowed.includes(address)) throw new ApiError(-1187, 'Withdrawal address not in whitelist');
        const tokenId = x.p.opt('tokenId') ?? '';
        const r = venue.withdraw({
          userId, tokenId, clientOrderId: x.p.opt('clientOrderId') ?? '', address, addressExt: x.p.opt('addressExt'),
          quantity: amountParam(venue, x.p, 'withdrawQuantity', tokenId) ?? 0n, chainType: x.p.opt('chainType'),
        });
        return { status: r.status, success: r.success, needBrokerAudit: r.needBrokerAudit, orderId: r.orderId };
      },
    },
    {
      method: 'POST', path: 'main:subAccount/query', security: 'USER_DATA', weight: 5,
      handle: (x) => ledger.accounts(keyOf(x).userId)
        .filter((a) => keyOf(x).accountIndex === 0 || a.accountIndex === keyOf(x).accountIndex)
        .map((a) => ({ accountId: a.accountId, accountName: a.accountName, accountType: a.accountType, accountIndex: a.accountIndex })),
    },
    {
      method: 'POST', path: 'main:transfer', security: 'WALLET', weight: 1,
      handle: (x) => {
        const actor = { userId: keyOf(x).userId, accountIndex: keyOf(x).accountIndex };
        if (x.p.opt('from') !== undefined || x.p.opt('to') !== undefined) {
          const currency = x.p.opt('currency') ?? '';
          venue.transferPending(actor, { from: x.p.opt('from') ?? '', to: x.p.opt('to') ?? '', currency, amount: amountParam(venue, x.p, 'amount', currency) ?? 0n });
          return { message: 'success', timestamp: x.now };
        }
        const tokenId = x.p.opt('tokenId') ?? '';
        const req = {
          fromAccountType: smallInt(x.p, 'fromAccountType'), fromAccountIndex: smallInt(x.p, 'fromAccountIndex'),
          toAccountType: smallInt(x.p, 'toAccountType'), toAccountIndex: smallInt(x.p, 'toAccountIndex'),
          tokenId, amount: amountParam(venue, x.p, 'amount', tokenId) ?? 0n,
        };
        venue.transfer(actor, req);
        return { success: 'true' };
      },
    },
    ...(['GET', 'POST'] as const).map((method): Route => ({
      method, path: 'main:balance_flow', security: 'USER_DATA', weight: 5,
      handle: (x) => {
        const k = keyOf(x);
        const type = smallInt(x.p, 'accountType') ?? 1;
        const index = k.accountIndex > 0 ? k.accountIndex : smallInt(x.p, 'accountIndex') ?? 0;
        if (type !== 1 && type !== 3) throw apiError(-1130, 'accountType');
        const acct = ledger.findAccountId(k.userId, type, index);
        if (acct === undefined) throw new ApiError(-1171, 'account not exist.');
        const fromId = x.p.optId('fromFlowId');
        const endId = x.p.optId('endFlowId');
        const start = x.p.optInt('startTime');
        const end = x.p.optInt('endTime');
        const list = ledger.flows(acct, x.p.opt('tokenId')).filter((f) => (fromId === undefined || BigInt(f.id) > BigInt(fromId)) &&
          (endId === undefined || BigInt(f.id) < BigInt(endId)) && (start === undefined || f.time >= start) && (end === undefined || f.time <= end));
        return list.slice(-x.p.limit(500, 500)).reverse().map(flowView);
      },
    })),
  ];
}

// Exact values of orders, trades and account records parsed from the published samples.
import { describe, expect, it } from 'vitest';
import * as m from '../../src/model/index.ts';
import { loadSample } from '../fixtures/samples.ts';

const payload = (name: string): unknown => loadSample(name).payload;

describe('spot orders', () => {
  it('keeps the 64-bit orderId of a real placement as a string and reads its string times', () => {
    const ack = m.parseSpotOrderAck(payload('spot-new-order-market-buy.capture-2020'));
    expect(ack).toMatchObject({ orderId: '616376654496877056', clientOrderId: '158821382304516955', transactTime: 1588213823080, price: '0', origQty: '1000', type: 'MARKET', side: 'BUY', status: 'NEW' });
  });

  it('accepts the official two-field placement answer with numeric ids', () => {
    expect(m.parseSpotOrderAck(payload('spot-new-order.official'))).toMatchObject({ orderId: '28', clientOrderId: '6k9M212T12092', symbol: undefined });
  });

  it('reads numeric and string times alike and strips trailing zeros ("1.0" → "1", "0.0" → "0")', () => {
    const official = m.parseSpotOrder(payload('spot-query-order.official'));
    expect(official).toMatchObject({ orderId: '1', origQty: '1', executedQty: '0', stopPrice: '0', time: 1499827319559, updateTime: 1499827319559, isWorking: true });
    const [real] = m.parseSpotOrderList(payload('spot-history-orders.capture-2020'));
    expect(real).toMatchObject({ orderId: '616384027202542080', exchangeId: '301', cummulativeQuoteQty: '682.606', avgPrice: '6826.06', time: 1588214701974, updateTime: 0, status: 'FILLED' });
  });

  it('reads a cancel with clientOrderId "0"', () => {
    expect(m.parseSpotCancel(payload('spot-cancel-order.capture-2020'))).toEqual({ exchangeId: '301', symbol: 'BHTUSDT', clientOrderId: '0', orderId: '499890200602846976', status: 'CANCELED' });
  });
});

describe('contract orders', () => {
  it('reads the placement answer with its fees list and updateTime "0"', () => {
    const o = m.parseContractOrder(payload('contract-new-order.official'));
    expect(o).toMatchObject({ orderId: '469961015902208000', time: 1570759718825, updateTime: 0, leverage: '12.08', marginLocked: '0.00005047', side: 'BUY_OPEN', priceType: 'INPUT', orderType: 'LIMIT', fees: [] });
  });

  it('reads a close order whose leverage is "" (as the simulated venue answers it) or absent as one without leverage', () => {
    // The published placement answer turned into a close, in both forms a venue may send.
    const published = payload('contract-new-order.official') as Record<string, unknown>;
    const close = { ...published, side: 'SELL_CLOSE', leverage: '' };
    expect(m.parseContractOrder(close)).toMatchObject({ side: 'SELL_CLOSE', leverage: undefined, price: '8200', origQty: '5' });
    const { leverage: _dropped, ...absent } = published;
    expect(m.parseContractOrder({ ...absent, side: 'SELL_CLOSE' }).leverage).toBeUndefined();
    expect(() => m.parseContractOrder({ ...published, leverage: 'x' })).toThrow(/leverage/);
  });
});

describe('trades', () => {
  it('reads the 2020 spot trade with string ids and time and its nested fee', () => {
    const [t] = m.parseSpotTradeList(payload('spot-my-trades.capture-2020'));
    expect(t).toEqual({
      id: '616384027512920576', symbol: 'TBTCBUSDT', orderId: '616384027202542080', matchOrderId: '605124954767266560',
      price: '6826.06', qty: '0.1', commission: '0.682606', commissionAsset: 'BUSDT', time: 1588214701982, isBuyer: false, isMaker: false,
      fee: { feeTokenId: 'BUSDT', feeTokenName: 'BUSDT', fee: '0.682606' },
    });
  });

  it('reads the official spot trade with numeric ids and the flat fee fields', () => {
    const [t] = m.parseSpotTradeList(payload('spot-my-trades.official'));
    expect(t).toMatchObject({ id: '28457', orderId: '100234', matchOrderId: '109834', qty: '12', time: 1499865549590, fee: { feeTokenId: 'ETH', fee: '0.012' } });
  });

  it('keeps a matchOrderId beyond 2^53 sent as a bare JSON number exact', () => {
    const [t] = m.parseContractTradeList(payload('contract-my-trades.official'));
    expect(t?.matchOrderId).toBe('436002617267469062');
    expect(t).toMatchObject({ tradeId: '469968263995080704', accountId: '456552319339779840', symbol: 'BTC-PERP-REV', quantity: '100', pnl: '100.1', side: 'BUY_OPEN' });
  });
});

describe('positions, balances and wallet', () => {
  it('reads the published position exactly', () => {
    const [p] = m.parsePositionList(payload('contract-positions.official'));
    expect(p).toMatchObject({ side: 'LONG', avgPrice: '8183.11', position: '1100', positionValue: '0.12833346', flp: '7523.65', margin: '0.01251335', realizedPnL: '-0.00006721' });
  });

  it('keys the contract account by margin token and accepts the extra tokenId', () => {
    const acct = m.parseContractAccount(payload('contract-account.capture-2020'));
    expect(Object.keys(acct)).toEqual(['BUSDT', 'TBTC']);
    expect(acct['TBTC']).toEqual({ token: 'TBTC', total: '0.5', availableMargin: '0.5', positionMargin: '0', orderMargin: '0', tokenId: 'TBTC' });
  });

  it('reads a spot account with and without the permission flags', () => {
    expect(m.parseSpotAccount(payload('spot-account.official'))).toMatchObject({ canTrade: true, updateTime: 123456789, balances: [{ asset: 'BTC', free: '4723846.89208129', locked: '0' }, { asset: 'LTC' }] });
    expect(m.parseSpotAccount(payload('spot-account.capture-2020')).canTrade).toBeUndefined();
  });

  it('reads withdrawals, deposits and the withdraw answer', () => {
    const [w] = m.parseWithdrawalList(payload('withdrawal-orders.capture-2020'));
    expect(w).toMatchObject({ orderId: '90161227158286336', statusCode: 'PROCESSING_STATUS', status: 3, quantity: '14', fee: '0.1', walletHandleTime: 1536232111669, isInternalTransfer: false });
    const [d] = m.parseDepositList(payload('deposit-orders.capture-2020'));
    expect(d).toEqual({ time: 1565769575929, orderId: '428100569859739648', token: 'USDT', address: '', addressTag: '', fromAddress: '', fromAddressTag: '', quantity: '1100' });
    expect(m.parseWithdrawResult(payload('withdraw.capture-2020'))).toEqual({ status: 0, success: true, needBrokerAudit: false, orderId: '423885103582776064' });
  });
});

describe('account records', () => {
  it('reads both transfer answers', () => {
    expect(m.parseTransferResult(payload('transfer.official'))).toEqual({ kind: 'success', success: true });
    expect(m.parseTransferResult(payload('transfer-pending.official'))).toEqual({ kind: 'message', message: 'success', timestamp: 1541161088303 });
  });

  it('reads sub-accounts with string ids and integer types', () => {
    const subs = m.parseSubAccountList(payload('sub-accounts.official'));
    expect(subs.map((s) => `${s.accountId}/${s.accountType}/${s.accountIndex}`)).toEqual([
      '122216245228131/1/0', '482694560475091200/1/1', '422446415267060992/3/0', '482711469199298816/3/1',
    ]);
  });

  it('reads balance flow with its type name and id as sent', () => {
    const [a, b] = m.parseBalanceFlowList(payload('balance-flow.capture-2020'));
    expect(a).toMatchObject({ id: '539870570957903104', flowType: 'USER_ACCOUNT_TRANSFER', flowTypeValue: 51, knownFlowType: true, change: '-12.5', created: 1579093587214 });
    expect(b).toMatchObject({ flowType: 'AIRDROP', flowTypeValue: 7 });
    expect(m.balanceFlowTypeId('AIRDROP')).toBe(70);
    expect(m.balanceFlowTypeName(51)).toBe('USER_ACCOUNT_TRANSFER');
  });

  it('reads a margin change and an insurance value published as JSON numbers as decimal strings', () => {
    expect(m.parseModifyMarginResult(payload('contract-modify-margin.official'))).toEqual({ symbol: 'BTC-PERP-REV', margin: '15', timestamp: 1541161088303 });
    expect(m.parseInsuranceRecords(payload('contract-insurance.official'))['BTC']?.[0]).toEqual({ id: '1552272184833', timestamp: 155227218483, value: '23.23', unit: 'BTC' });
  });

  it('reads error bodies, including the quote server code -100012', () => {
    expect(m.parseErrorPayload(payload('error-invalid-symbol.official'))).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    expect(m.parseErrorPayload(payload('error-symbol-missing.capture-2024')).code).toBe(-100012);
    expect(m.parseErrorPayload(payload('error-invalid-type-param.capture-2024')).msg).toBe("Data sent for paramter 'type' is not valid.");
  });
});

describe('market data', () => {
  it('turns 11-element kline arrays into objects (real closeTime 0)', () => {
    const [k] = m.parseKlineList(payload('spot-klines.official'));
    expect(k).toEqual({
      openTime: 1499040000000, open: '0.0163479', high: '0.8', low: '0.015758', close: '0.015771', volume: '148976.11427815',
      closeTime: 1499644799999, quoteVolume: '2434.19055334', trades: 308, takerBuyBaseVolume: '1756.87402397', takerBuyQuoteVolume: '28.46694368',
    });
    expect(m.parseKlineList(payload('spot-klines.capture-2020'))[2]).toMatchObject({ high: '0.1848', closeTime: 0, trades: 1, volume: '53' });
  });

  it('reads depth levels best first, with and without time', () => {
    expect(m.parseDepth(payload('spot-depth.official'))).toEqual({ time: undefined, bids: [['3.9', '431'], ['4', '431']], asks: [['4.000002', '12'], ['5.1', '28']] });
    expect(m.parseDepth(payload('contract-depth.official')).time).toBe(1555049455783);
  });

  it('reads contract info with its second-based timestamps as sent', () => {
    const [c] = m.parseContractInfoList(payload('contracts.official'));
    expect(c).toMatchObject({ symbol: 'BTC-PERP-REV', startTs: 1598789083, nextFundingRateTs: 1598904000, fundingRate: '0.000038494841395324' });
  });

  it('reads funding rates with string interval bounds', () => {
    expect(m.parseFundingRateList(payload('contract-funding-rate.official'))).toEqual([
      { symbol: 'BTC-PERP-REV', intervalStart: 1570708800000, intervalEnd: 1570737600000, rate: '-0.000048567445464006', index: undefined },
    ]);
  });
});

// The bus routes each event to the streams of its kind and symbol, in publish order, to subscribers present when it was published.
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/bus/index.ts';
import { connectionStateEvent, reconnectedEvent, type BusEvent } from '../../src/model/events.ts';
import {
  capturedLogger, sampleBalance, sampleBook, sampleContractReport, sampleDiff, samplePosition, sampleSpotReport, sampleTrade,
} from './samples.ts';

function newBus(): EventBus {
  return new EventBus({ logger: capturedLogger().logger });
}

describe('EventBus routing', () => {
  it('sends each kind only to its own stream, and everything to events$ in publish order', () => {
    const bus = newBus();
    const all: string[] = [];
    const trades: string[] = [];
    const orders: string[] = [];
    const books: string[] = [];
    bus.events$.subscribe((e) => all.push(e.kind));
    bus.on('trade').subscribe((e) => trades.push(e.tradeId));
    bus.on('order').subscribe((e) => orders.push(e.orderId));
    bus.on('depthSnapshot').subscribe((e) => books.push(e.version));

    bus.publish(sampleBook());
    bus.publish(sampleTrade(0));
    bus.publish(sampleDiff());
    bus.publish(sampleSpotReport());
    bus.publish(sampleTrade(1));
    bus.publish(sampleContractReport());
    bus.publish(sampleBalance());

    expect(all).toEqual(['depthSnapshot', 'trade', 'depthUpdate', 'order', 'trade', 'order', 'balance']);
    expect(trades).toEqual(['426635153180475392', '426635153373413376']);
    expect(orders).toEqual(['4293153', '635999362524162048']);
    expect(books).toEqual(['112801745_18']);
  });

  it('sends a symbol stream only the events of its kind and symbol', () => {
    const bus = newBus();
    const btc: string[] = [];
    const eth: string[] = [];
    const btcBooks: string[] = [];
    bus.forSymbol('trade', 'BTCUSDT').subscribe((e) => btc.push(`${e.symbol}:${e.tradeId}`));
    bus.forSymbol('trade', 'ETHUSDT').subscribe((e) => eth.push(`${e.symbol}:${e.tradeId}`));
    bus.forSymbol('depthSnapshot', 'BTCUSDT').subscribe((e) => btcBooks.push(e.symbol));

    bus.publish(sampleTrade(0, 'BTCUSDT'));
    bus.publish(sampleTrade(0, 'ETHUSDT'));
    bus.publish(sampleBook('ETHUSDT'));
    bus.publish(sampleTrade(1, 'BTCUSDT'));
    bus.publish(sampleBook('BTCUSDT'));

    expect(btc).toEqual(['BTCUSDT:426635153180475392', 'BTCUSDT:426635153373413376']);
    expect(eth).toEqual(['ETHUSDT:426635153180475392']);
    expect(btcBooks).toEqual(['BTCUSDT']);
  });

  it('routes order and position reports per symbol, and account and connection events per kind', () => {
    const bus = newBus();
    const perp: string[] = [];
    const conn: string[] = [];
    bus.forSymbol('order', 'BTC-PERP-BUSDT').subscribe((e) => perp.push(e.status));
    bus.forSymbol('position', 'BTC-SWAP-USDT').subscribe((e) => perp.push(`${e.side} ${e.position}`));
    bus.on('connection').subscribe((e) => conn.push(`${e.connection}:${e.state}`));
    bus.on('reconnected').subscribe((e) => conn.push(`${e.connection}:reconnected#${e.attempt}`));

    bus.publish(sampleSpotReport());
    bus.publish(sampleContractReport());
    bus.publish(samplePosition());
    bus.publish(connectionStateEvent({ connection: 'user', state: 'reconnecting', reason: 'silent for 60000 ms', ts: 5, recvTs: 5 }));
    bus.publish(connectionStateEvent({ connection: 'user', state: 'ready', reason: '', ts: 9, recvTs: 9 }));
    bus.publish(reconnectedEvent({ connection: 'user', downSince: 5, attempt: 1, ts: 9, recvTs: 9 }));

    expect(perp).toEqual(['FILLED', 'LONG 269']);
    expect(conn).toEqual(['user:reconnecting', 'user:ready', 'user:reconnected#1']);
  });

  it('gives a late subscriber only the events published after it subscribed', () => {
    const bus = newBus();
    bus.publish(sampleTrade(0));
    const seen: string[] = [];
    bus.on('trade').subscribe((e) => seen.push(e.tradeId));
    bus.forSymbol('trade', 'BTCUSDT').subscribe((e) => seen.push(`sym:${e.tradeId}`));
    bus.publish(sampleTrade(1));
    expect(seen).toEqual(['426635153373413376', 'sym:426635153373413376']);
  });

  it('stops delivering after unsubscribe and forgets the subscriber', () => {
    const bus = newBus();
    const seen: string[] = [];
    const a = bus.forSymbol('trade', 'BTCUSDT').subscribe((e) => seen.push(e.tradeId));
    const off = bus.subscribe('trade', (e) => seen.push(`plain:${e.tradeId}`));
    expect(bus.stats().subscribers).toBe(2);
    bus.publish(sampleTrade(0));
    a.unsubscribe();
    off();
    off();
    bus.publish(sampleTrade(1));
    // Per-kind subscribers are served before per-symbol ones.
    expect(seen).toEqual(['plain:426635153180475392', '426635153180475392']);
    expect(bus.stats().subscribers).toBe(0);
  });

  it('delivers a publish made from inside a handler after the current event has reached everyone', () => {
    const bus = newBus();
    const order: string[] = [];
    bus.on('trade').subscribe((e) => {
      order.push(`A:${e.kind}`);
      if (e.kind === 'trade') bus.publish(sampleBalance());
    });
    bus.events$.subscribe((e) => order.push(`all:${e.kind}`));
    bus.on('balance').subscribe((e) => order.push(`B:${e.kind}`));
    bus.publish(sampleTrade(0));
    // events$ subscribers are served before per-kind ones; either way nobody sees the balance before the trade.
    expect(order).toEqual(['all:trade', 'A:trade', 'all:balance', 'B:balance']);
  });

  it('does not hand the current event to a subscriber added while it is being delivered', () => {
    const bus = newBus();
    const late: string[] = [];
    let added = false;
    bus.on('trade').subscribe(() => {
      if (added) return;
      added = true;
      bus.on('trade').subscribe((e) => late.push(e.tradeId));
    });
    bus.publish(sampleTrade(0));
    bus.publish(sampleTrade(1));
    expect(late).toEqual(['426635153373413376']);
  });

  it('completes every stream on close, ignores later publishes and completes later subscribers at once', () => {
    const bus = newBus();
    const done: string[] = [];
    const seen: BusEvent[] = [];
    bus.events$.subscribe({ next: (e) => seen.push(e), complete: () => done.push('events$') });
    bus.on('trade').subscribe({ complete: () => done.push('on') });
    bus.forSymbol('trade', 'BTCUSDT').subscribe({ complete: () => done.push('forSymbol') });
    bus.close();
    bus.publish(sampleTrade(0));
    bus.on('trade').subscribe({ next: (e) => seen.push(e), complete: () => done.push('late') });
    expect(done).toEqual(['events$', 'on', 'forSymbol', 'late']);
    expect(seen).toEqual([]);
    expect(bus.stats()).toMatchObject({ closed: true, subscribers: 0, published: 0 });
  });

  it('tells a producer whether an event of a kind and symbol would reach anyone now', () => {
    const bus = newBus();
    expect(bus.reads('depthUpdate', 'BTCUSDT')).toBe(false);
    const offOther = bus.subscribe('depthUpdate', () => undefined, { symbol: 'ETHUSDT' });
    const offBook = bus.subscribe('depthSnapshot', () => undefined);
    expect(bus.reads('depthUpdate', 'BTCUSDT')).toBe(false);
    expect(bus.reads('depthUpdate', 'ETHUSDT')).toBe(true);
    expect(bus.reads('depthSnapshot', 'BTCUSDT')).toBe(true);
    offOther();
    offBook();
    expect(bus.reads('depthUpdate', 'ETHUSDT')).toBe(false);
    const all = bus.events$.subscribe(() => undefined);
    expect(bus.reads('depthUpdate', 'BTCUSDT')).toBe(true);
    all.unsubscribe();
    expect(bus.reads('depthUpdate', 'BTCUSDT')).toBe(false);
    // A handler may subscribe while an event is delivered, before a publish from inside it reaches anyone.
    const inside: boolean[] = [];
    bus.subscribe('trade', () => inside.push(bus.reads('depthUpdate', 'BTCUSDT')));
    bus.publish(sampleTrade(0));
    expect(inside).toEqual([true]);
    bus.subscribe('depthUpdate', () => undefined, { symbol: 'BTCUSDT' });
    bus.close();
    expect(bus.reads('depthUpdate', 'BTCUSDT')).toBe(false);
  });
});

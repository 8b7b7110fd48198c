import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClock } from '../../../src/core/clock.ts';
import { startVenue, type RunningVenue } from '../../../src/sim/server/start.ts';
import { testConfig } from './helpers.ts';

let v: RunningVenue;
beforeAll(async () => { v = await startVenue({ config: testConfig(), clock: new LiveClock(), host: '127.0.0.1', port: 0 }); });
afterAll(async () => v.stop());

function run(cmd: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    p.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    p.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

describe('the plain protocol with curl and openssl only', () => {
  it('signs and places an order, queries it and cancels it', async () => {
    const r = await run('bash', ['test/sim/server/curl-order.sh', v.server.restUrl]);
    expect(r.code, r.err).toBe(0);
    const line = (k: string): Record<string, unknown> => JSON.parse(r.out.split('\n').find((l) => l.startsWith(`${k} `))!.slice(k.length + 1)) as Record<string, unknown>;
    const placed = line('placed');
    expect(placed).toMatchObject({ symbol: 'ETHBTC', clientOrderId: 'curl-1', status: 'NEW', price: '0.01', origQty: '1' });
    expect(line('queried')).toMatchObject({ orderId: placed['orderId'], status: 'NEW', clientOrderId: 'curl-1' });
    expect(line('canceled')).toMatchObject({ orderId: placed['orderId'], status: 'CANCELED' });
  });
});

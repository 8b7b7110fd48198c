// RestGateway (over loopback to the venue's server) and SimGateway (in-process) give the same answers, refusals included, to the same script on identical venues.
import { describe, expect, it } from 'vitest';
import { runScript } from './contract.ts';
import { restHarness, simHarness } from './harness.ts';

describe('gateway parity', () => {
  it('answers every step of the contract script identically', async () => {
    const rest = await restHarness();
    const sim = await simHarness();
    try {
      const a = await runScript(rest);
      const b = await runScript(sim);
      expect(b.map(([n]) => n)).toEqual(a.map(([n]) => n));
      for (let i = 0; i < a.length; i++) expect(b[i]![1], a[i]![0]).toEqual(a[i]![1]);
    } finally {
      await rest.close();
      await sim.close();
    }
  });
});

/** Returns a report without its arrival time, the one field that legitimately differs (socket vs in-process). */
function withoutArrival(ev: object): object {
  const { recvTs: _, ...rest } = ev as { recvTs: number };
  return rest;
}

describe('report parity', () => {
  it('SimGateway delivers the same order, balance and position reports, in the same order, as the user stream client over the server', async () => {
    const rest = await restHarness();
    const sim = await simHarness();
    try {
      await runScript(rest);
      await runScript(sim);
      // Balance reports leave the engine's mapper one microtask after their operation.
      await Promise.resolve();
      expect(sim.reports.filter((r) => r.kind === 'order').length).toBeGreaterThan(20);
      await rest.reportsReached(sim.reports.length);
      expect(rest.reports.map(withoutArrival)).toEqual(sim.reports.map(withoutArrival));
    } finally {
      await rest.close();
      await sim.close();
    }
  });
});

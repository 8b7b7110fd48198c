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

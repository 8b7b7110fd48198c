/**
 * The chaos run: the three example strategies as `bhtrade run` children against a `bhtrade venue` child
 * with a journal, through every fault kind at seeded times; then a final segment with the bots in-process
 * (startApp) through every fault but a bot kill, compared with the venue and stopped. Every check reads
 * the venue's admin audit or REST answers: none counts market events in a time window.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadRunConfig } from '../../src/app/config.ts';
import { startApp, type RunningApp } from '../../src/app/run.ts';
import { Decimal } from '../../src/core/fixed.ts';
import { createLogger } from '../../src/core/logger.ts';
import { settleAndCompare } from '../../test/app/scenario.ts';
import { VenueAdmin, WINDOW_SETTINGS, type Audit } from './admin.ts';
import { FAULT_KINDS, faultPlan, type Round } from './plan.ts';
import { freePort, startBotChild, startVenueChild, type Child } from './procs.ts';
import { writeConfigs, type Bot } from './setup.ts';
import { newTally, type Tally } from './tally.ts';

export interface ChaosOptions {
  readonly minutes: number;
  readonly seed: number;
  /** Folder for the configs, the venue's state and journal, and every log. */
  readonly dir: string;
  /** Progress lines. */
  readonly say: (line: string) => void;
  /** Longest wait for a strategy's next order or the venue's start: it only catches hangs. */
  readonly hangMs: number;
}

/** Runs the chaos run and returns its findings. */
export async function runChaos(o: ChaosOptions): Promise<Tally> {
  const t = newTally();
  const onUnhandled = (e: unknown): void => { t.unhandled.push(`in-process: ${String((e as Error)?.stack ?? e)}`); };
  process.on('unhandledRejection', onUnhandled);
  const port = await freePort();
  const { venueConfig, venueEnv, bots } = writeConfigs(o.dir, port);
  const admin = new VenueAdmin(`http://127.0.0.1:${port}`);
  const watch = (c: Child): Child => {
    void c.exited.then((e) => { if (!c.asked) t.exits.push(`${c.name} exited by itself (${e.code ?? e.signal}); see ${c.logFile}`); });
    return c;
  };
  const startVenue = async (): Promise<Child> => watch(await startVenueChild(venueConfig, port, venueEnv, join(o.dir, 'venue.log'), o.hangMs));
  const startBot = (b: Bot): Child => watch(startBotChild(b.id, b.config, b.env, join(o.dir, `${b.id}.log`)));
  let bansBefore = 0;
  const observe = (a: Audit, b?: Bot): void => {
    t.bans = bansBefore + a.bans;
    if (!a.conserved) for (const x of a.assets.filter((y) => !y.conserved)) t.notConserved.add(`${x.asset}: held ${x.held}, in − out ${x.net}`);
    for (const id of a.duplicateOrderIds) t.duplicates.add(`orderId ${id}`);
    for (const id of a.duplicateClientOrderIds) t.duplicates.add(`clientOrderId ${id}`);
    if (b === undefined || a.user === undefined) return;
    for (const [symbol, n] of Object.entries(a.user.openOrders)) {
      const max = b.maxOpenOrders[symbol];
      if (max !== undefined && n > max) t.riskBreaches.add(`${b.id}: ${n} working orders on ${symbol}, maxOpenOrders ${max}`);
    }
  };
  /** Resolves once every bot placed an order after `since` (venue time on this machine's clock); a bot that does not within hangMs is frozen. */
  const lively = async (since: number, what: string): Promise<void> => {
    const waiting = new Set(bots);
    const deadline = Date.now() + o.hangMs;
    while (waiting.size > 0 && Date.now() < deadline) {
      for (const b of [...waiting]) {
        const a = await admin.audit(b.user);
        observe(a, b);
        if (a.user!.lastOrderTime > since) waiting.delete(b);
      }
      if (waiting.size > 0) await sleep(250);
    }
    for (const b of waiting) t.frozen.push(`${b.id} placed no order within ${o.hangMs} ms after ${what}`);
  };

  let venue = await startVenue();
  const children = new Map(bots.map((b) => [b.id, startBot(b)]));
  let apps: RunningApp[] = [];
  const apply = async (r: Round): Promise<void> => {
    switch (r.kind) {
      case 'dropSockets': case 'reorder': case 'delay': case 'duplicate': case 'error5xx': case 'timeout504': case 'storm429':
        await admin.setFaults(WINDOW_SETTINGS[r.kind]);
        if (r.kind === 'dropSockets') await admin.dropSockets();
        await sleep(r.windowMs);
        await admin.clearFaults();
        return;
      case 'listenKeyExpiry':
        await admin.expireListenKeys();
        return;
      case 'venueKill': {
        observe(await admin.audit());
        bansBefore = t.bans;
        await venue.kill('SIGKILL');
        await sleep(r.downMs);
        venue = await startVenue();
        return;
      }
      case 'botKill': {
        const b = bots[r.bot]!;
        const c = children.get(b.id);
        // In the in-process segment there is no child to kill: the plan leaves botKill out there.
        if (c === undefined) return;
        await c.kill('SIGKILL');
        children.set(b.id, startBot(b));
        return;
      }
    }
  };
  const round = async (r: Round, segment: string): Promise<void> => {
    await sleep(r.gapMs);
    const n = (t.rounds.get(r.kind) ?? 0) + 1;
    t.rounds.set(r.kind, n);
    o.say(`${segment}: ${r.kind} #${n}`);
    await apply(r);
    await lively(Date.now(), `${r.kind} #${n} (${segment})`);
  };

  try {
    o.say(`venue on 127.0.0.1:${port}, bots ${bots.map((b) => b.id).join(', ')}; files in ${o.dir}`);
    await lively(0, 'start');
    const plan = faultPlan(o.seed, FAULT_KINDS, bots.length);
    const end = Date.now() + o.minutes * 60_000;
    const seen = new Set<string>();
    while (Date.now() < end || seen.size < FAULT_KINDS.length) {
      const r = plan.next().value as Round;
      await round(r, 'children');
      seen.add(r.kind);
    }
    // The graceful stop under 429s: each bot must cancel its orders through the rate budget and exit 0.
    await admin.setFaults({ rateLimitStorm: { count: 2 } });
    for (const b of bots) {
      const e = await children.get(b.id)!.kill('SIGTERM');
      if (e.code !== 0) t.exits.push(`${b.id}: bhtrade run exited ${e.code ?? e.signal} on SIGTERM`);
      await leftAfterStop(admin, b, 'bhtrade run stopped', t);
    }
    children.clear();
    await admin.clearFaults();

    o.say('in-process segment');
    apps = await Promise.all(bots.map(async (b) => startApp(loadRunConfig(b.config, b.env), {
      log: createLogger({ level: 'info', destination: createWriteStream(join(o.dir, `${b.id}-final.log`), { flags: 'a' }) }),
    })));
    await lively(Date.now(), 'the in-process start');
    const last = faultPlan(o.seed + 1, FAULT_KINDS.filter((k) => k !== 'botKill'), bots.length);
    for (let i = 0; i < FAULT_KINDS.length - 1; i++) await round(last.next().value as Round, 'in-process');
    await admin.clearFaults();
    for (const [i, b] of bots.entries()) {
      const app = apps[i]!;
      const c = await settleAndCompare(app);
      for (const d of [...c.openDiff, ...c.orderDiff, ...c.balanceDiff, ...c.positionDiff]) t.stateDiff.push(`${b.id}: ${d}`);
      for (const id of c.duplicateClientIds) t.duplicates.add(`${b.id}: clientOrderId ${id} placed twice`);
      for (const p of await app.rest.contractPositions({})) {
        const max = b.maxPosition[p.symbol];
        if (max !== undefined && new Decimal(p.position).abs().gt(max)) t.riskBreaches.add(`${b.id}: position ${p.position} on ${p.symbol}, maxPosition ${max}`);
      }
      await app.stop('chaos run ended');
      await leftAfterStop(admin, b, 'the in-process bot stopped', t);
    }
    apps = [];
    observe(await admin.audit());
  } finally {
    for (const app of apps) await app.stop('chaos run aborted').catch(() => undefined);
    for (const c of children.values()) await c.kill('SIGKILL');
    const e = await venue.kill('SIGTERM');
    if (e.code !== 0) t.exits.push(`venue exited ${e.code ?? e.signal} on SIGTERM`);
    process.off('unhandledRejection', onUnhandled);
  }
  return t;
}

async function leftAfterStop(admin: VenueAdmin, b: Bot, when: string, t: Tally): Promise<void> {
  const open = (await admin.audit(b.user)).user!.openOrders;
  for (const [symbol, n] of Object.entries(open)) t.ordersLeft.push(`${b.id}: ${n} working on ${symbol} after ${when}`);
}

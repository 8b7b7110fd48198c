/**
 * The chaos run: the three example strategies in one `bhtrade run` child against a `bhtrade venue` child
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
  const { venueConfig, venueEnv, bot } = writeConfigs(o.dir, port);
  const admin = new VenueAdmin(`http://127.0.0.1:${port}`);
  const watch = (c: Child): Child => {
    void c.exited.then((e) => { if (!c.asked) t.exits.push(`${c.name} exited by itself (${e.code ?? e.signal}); see ${c.logFile}${c.why()}`); });
    return c;
  };
  const startVenue = async (): Promise<Child> => watch(await startVenueChild(venueConfig, port, venueEnv, join(o.dir, 'venue.log'), o.hangMs));
  const startBot = (): Child => watch(startBotChild(bot.id, bot.config, bot.env, join(o.dir, `${bot.id}.log`)));
  let bansBefore = 0;
  const observe = (a: Audit): void => {
    t.bans = bansBefore + a.bans;
    if (!a.conserved) for (const x of a.assets.filter((y) => !y.conserved)) t.notConserved.add(`${x.asset}: held ${x.held}, in − out ${x.net}`);
    for (const id of a.duplicateOrderIds) t.duplicates.add(`orderId ${id}`);
    for (const id of a.duplicateClientOrderIds) t.duplicates.add(`clientOrderId ${id}`);
    if (a.user === undefined) return;
    for (const [symbol, n] of Object.entries(a.user.openOrders)) {
      const max = bot.maxOpenOrders[symbol];
      if (max !== undefined && n > max) t.riskBreaches.add(`${n} working orders on ${symbol}, maxOpenOrders ${max}`);
    }
  };
  /**
   * Resolves once every strategy placed an order after `since` (venue time on this machine's clock) or
   * has working orders resting on the venue: a grid whose ladder is all resting waits for the market, by
   * design. One that has neither within hangMs (a hang limit, never a measure of speed) is frozen.
   */
  const lively = async (since: number, what: string): Promise<void> => {
    const waiting = new Set(bot.strategies);
    const deadline = Date.now() + o.hangMs;
    while (waiting.size > 0 && Date.now() < deadline) {
      const a = await admin.audit(bot.user);
      observe(a);
      for (const id of [...waiting]) if ((a.user!.lastOrderTimeByTag[id] ?? 0) > since || (a.user!.openOrdersByTag[id] ?? 0) > 0) waiting.delete(id);
      if (waiting.size > 0) await sleep(250);
    }
    for (const id of waiting) t.frozen.push(`${id} placed no order within ${o.hangMs} ms after ${what}`);
  };

  let venue = await startVenue();
  let child: Child | undefined = startBot();
  let app: RunningApp | undefined;
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
      case 'botKill':
        // In the in-process segment there is no child to kill: the plan leaves botKill out there.
        if (child === undefined) return;
        await child.kill('SIGKILL');
        child = startBot();
        return;
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
    o.say(`venue on 127.0.0.1:${port}, strategies ${bot.strategies.join(', ')} in one bot; files in ${o.dir}`);
    await lively(0, 'start');
    const plan = faultPlan(o.seed, FAULT_KINDS);
    const end = Date.now() + o.minutes * 60_000;
    const seen = new Set<string>();
    while (Date.now() < end || seen.size < FAULT_KINDS.length) {
      const r = plan.next().value as Round;
      await round(r, 'children');
      seen.add(r.kind);
    }
    // The graceful stop under 429s: the bot must cancel its orders through the rate budget and exit 0.
    await admin.setFaults({ rateLimitStorm: { count: 2 } });
    const stopped = child;
    const e = await stopped.kill('SIGTERM');
    child = undefined;
    if (e.code !== 0) t.exits.push(`bhtrade run exited ${e.code ?? e.signal} on SIGTERM${stopped.why()}`);
    await leftAfterStop(admin, bot, 'bhtrade run stopped', t);
    await admin.clearFaults();

    o.say('in-process segment');
    app = await startApp(loadRunConfig(bot.config, bot.env), {
      log: createLogger({ level: 'info', destination: createWriteStream(join(o.dir, `${bot.id}-final.log`), { flags: 'a' }) }),
    });
    await lively(Date.now(), 'the in-process start');
    const last = faultPlan(o.seed + 1, FAULT_KINDS.filter((k) => k !== 'botKill'));
    for (let i = 0; i < FAULT_KINDS.length - 1; i++) await round(last.next().value as Round, 'in-process');
    await admin.clearFaults();
    const c = await settleAndCompare(app);
    for (const d of [...c.openDiff, ...c.orderDiff, ...c.balanceDiff, ...c.positionDiff]) t.stateDiff.push(d);
    for (const id of c.duplicateClientIds) t.duplicates.add(`clientOrderId ${id} placed twice`);
    for (const p of await app.rest.contractPositions({})) {
      const max = bot.maxPosition[p.symbol];
      if (max !== undefined && new Decimal(p.position).abs().gt(max)) t.riskBreaches.add(`position ${p.position} on ${p.symbol}, maxPosition ${max}`);
    }
    await app.stop('chaos run ended');
    app = undefined;
    await leftAfterStop(admin, bot, 'the in-process bot stopped', t);
    observe(await admin.audit());
  } finally {
    await app?.stop('chaos run aborted').catch(() => undefined);
    await child?.kill('SIGKILL');
    const e = await venue.kill('SIGTERM');
    if (e.code !== 0) t.exits.push(`venue exited ${e.code ?? e.signal} on SIGTERM${venue.why()}`);
    process.off('unhandledRejection', onUnhandled);
  }
  return t;
}

async function leftAfterStop(admin: VenueAdmin, b: Bot, when: string, t: Tally): Promise<void> {
  const open = (await admin.audit(b.user)).user!.openOrders;
  for (const [symbol, n] of Object.entries(open)) t.ordersLeft.push(`${n} working on ${symbol} after ${when}`);
}

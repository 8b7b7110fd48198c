// Results files and report.html: deterministic files, and a report that a real headless Chromium draws offline with no console errors.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resultFiles } from '../../src/backtest/report/files.ts';
import { duration, metricRows, reportHtml, snapTime, thin, TIME_LABELS_JS } from '../../src/backtest/report/html.ts';
import { computeMetrics, tradeStats } from '../../src/backtest/index.ts';
import { defaultResultsDir, writeResults } from '../../src/backtest/report/write.ts';
import { barRun } from './bar-run.ts';
import { countColour, decodePng } from './png.ts';

const CHROMIUM = '/usr/bin/chromium';
/** True in the page once every chart has painted something on one of its canvases. */
const PAINTED = `[...document.querySelectorAll('.chart')].every((el) => [...el.querySelectorAll('canvas')].some((c) => {
  const ctx = c.getContext('2d');
  if (!ctx || c.width === 0 || c.height === 0) return false;
  const d = ctx.getImageData(0, 0, c.width, c.height).data;
  for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) return true;
  return false;
}))`;
const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'bhtrade-report-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('duration', () => {
  it('shows a drawdown in seconds, minutes, hours or days, whichever it lasted', () => {
    expect([duration(0), duration(98_000), duration(3_594_000), duration(5_400_000), duration(47 * 3_600_000), duration(25 * 86_400_000)])
      .toEqual(['0.0 s', '1.6 min', '59.9 min', '1.5 h', '47.0 h', '25.0 d']);
  });
});

describe('metric rows', () => {
  it('show a loss too small for their digits as zero, not as -0.00', () => {
    const m = computeMetrics({
      equity: [{ time: 0, equity: '1000' }, { time: 86_400_000, equity: '999.99999' }],
      fills: [], trades: tradeStats(['-0.00001']), positions: [], fundingPaid: '0', fundingReceived: '0', orders: 0, cancels: 0,
    });
    const rows = new Map(metricRows(m, 4, 'USDT'));
    expect([rows.get('Net PnL'), rows.get('Return'), rows.get('Expectancy'), rows.get('CAGR')]).toEqual(['0.0000 USDT', '0.00 %', '0.0000 USDT', '0.00 %']);
  });
});

describe('results files', () => {
  it('are byte-identical for the same run and the result hash follows the fills', () => {
    const a = resultFiles(barRun());
    const b = resultFiles(barRun());
    expect(a).toEqual(b);
    const summary = JSON.parse(a['summary.json']) as Record<string, unknown>;
    expect(Object.keys(summary)).toEqual(['version', 'name', 'symbol', 'currency', 'endPosition', 'configHash', 'dataHash', 'seed', 'resultHash', 'metrics']);
    expect(summary.resultHash).toMatch(/^[0-9a-f]{64}$/);
    const r = barRun();
    const moved = resultFiles({ ...r, fills: r.fills.map((f, i) => (i === 0 ? { ...f, price: '1' } : f)) });
    expect(JSON.parse(moved['summary.json']).resultHash).not.toBe(summary.resultHash);
    expect(a['fills.csv'].split('\n')[0]).toBe('time,orderId,clientOrderId,side,price,qty,fee,feeAsset,isMaker');
    expect(a['fills.csv'].trim().split('\n')).toHaveLength(r.fills.length + 1);
    expect(a['equity.csv'].trim().split('\n')).toHaveLength(r.equity.length + 1);
  });

  it('show equity at the currency\'s precision in equity.csv, rounded from the exact value the metrics use', () => {
    const r = barRun();
    const exact = [{ time: 0, equity: '10000' }, { time: 1000, equity: '9999.899027787999999999' }, { time: 2000, equity: '10000.000000004999999999' }];
    const files = resultFiles({ ...r, equity: exact, moneyDecimals: 8 });
    expect(files['equity.csv']).toBe('time,equity\n0,10000\n1000,9999.89902779\n2000,10000\n');
  });

  it('a run without fills still makes every file', () => {
    const r = barRun([]);
    expect(r.fills).toEqual([]);
    const files = resultFiles(r);
    expect(files['fills.csv']).toBe('time,orderId,clientOrderId,side,price,qty,fee,feeAsset,isMaker\n');
    expect(JSON.parse(files['summary.json']).metrics.trades).toBe(0);
    expect(reportHtml(r)).toContain('chart-price');
  });

  it('names the default folder after the config and the start time', () => {
    expect(defaultResultsDir('config/backtest.yaml', new Date(Date.UTC(2026, 10, 24, 3, 4, 5)))).toBe(join('backtest', 'results', 'backtest-20261124-030405'));
  });

  it('labels the time axis in UTC: seconds on a short run, dates where the day changes, years and months on long ones', () => {
    // The page's own label functions, run as the page runs them.
    const { timeLabel, fullTime } = new Function(`${TIME_LABELS_JS}; return { timeLabel, fullTime };`)() as { timeLabel: (t: number, type: number, span: number) => string; fullTime: (t: number) => string };
    const t = Date.UTC(2024, 7, 8, 23, 54, 13) / 1000;
    // A 2-minute run: time marks carry seconds.
    expect(timeLabel(t, 3, 120)).toBe('23:54:13');
    expect(timeLabel(t, 4, 120)).toBe('23:54:13');
    // A 6-week run: hours and minutes, and the date where a day starts.
    expect(timeLabel(t, 3, 42 * 86_400)).toBe('23:54');
    expect(timeLabel(t, 2, 42 * 86_400)).toBe('8 Aug');
    expect(timeLabel(t, 1, 400 * 86_400)).toBe('Aug 2024');
    expect(timeLabel(t, 0, 400 * 86_400)).toBe('2024');
    expect(fullTime(t)).toBe('2024-08-08 23:54:13 UTC');
    // The page sets seconds visible by the run's span and uses these labels.
    const html = reportHtml(barRun());
    expect(html).toContain('tickMarkFormatter: function (t, type) { return timeLabel(t, type, span); }');
    expect(html).toContain('secondsVisible: span < 7200');
  });

  it('report.html holds everything it needs: the library and data inline, nothing fetched', () => {
    const html = reportHtml(barRun());
    expect(html).toContain('TradingView Lightweight Charts');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/[^"' ]+\.(js|css)/);
    // Bounded whatever the run's length.
    const many = Array.from({ length: 100_000 }, (_, i): [number, string] => [i * 1000, String(i)]);
    const thinned = thin(many, 4000);
    expect(thinned.length).toBeLessThanOrEqual(4000);
    // A fill marker lands on a drawn point even when thinning dropped the fill's own.
    const times = new Set(thinned.map(([t]) => t));
    for (const t of [0, 12_345, 54_321, 99_999]) expect(times.has(snapTime(thinned, t))).toBe(true);
    expect(snapTime(thinned, 12_345)).toBeLessThanOrEqual(12_345);
  });
});

describe.skipIf(!existsSync(CHROMIUM))('report.html in headless Chromium', () => {
  it('draws every chart with no console errors', async () => {
    const { chromium } = await import('playwright-core');
    const out = tmp();
    const files = writeResults(out, barRun());
    const context = await chromium.launchPersistentContext(tmp(), {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1400, height: 1100 },
      timeout: 120_000,
    });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) requests.push(r.url());
      });
      await page.goto(`file://${files['report.html']}`, { waitUntil: 'load', timeout: 120_000 });
      // Wait until every chart has painted something on a canvas (an event, not a delay).
      await page.waitForFunction(PAINTED, undefined, { timeout: 120_000 });
      const series: Record<string, [number, number, number]> = {
        'chart-price': [0x29, 0x62, 0xff],
        'chart-equity': [0x1a, 0x7f, 0x37],
        'chart-drawdown': [0xcf, 0x22, 0x2e],
        'chart-position': [0x82, 0x50, 0xdf],
      };
      for (const [id, rgb] of Object.entries(series)) {
        const img = decodePng(await page.locator(`#${id}`).screenshot({ timeout: 120_000 }));
        // The plot area: left of the price scale, above the time scale.
        const plot = { x: 0, y: 0, w: img.width - 90, h: img.height - 30 };
        expect(countColour(img, rgb, plot), `${id} draws its series`).toBeGreaterThan(100);
      }
      // Buy and sell markers on the price chart.
      const price = decodePng(await page.locator('#chart-price').screenshot());
      expect(countColour(price, [0x1a, 0x7f, 0x37], { x: 0, y: 0, w: price.width - 90, h: price.height - 30 }, 40)).toBeGreaterThan(20);
      expect(countColour(price, [0xcf, 0x22, 0x2e], { x: 0, y: 0, w: price.width - 90, h: price.height - 30 }, 40)).toBeGreaterThan(20);
      const shot = process.env.BHTRADE_REPORT_SCREENSHOT;
      if (shot) await page.screenshot({ path: shot, fullPage: true });
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      expect(readFileSync(files['summary.json'], 'utf8')).toContain('"resultHash"');
    } finally {
      await context.close();
    }
  }, 300_000);
});

if (!existsSync(CHROMIUM)) console.log(`report.html browser test skipped: ${CHROMIUM} is not installed (.ci/run installs Debian's chromium when it can)`);

/**
 * report.html: one file that works offline. The chart library (TradingView Lightweight Charts,
 * Apache-2.0, its licence header kept) is read from node_modules when the report is written and
 * inlined, as are the data; nothing is fetched. Charts: price with fills, equity, drawdown, position;
 * a table of the metrics. Series are thinned to a bounded number of points so the file stays small
 * whatever the run's length.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Decimal } from '../../core/fixed.ts';
import type { Metrics } from '../metrics.ts';
import type { BacktestResults } from './results.ts';

/** Most points drawn per series, and most fill markers. */
export const MAX_POINTS = 4000;
export const MAX_MARKERS = 1000;

let libCache: string | undefined;

/** Returns the chart library's standalone script from node_modules. */
export function chartLibrary(): string {
  if (libCache === undefined) {
    const pkg = createRequire(import.meta.url).resolve('lightweight-charts/package.json');
    libCache = readFileSync(join(dirname(pkg), 'dist', 'lightweight-charts.standalone.production.js'), 'utf8');
  }
  return libCache;
}

type Pt = [number, string];

/** Returns points one per second (the last of each), thinned to at most `max` by keeping the last of each equal time bucket. */
export function thin(points: readonly Pt[], max: number): Pt[] {
  const perSecond: Pt[] = [];
  for (const [t, v] of points) {
    const s = Math.floor(t / 1000);
    if (perSecond.length > 0 && perSecond[perSecond.length - 1]![0] === s) perSecond[perSecond.length - 1] = [s, v];
    else perSecond.push([s, v]);
  }
  if (perSecond.length <= max) return perSecond;
  const first = perSecond[0]![0];
  const span = perSecond[perSecond.length - 1]![0] - first + 1;
  const out: Pt[] = [];
  let bucket = -1;
  for (const p of perSecond) {
    const b = Math.floor(((p[0] - first) * max) / span);
    if (b === bucket) out[out.length - 1] = p;
    else out.push(p);
    bucket = b;
  }
  return out;
}

/** Returns the position held at each of `times` (the last change at or before it; 0 before any). */
function positionAt(changes: readonly { time: number; position: string }[], times: readonly number[]): Pt[] {
  const sorted = [...changes].sort((a, b) => a.time - b.time);
  let i = 0;
  let pos = '0';
  return times.map((t): Pt => {
    while (i < sorted.length && sorted[i]!.time <= t) pos = sorted[i++]!.position;
    return [t, pos];
  });
}

/** Returns the time of the last point at or before `t` (the first point's when none is): a marker must sit on a drawn point, and thinning may have dropped its own. */
export function snapTime(points: readonly Pt[], t: number): number {
  if (points.length === 0) return t;
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (points[mid]![0] <= t) lo = mid;
    else hi = mid - 1;
  }
  return points[lo]![0];
}

/** Returns the drawdown series: equity / running peak − 1, as percent texts. */
function drawdown(equity: readonly { time: number; equity: string }[]): Pt[] {
  let peak: Decimal | undefined;
  return equity.map((p) => {
    const e = new Decimal(p.equity);
    if (peak === undefined || e.gt(peak)) peak = e;
    const dd = peak.isZero() ? new Decimal(0) : e.div(peak).minus(1).times(100);
    return [p.time, dd.toDecimalPlaces(4).toString()];
  });
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Returns a rounded figure without the sign of a loss too small to show: "-0.00" reads as a loss the digits do not hold. */
function unsignedZero(text: string): string {
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

function pct(x: number | null): string {
  return x === null ? '–' : `${unsignedZero((x * 100).toFixed(2))} %`;
}

function num(x: number | null, d = 2): string {
  return x === null ? '–' : Number.isFinite(x) ? unsignedZero(x.toFixed(d)) : String(x);
}

function money(s: string | null, d: number, ccy: string): string {
  return s === null ? '–' : `${unsignedZero(new Decimal(s).toFixed(d))} ${ccy}`;
}

/** A duration in the unit that shows it (a drawdown of a short run lasts seconds or minutes, of a long one days). */
export function duration(ms: number): string {
  const h = ms / 3_600_000;
  if (h >= 48) return `${(h / 24).toFixed(1)} d`;
  if (ms >= 3_600_000) return `${h.toFixed(1)} h`;
  return ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1_000).toFixed(1)} s`;
}

/** Returns a chart heading's unit in brackets, escaped ('' without one). */
function unitOf(unit: string | undefined): string {
  return unit === undefined ? '' : ` (${esc(unit)})`;
}

/** Returns the metrics as table rows [label, value]. */
export function metricRows(m: Metrics, d: number, ccy: string): [string, string][] {
  return [
    ['Net PnL', money(m.netPnl, d, ccy)],
    ['Return', pct(m.return)],
    ['CAGR', pct(m.cagr)],
    ['Max drawdown', `${pct(m.maxDrawdown)} (${money(m.maxDrawdownAmount, d, ccy)})`],
    ['Max drawdown duration', duration(m.maxDrawdownDurationMs)],
    ['Sharpe (daily, 365)', num(m.sharpe)],
    ['Sortino (daily, 365)', num(m.sortino)],
    ['Calmar', num(m.calmar)],
    ['Trades', String(m.trades)],
    ['Win rate', pct(m.winRate)],
    ['Profit factor', num(m.profitFactor)],
    ['Expectancy', money(m.expectancy, d, ccy)],
    ['Exposure time', pct(m.exposure)],
    ['Turnover', m.turnover === null ? '–' : `${num(m.turnover)}×`],
    ['Fees', money(m.fees, d, ccy)],
    ['Funding paid / received', `${money(m.fundingPaid, d, ccy)} / ${money(m.fundingReceived, d, ccy)}`],
    ['Fills (maker / taker)', `${m.fills} (${pct(m.makerShare)} / ${pct(m.takerShare)})`],
    ['Orders / cancels', `${m.orders} / ${m.cancels}`],
  ];
}

/** Returns the report's HTML text. */
export function reportHtml(r: BacktestResults): string {
  const priceAndFills: Pt[] = [...r.prices.map((p): Pt => [p.time, p.price]), ...r.fills.map((f): Pt => [f.time, f.price])].sort((a, b) => a[0] - b[0]);
  const fills = r.fills.length <= MAX_MARKERS ? r.fills : r.fills.filter((_, i) => i % Math.ceil(r.fills.length / MAX_MARKERS) === 0);
  // The charts' time axes space points by index: equity, drawdown and position share the equity's times so they line up.
  const positions = positionAt(r.positions, r.equity.map((p) => p.time));
  const price = thin(priceAndFills, MAX_POINTS);
  const data = {
    price,
    equity: thin(r.equity.map((p): Pt => [p.time, p.equity]), MAX_POINTS),
    drawdown: thin(drawdown(r.equity), MAX_POINTS),
    position: thin(positions, MAX_POINTS),
    fills: fills.map((f) => [snapTime(price, Math.floor(f.time / 1000)), f.side.startsWith('BUY') ? 1 : -1]),
  };
  const m = r.metrics;
  const rows = metricRows(m, r.moneyDecimals, r.currency).map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('');
  const period = `${new Date(m.start).toISOString().slice(0, 16).replace('T', ' ')} → ${new Date(m.end).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const markerNote = fills.length < r.fills.length ? `<p class="note">${fills.length} of ${r.fills.length} fills marked.</p>` : '';
  // Inline scripts must not contain "</script": escape it in the library and the data.
  const lib = chartLibrary().replace(/<\/script/gi, '<\\/script');
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Backtest ${esc(r.name)} · ${esc(r.symbol)}</title>
<style>
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f2328;background:#fff}
header{padding:16px 24px;border-bottom:1px solid #d0d7de}
h1{font-size:20px;margin:0 0 4px}
h2{font-size:15px;margin:16px 0 6px}
.sub{color:#59636e;margin:0}
main{display:grid;grid-template-columns:minmax(0,1fr) 340px;gap:24px;padding:8px 24px 24px}
.chart{height:300px;border:1px solid #d0d7de;border-radius:6px}
.chart.small{height:170px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:4px 6px;border-bottom:1px solid #eaeef2;font-weight:normal}
td{text-align:right;font-variant-numeric:tabular-nums}
th{color:#59636e}
.note,.ids{color:#59636e;font-size:12px;word-break:break-all}
@media (max-width:900px){main{grid-template-columns:1fr}}
</style>
</head>
<body>
<header>
<h1>Backtest ${esc(r.name)} · ${esc(r.symbol)}</h1>
<p class="sub">${esc(period)} · seed ${r.seed} · equity in ${esc(r.currency)}</p>
</header>
<main>
<div>
<h2>Price and fills${unitOf(r.priceUnit)}</h2><div id="chart-price" class="chart"></div>${markerNote}
<h2>Equity (${esc(r.currency)})</h2><div id="chart-equity" class="chart"></div>
<h2>Drawdown (%)</h2><div id="chart-drawdown" class="chart small"></div>
<h2>Position${unitOf(r.positionUnit)}</h2><div id="chart-position" class="chart small"></div>
</div>
<aside>
<h2>Metrics</h2>
<table>${rows}</table>
<p class="ids">config ${esc(r.configHash)}<br>data ${esc(r.dataHash)}</p>
</aside>
</main>
<script>${lib}</script>
<script type="application/json" id="report-data">${json}</script>
<script>${APP}</script>
</body>
</html>
`;
}

/** Runs shorter than this (seconds) label their time axis with seconds. */
const SECONDS_SPAN = 2 * 3600;

/**
 * The page's time labels, in UTC whatever the reader's zone: `timeLabel(t, type, span)` labels an axis
 * mark at `t` (epoch seconds) of the library's TickMarkType (0 year, 1 month, 2 day, 3 time, 4 time
 * with seconds) on a run `span` seconds long — seconds on short runs, dates where the day changes on
 * long ones; `fullTime(t)` is the crosshair's label. Page script (ES5), kept apart so it is tested.
 */
export const TIME_LABELS_JS = `
function pad2(n) { return (n < 10 ? '0' : '') + n; }
var MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
function timeLabel(t, type, span) {
  var d = new Date(t * 1000);
  var hm = pad2(d.getUTCHours()) + ':' + pad2(d.getUTCMinutes());
  var hms = hm + ':' + pad2(d.getUTCSeconds());
  switch (type) {
    case 0: return String(d.getUTCFullYear());
    case 1: return MONTHS[d.getUTCMonth()] + ' ' + d.getUTCFullYear();
    case 2: return d.getUTCDate() + ' ' + MONTHS[d.getUTCMonth()];
    case 3: return span < ${SECONDS_SPAN} ? hms : hm;
    default: return hms;
  }
}
function fullTime(t) {
  var d = new Date(t * 1000);
  return d.getUTCFullYear() + '-' + pad2(d.getUTCMonth() + 1) + '-' + pad2(d.getUTCDate()) + ' ' + pad2(d.getUTCHours()) + ':' + pad2(d.getUTCMinutes()) + ':' + pad2(d.getUTCSeconds()) + ' UTC';
}
`;

/** The page's own script: builds the four charts from the inlined data and keeps their time axes together. */
const APP = `(function () {
  'use strict';
  var LC = window.LightweightCharts;
  var d = JSON.parse(document.getElementById('report-data').textContent);
  var line = function (p) { return { time: p[0], value: Number(p[1]) }; };
  ${TIME_LABELS_JS}
  var first = Infinity;
  var last = -Infinity;
  [d.price, d.equity].forEach(function (s) { s.forEach(function (p) { if (p[0] < first) first = p[0]; if (p[0] > last) last = p[0]; }); });
  var span = last > first ? last - first : 0;
  var opts = {
    autoSize: true,
    layout: { background: { color: '#ffffff' }, textColor: '#1f2328' },
    grid: { vertLines: { color: '#eaeef2' }, horzLines: { color: '#eaeef2' } },
    localization: { timeFormatter: fullTime },
    timeScale: { timeVisible: true, secondsVisible: span < ${SECONDS_SPAN}, tickMarkFormatter: function (t, type) { return timeLabel(t, type, span); } },
    rightPriceScale: { borderColor: '#d0d7de', minimumWidth: 84 }
  };
  var charts = [];
  function chart(id) { var c = LC.createChart(document.getElementById(id), opts); charts.push(c); return c; }
  var price = chart('chart-price').addSeries(LC.LineSeries, { color: '#2962ff', lineWidth: 1 });
  price.setData(d.price.map(line));
  LC.createSeriesMarkers(price, d.fills.map(function (f) {
    var buy = f[1] > 0;
    return { time: f[0], position: buy ? 'belowBar' : 'aboveBar', color: buy ? '#1a7f37' : '#cf222e', shape: buy ? 'arrowUp' : 'arrowDown' };
  }));
  chart('chart-equity').addSeries(LC.AreaSeries, { lineColor: '#1a7f37', topColor: 'rgba(26,127,55,0.25)', bottomColor: 'rgba(26,127,55,0.02)', lineWidth: 2 }).setData(d.equity.map(line));
  chart('chart-drawdown').addSeries(LC.AreaSeries, { lineColor: '#cf222e', topColor: 'rgba(207,34,46,0.05)', bottomColor: 'rgba(207,34,46,0.35)', invertFilledArea: true, lineWidth: 1 }).setData(d.drawdown.map(line));
  chart('chart-position').addSeries(LC.LineSeries, { color: '#8250df', lineWidth: 2, lineType: 1 }).setData(d.position.map(line));
  charts.forEach(function (c) { c.timeScale().fitContent(); });
  var syncing = false;
  charts.forEach(function (c) {
    c.timeScale().subscribeVisibleTimeRangeChange(function (range) {
      if (syncing || !range) return;
      syncing = true;
      charts.forEach(function (o) { if (o !== c) { try { o.timeScale().setVisibleRange(range); } catch (e) { /* a chart without data in range */ } } });
      syncing = false;
    });
  });
})();`;

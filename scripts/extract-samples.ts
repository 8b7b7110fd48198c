/** Extracts every sample payload of venue-samples.md into test/fixtures/samples/<name>.json (run: npx tsx scripts/extract-samples.ts [path]). */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Fence {
  readonly line: number;
  readonly part: string;
  readonly section: string;
  readonly text: string;
}

interface Entry {
  readonly name: string;
  readonly endpoint: string | null;
  /** Textual repairs beyond the file's own notes, each stated in the fixture's source. */
  readonly repairs?: readonly (readonly [from: string, to: string, why: string])[];
  readonly note?: string;
}

const SUB = 'WS market subscribe';

/** One entry per code fence of venue-samples.md, in order; the error-body and Java fences are split below. */
const ENTRIES: readonly (Entry | 'errors' | 'ws-errors')[] = [
  { name: 'error-invalid-symbol.official', endpoint: null, note: 'error payload any endpoint may return' },
  { name: 'ping.official', endpoint: 'GET /openapi/v1/ping' },
  { name: 'time.official', endpoint: 'GET /openapi/v1/time' },
  { name: 'spot-broker-info.official', endpoint: 'GET /openapi/v1/brokerInfo' },
  { name: 'spot-depth.official', endpoint: 'GET /openapi/quote/v1/depth' },
  { name: 'spot-trades.official', endpoint: 'GET /openapi/quote/v1/trades' },
  { name: 'spot-klines.official', endpoint: 'GET /openapi/quote/v1/klines' },
  { name: 'spot-ticker-24hr.official', endpoint: 'GET /openapi/quote/v1/ticker/24hr' },
  { name: 'spot-ticker-24hr-all.official', endpoint: 'GET /openapi/quote/v1/ticker/24hr' },
  { name: 'spot-ticker-price.official', endpoint: 'GET /openapi/quote/v1/ticker/price' },
  { name: 'spot-ticker-price-all.official', endpoint: 'GET /openapi/quote/v1/ticker/price' },
  { name: 'spot-book-ticker.official', endpoint: 'GET /openapi/quote/v1/ticker/bookTicker' },
  { name: 'spot-book-ticker-all.official', endpoint: 'GET /openapi/quote/v1/ticker/bookTicker' },
  { name: 'pairs.official', endpoint: 'GET /openapi/v1/pairs' },
  { name: 'spot-new-order.official', endpoint: 'POST /openapi/v1/order' },
  { name: 'spot-test-order.official', endpoint: 'POST /openapi/v1/order/test' },
  { name: 'spot-query-order.official', endpoint: 'GET /openapi/v1/order' },
  { name: 'spot-cancel-order.official', endpoint: 'DELETE /openapi/v1/order' },
  { name: 'spot-open-orders.official', endpoint: 'GET /openapi/v1/openOrders' },
  { name: 'spot-history-orders.official', endpoint: 'GET /openapi/v1/historyOrders' },
  { name: 'spot-account.official', endpoint: 'GET /openapi/v1/account' },
  { name: 'spot-my-trades.official', endpoint: 'GET /openapi/v1/myTrades' },
  { name: 'deposit-orders.official', endpoint: 'GET /openapi/v1/depositOrders' },
  { name: 'user-data-stream-start.official', endpoint: 'POST /openapi/v1/userDataStream' },
  { name: 'user-data-stream-keepalive.official', endpoint: 'PUT /openapi/v1/userDataStream' },
  { name: 'user-data-stream-close.official', endpoint: 'DELETE /openapi/v1/userDataStream' },
  { name: 'sub-accounts.official', endpoint: 'POST /openapi/v1/subAccount/query' },
  { name: 'transfer.official', endpoint: 'POST /openapi/v1/transfer' },
  { name: 'balance-flow.official', endpoint: 'GET /openapi/v1/balance_flow', note: 'the heading says POST; venue-api.md lists GET' },
  { name: 'filter-price-filter.official', endpoint: null, note: 'a brokerInfo filter entry' },
  { name: 'filter-lot-size.official', endpoint: null, note: 'a brokerInfo filter entry' },
  { name: 'filter-min-notional.official', endpoint: null, note: 'a brokerInfo filter entry' },
  { name: 'filter-max-num-orders.official', endpoint: null, note: 'a brokerInfo filter entry' },
  { name: 'filter-max-num-algo-orders.official', endpoint: null, note: 'a brokerInfo filter entry' },
  { name: 'filter-iceberg-parts.official', endpoint: null, note: 'a brokerInfo filter entry' },
  { name: 'filter-broker-max-num-orders.official', endpoint: null, note: 'a brokerInfo filter entry' },
  { name: 'filter-broker-max-num-algo-orders.official', endpoint: null, note: 'a brokerInfo filter entry' },
  { name: 'contract-broker-info.official', endpoint: 'GET /openapi/v1/brokerInfo' },
  { name: 'contract-insurance.official', endpoint: 'GET /openapi/contract/v1/insurance' },
  { name: 'contract-index.official', endpoint: 'GET /openapi/quote/v1/contract/index' },
  { name: 'contract-funding-rate.official', endpoint: 'GET /openapi/contract/v1/fundingRate' },
  { name: 'contract-depth.official', endpoint: 'GET /openapi/quote/v1/contract/depth' },
  { name: 'contract-trades.official', endpoint: 'GET /openapi/quote/v1/contract/trades' },
  { name: 'contract-klines.official', endpoint: 'GET /openapi/quote/v1/klines', note: 'published under /openapi/quote/v1/contract/klines; venue-api.md serves klines of both markets at /openapi/quote/v1/klines' },
  { name: 'contracts.official', endpoint: 'GET /openapi/v1/contracts' },
  { name: 'contract-new-order.official', endpoint: 'POST /openapi/contract/v1/order' },
  { name: 'contract-cancel-order.official', endpoint: 'DELETE /openapi/contract/v1/order/cancel' },
  { name: 'contract-batch-cancel.official', endpoint: 'DELETE /openapi/contract/v1/order/batchCancel' },
  { name: 'contract-open-orders.official', endpoint: 'GET /openapi/contract/v1/openOrders' },
  { name: 'contract-history-orders.official', endpoint: 'GET /openapi/contract/v1/historyOrders' },
  { name: 'contract-get-order.official', endpoint: 'GET /openapi/contract/v1/getOrder' },
  { name: 'contract-my-trades.official', endpoint: 'GET /openapi/contract/v1/myTrades' },
  { name: 'contract-positions.official', endpoint: 'GET /openapi/contract/v1/positions' },
  { name: 'contract-account.official', endpoint: 'GET /openapi/contract/v1/account' },
  { name: 'contract-modify-margin.official', endpoint: 'POST /openapi/contract/v1/modifyMargin' },
  { name: 'transfer-pending.official', endpoint: 'POST /openapi/v1/transfer' },
  { name: 'user-data-stream-start.user-stream-doc', endpoint: 'POST /openapi/v1/userDataStream' },
  { name: 'user-data-stream-keepalive.user-stream-doc', endpoint: 'PUT /openapi/v1/userDataStream' },
  { name: 'user-data-stream-close.user-stream-doc', endpoint: 'DELETE /openapi/v1/userDataStream' },
  { name: 'ws-user-account-update.official', endpoint: 'WS user outboundAccountInfo' },
  { name: 'ws-user-execution-report.official', endpoint: 'WS user executionReport' },
  { name: 'ws-market-subscribe-template.official', endpoint: SUB, note: '$-placeholders kept as published' },
  { name: 'ws-market-ping.official', endpoint: 'WS market ping' },
  { name: 'ws-market-pong.official', endpoint: 'WS market pong' },
  { name: 'ws-market-subscribe-trade.official', endpoint: SUB },
  { name: 'ws-market-trade.official', endpoint: 'WS trade' },
  { name: 'ws-market-subscribe-realtimes.official', endpoint: SUB },
  { name: 'ws-market-realtimes.official', endpoint: 'WS realtimes' },
  {
    name: 'ws-market-subscribe-kline.official',
    endpoint: SUB,
    repairs: [['"kline_"+$interval', '"kline_$interval"', 'the JavaScript concatenation "kline_"+$interval written as the string "kline_$interval"']],
  },
  { name: 'ws-market-kline.official', endpoint: 'WS kline' },
  { name: 'ws-market-subscribe-depth.official', endpoint: SUB },
  {
    name: 'ws-market-depth.official',
    endpoint: 'WS depth',
    repairs: [['["11369.04", "1.3203"],\n    "a"', '["11369.04", "1.3203"]],\n    "a"', 'the bids array was published without its closing "]": added']],
  },
  { name: 'ws-market-subscribe-diff-depth.official', endpoint: SUB },
  { name: 'ws-market-diff-depth-level.official', endpoint: 'WS diffDepth level' },
  { name: 'ws-market-diff-depth-level-update.official', endpoint: 'WS diffDepth level' },
  { name: 'ws-market-diff-depth-level-remove.official', endpoint: 'WS diffDepth level' },
  { name: 'ws-market-diff-depth.official', endpoint: 'WS diffDepth' },
  { name: 'ws-market-subscribe-index.official', endpoint: SUB },
  { name: 'ws-market-index.official', endpoint: 'WS index' },
  'ws-errors',
  { name: 'ws-user-contract-execution-report.hbtc', endpoint: 'WS user contractExecutionReport' },
  { name: 'ws-user-position-update.hbtc', endpoint: 'WS user outboundContractPositionInfo' },
  { name: 'time.capture-2020', endpoint: 'GET /openapi/v1/time' },
  { name: 'broker-info.capture-2020', endpoint: 'GET /openapi/v1/brokerInfo' },
  {
    name: 'spot-depth.capture-2020',
    endpoint: 'GET /openapi/quote/v1/depth',
    repairs: [['    ]\n    "asks"', '    ],\n    "asks"', 'the comma between "bids" and "asks" was missing as published: added']],
  },
  { name: 'option-ticker-24hr.capture-2020', endpoint: 'GET /openapi/quote/v1/ticker/24hr' },
  { name: 'spot-trades.capture-2020', endpoint: 'GET /openapi/quote/v1/trades' },
  { name: 'spot-klines.capture-2020', endpoint: 'GET /openapi/quote/v1/klines' },
  { name: 'spot-account.capture-2020', endpoint: 'GET /openapi/v1/account' },
  { name: 'contract-account.capture-2020', endpoint: 'GET /openapi/contract/v1/account' },
  { name: 'option-account.capture-2020', endpoint: null, note: 'GET /openapi/option/v1/account is not an endpoint of venue-api.md' },
  { name: 'spot-my-trades.capture-2020', endpoint: 'GET /openapi/v1/myTrades' },
  { name: 'spot-new-order-market-buy.capture-2020', endpoint: 'POST /openapi/v1/order' },
  { name: 'contract-new-order.capture-2020', endpoint: 'POST /openapi/contract/v1/order' },
  { name: 'spot-cancel-order.capture-2020', endpoint: 'DELETE /openapi/v1/order' },
  { name: 'contract-cancel-order.capture-2020', endpoint: 'DELETE /openapi/contract/v1/order/cancel' },
  { name: 'spot-open-orders.capture-2020', endpoint: 'GET /openapi/v1/openOrders' },
  { name: 'contract-open-orders.capture-2020', endpoint: 'GET /openapi/contract/v1/openOrders' },
  { name: 'spot-history-orders.capture-2020', endpoint: 'GET /openapi/v1/historyOrders' },
  { name: 'deposit-orders.capture-2020', endpoint: 'GET /openapi/v1/depositOrders' },
  { name: 'withdrawal-orders.capture-2020', endpoint: 'GET /openapi/v1/withdrawalOrders' },
  { name: 'withdraw.capture-2020', endpoint: 'POST /openapi/v1/withdraw' },
  { name: 'sub-accounts.capture-2020', endpoint: 'POST /openapi/v1/subAccount/query' },
  { name: 'balance-flow.capture-2020', endpoint: 'GET /openapi/v1/balance_flow' },
  { name: 'time.capture-2024', endpoint: 'GET /openapi/v1/time' },
  { name: 'broker-info.capture-2024', endpoint: 'GET /openapi/v1/brokerInfo' },
  { name: 'spot-depth-merged.capture-2024', endpoint: 'GET /openapi/quote/v1/depth/merged', note: 'first of the two fences (spot)' },
  { name: 'contract-depth-merged.capture-2024', endpoint: 'GET /openapi/quote/v1/contract/depth/merged', note: 'second of the two fences (contract)' },
  'errors',
];

const ERROR_NAMES = ['error-invalid-type-param.capture-2024', 'error-symbol-missing.capture-2024', 'error-interval-missing.capture-2024', 'error-amount-below-minimum.capture-2024'];

/** Returns the code fences of the markdown with the headings they sit under. */
export function fencesOf(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const out: Fence[] = [];
  let part = '';
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (l.startsWith('## ')) part = l.slice(3).trim();
    else if (l.startsWith('### ')) section = l.slice(4).trim();
    else if (l.startsWith('```')) {
      const start = i;
      const body: string[] = [];
      for (i++; i < lines.length && !(lines[i] ?? '').startsWith('```'); i++) body.push(lines[i] ?? '');
      out.push({ line: start + 1, part, section, text: body.join('\n') });
    }
  }
  return out;
}

/** Returns JSON text from a published JavaScript-ish fence, and what had to change (comments, ellipses, quotes, trailing commas). */
export function cleanFence(text: string): { json: string; notes: string[] } {
  const notes = new Set<string>();
  let out = '';
  for (let i = 0; i < text.length; ) {
    const ch = text[i] ?? '';
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (ch === "'") {
      notes.add('single-quoted strings written with double quotes');
      let j = i + 1;
      let s = '';
      while (j < text.length && text[j] !== "'") {
        if (text[j] === '\\') { s += text.slice(j, j + 2); j += 2; continue; }
        s += text[j] === '"' ? '\\"' : text[j];
        j++;
      }
      out += `"${s}"`;
      i = j + 1;
    } else if (text.startsWith('//', i)) {
      notes.add('// comments stripped');
      while (i < text.length && text[i] !== '\n') i++;
    } else if (text.startsWith('...', i)) {
      notes.add('... ellipses stripped');
      i += 3;
    } else if (/[A-Za-z_$]/.test(ch)) {
      const m = /^[A-Za-z_$][\w$]*/.exec(text.slice(i));
      const word = m?.[0] ?? ch;
      const py: Record<string, string> = { True: 'true', False: 'false', None: 'null' };
      if (py[word] !== undefined) notes.add('Python True/False written as JSON true/false');
      out += py[word] ?? word;
      i += word.length;
    } else {
      out += ch;
      i++;
    }
  }
  // Second pass: drop commas that close a list or object (outside strings).
  let json = '';
  for (let i = 0; i < out.length; ) {
    const ch = out[i] ?? '';
    if (ch === '"') {
      let j = i + 1;
      while (j < out.length && out[j] !== '"') j += out[j] === '\\' ? 2 : 1;
      json += out.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch === ',') {
      const rest = /^\s*([\]}]|$)/.exec(out.slice(i + 1));
      if (rest) { notes.add('trailing commas removed'); i++; continue; }
    }
    json += ch;
    i++;
  }
  json = json.split('\n').map((l) => l.replace(/\s+$/, '')).filter((l) => l.length > 0).join('\n').trim();
  return { json, notes: [...notes] };
}

function fileText(source: string, endpoint: string | null, payload: string): string {
  const body = payload.split('\n').map((l, k) => (k === 0 ? l : `  ${l}`)).join('\n');
  return `{\n  "source": ${JSON.stringify(source)},\n  "endpoint": ${JSON.stringify(endpoint)},\n  "payload": ${body}\n}\n`;
}

/** Returns every fixture as [file name, file text]. */
export function extractSamples(markdown: string): [string, string][] {
  const fences = fencesOf(markdown);
  if (fences.length !== ENTRIES.length) throw new Error(`expected ${ENTRIES.length} fences, found ${fences.length}`);
  const files: [string, string][] = [];
  fences.forEach((f, k) => {
    const entry = ENTRIES[k];
    const where = `venue-samples.md § ${f.part} › ${f.section} (line ${f.line})`;
    if (entry === 'errors') {
      const lines = f.text.split('\n').filter((l) => /^\d{3}\s/.test(l));
      if (lines.length !== ERROR_NAMES.length) throw new Error(`expected ${ERROR_NAMES.length} error bodies`);
      lines.forEach((l, n) => {
        const m = /^(\d{3})\s+(.*)$/.exec(l);
        const body = m?.[2] ?? '';
        JSON.parse(body);
        files.push([`${ERROR_NAMES[n]}.json`, fileText(`${where}; body ${n + 1} of ${lines.length}, answered with HTTP ${m?.[1]}`, null, body)]);
      });
      return;
    }
    if (entry === 'ws-errors') {
      const frames = f.text.split('\n').map((l) => /^\s*(\w+)\("(-?\d+)", "([^"]*)"\)/.exec(l)).filter((m) => m !== null)
        .map((m) => ({ code: m[2], desc: m[3] }));
      files.push([
        'ws-market-errors.official.json',
        fileText(`${where}; the Java enum listing (NAME("code", "desc")) written as the error frames {code, desc} of venue-notes §3, one per line, names dropped`, 'WS market error', JSON.stringify(frames, null, 2)),
      ]);
      return;
    }
    if (entry === undefined) throw new Error(`no entry for fence ${k}`);
    let text = f.text;
    const repairs: string[] = [];
    for (const [from, to, why] of entry.repairs ?? []) {
      if (!text.includes(from)) throw new Error(`${entry.name}: repair target not found`);
      text = text.replace(from, to);
      repairs.push(why);
    }
    const { json, notes } = cleanFence(text);
    JSON.parse(json);
    const extra = [...(entry.note ? [entry.note] : []), ...notes, ...repairs];
    files.push([`${entry.name}.json`, fileText(extra.length ? `${where}; ${extra.join('; ')}` : where, entry.endpoint, json)]);
  });
  return files;
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '');
if (isMain) {
  const src = process.argv[2] ?? '../shared/spec/venue-samples.md';
  const outDir = join(import.meta.dirname, '..', 'test', 'fixtures', 'samples');
  mkdirSync(outDir, { recursive: true });
  const files = extractSamples(readFileSync(src, 'utf8'));
  for (const [name, text] of files) writeFileSync(join(outDir, name), text);
  console.log(`wrote ${files.length} fixtures to ${outDir}`);
}

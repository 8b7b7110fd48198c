import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactText } from '../../src/core/logger.ts';

function capture(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
  return { lines, stream };
}

describe('logger', () => {
  it('never writes API keys, secrets or signatures', () => {
    const { lines, stream } = capture();
    const log = createLogger({ destination: stream, level: 'debug' });
    log.info({ apiKey: 'KEY123', secret: 'SEC456', req: { signature: 'abcdef', headers: { 'x-bh-apikey': 'KEY123' } }, cfg: { venue: { secretKey: 'SEC789' } } }, 'hello');
    const out = lines.join('');
    expect(out).toContain('hello');
    for (const s of ['KEY123', 'SEC456', 'abcdef', 'SEC789']) expect(out).not.toContain(s);
  });

  it('redacts signatures inside URLs', () => {
    expect(redactText('/openapi/v1/order?symbol=X&signature=5f2750ad7589d1d40757a553')).toBe('/openapi/v1/order?symbol=X&signature=[Redacted]');
  });
});

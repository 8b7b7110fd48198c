/** Path canonicalisation: the venue served every path with and without `v1`, and quote paths with and without `contract/`. */

/**
 * Returns the canonical name of a request path, or undefined outside /openapi:
 * `/openapi/v1/order` and `/openapi/order` → `main:order`; `/openapi/contract/v1/order` and
 * `/openapi/contract/order` → `contract:order`; `/openapi/quote/v1/contract/depth`,
 * `/openapi/quote/v1/depth` and `/openapi/quote/depth` → `quote:depth`.
 */
export function canonicalPath(path: string): string | undefined {
  let p = path;
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  if (!p.startsWith('/openapi/')) return undefined;
  p = p.slice('/openapi/'.length);
  let area = 'main';
  if (p.startsWith('quote/')) {
    area = 'quote';
    p = dropV1(p.slice('quote/'.length));
    if (p.startsWith('contract/')) p = p.slice('contract/'.length);
  } else if (p.startsWith('contract/')) {
    area = 'contract';
    p = dropV1(p.slice('contract/'.length));
  } else {
    p = dropV1(p);
  }
  return p.length === 0 ? undefined : `${area}:${p}`;
}

function dropV1(p: string): string {
  return p.startsWith('v1/') ? p.slice(3) : p === 'v1' ? '' : p;
}

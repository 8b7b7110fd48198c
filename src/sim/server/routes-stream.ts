/** REST routes of the user data stream: create, keep alive and close a listenKey. */
import type { ListenKeys } from './listen-keys.ts';
import { ownerOf } from './owners.ts';
import { keyOf, type Ctx, type Route } from './route.ts';

const owner = (c: Ctx): string => ownerOf(keyOf(c).userId, keyOf(c).accountIndex);

/** Returns the userDataStream routes; PUT and DELETE answer `{}` even for an unknown key, as real servers did. */
export function streamRoutes(keys: ListenKeys): Route[] {
  return [
    {
      method: 'POST', path: 'main:userDataStream', security: 'USER_STREAM', weight: 1,
      handle: (c) => ({ listenKey: keys.create(owner(c)) }),
    },
    {
      method: 'PUT', path: 'main:userDataStream', security: 'USER_STREAM', weight: 1,
      handle: (c) => {
        const k = c.p.opt('listenKey');
        if (k !== undefined) keys.keepalive(k, owner(c));
        return {};
      },
    },
    {
      method: 'DELETE', path: 'main:userDataStream', security: 'USER_STREAM', weight: 1,
      handle: (c) => {
        const k = c.p.opt('listenKey');
        if (k !== undefined) keys.close(k, owner(c));
        return {};
      },
    },
  ];
}

// What the `bhtrade` command and its worker threads run first (module hooks are per thread): TypeScript through tsx, and 'bhtrade' resolving from any folder.
import { register as registerHooks } from 'node:module';
import { register } from 'tsx/esm/api';

register();
// After tsx, so that it runs first: 'bhtrade' resolves for a strategy in any folder.
registerHooks('./resolve-self.mjs', import.meta.url);

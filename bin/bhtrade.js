#!/usr/bin/env node
// Entry of the `bhtrade` command: loads the TypeScript sources through tsx, so no build step is needed.
import { register as registerHooks } from 'node:module';
import { register } from 'tsx/esm/api';

register();
// After tsx, so that it runs first: 'bhtrade' resolves for a strategy in any folder.
registerHooks('./resolve-self.mjs', import.meta.url);
await import('../src/cli/main.ts');

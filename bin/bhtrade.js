#!/usr/bin/env node
// Entry of the `bhtrade` command: loads the TypeScript sources through tsx, so no build step is needed.
import './register.mjs';

await import('../src/cli/main.ts');

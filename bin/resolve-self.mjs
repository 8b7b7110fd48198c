// Module resolve hook of the `bhtrade` command: a strategy in a folder without its own copy of the
// package (no node_modules/bhtrade above it) still imports 'bhtrade', and gets the running one.
const SELF = new URL('../src/strategy/api.ts', import.meta.url).href;

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (e) {
    if (specifier === 'bhtrade' && e && e.code === 'ERR_MODULE_NOT_FOUND') return { url: SELF, shortCircuit: true };
    throw e;
  }
}

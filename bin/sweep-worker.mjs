// Entry of a sweep's worker thread (piscina): the same TypeScript loading as the `bhtrade` command, then one combination per task.
// The packages a backtest uses are plain JavaScript: imported before tsx's hooks are registered, their ~150 module files skip
// the round trips to tsx's hooks thread (about a quarter of a worker's start-up); the backtest's imports then find them loaded.
await Promise.all(['zod', 'rxjs', 'yaml', 'pino', 'decimal.js', 'hyparquet', 'hyparquet-writer'].map((p) => import(p)));
await import('./register.mjs');

const { runCombination } = await import('../src/app/sweep/task.ts');
export default runCombination;

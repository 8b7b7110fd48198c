// Entry of a sweep's worker thread (piscina): the same TypeScript loading as the `bhtrade` command, then one combination per task.
import './register.mjs';

const { runCombination } = await import('../src/app/sweep/task.ts');
export default runCombination;

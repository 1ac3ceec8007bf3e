// Entry of a derive worker thread (derive-pool.ts). The server's code is TypeScript run by tsx;
// a worker thread starts without the parent's loaders under vitest (and may or may not inherit
// them under `tsx src/main.ts` or `npx tsx`), so it registers tsx itself, in its own namespace
// (it affects only this api.import, never the parent or other modules), then loads the task.
import { register } from 'tsx/esm/api';

const api = register({ namespace: 'avail-derive-worker' });
const mod = await api.import('./derive.worker.ts', import.meta.url);
const run = mod.default?.default ?? mod.default;

export default run;

// Entry of the import reader thread. A worker thread does not inherit the TypeScript loader the server runs
// under (tsx), so it registers tsx itself before loading the TypeScript module that does the work.
import { register } from 'tsx/esm/api';

register();
await import('./chunk-reader-worker.ts');

// The page thread: parses REST list pages into cache rows (page-rows.ts) while the main thread writes the page
// before. One per process (page-thread.ts starts it); the app's build makes it its own entry, out/main/page-worker.mjs.
import { parentPort } from 'node:worker_threads';
import { type PageAnswer, PageNotJsonError, type PageRequest, parsePage } from './page-rows';

parentPort!.on('message', ({ id, kind, text }: PageRequest) => {
  let answer: PageAnswer;
  try {
    answer = { id, page: parsePage(kind, text) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error), notJson: error instanceof PageNotJsonError };
  }
  parentPort!.postMessage(answer);
});

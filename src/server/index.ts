/**
 * `npm run server` (under tsx, from a checkout): the `serve` command of the command line (cli/main.ts), which
 * the production bundle runs as `node dist/server/server.js serve`.
 */
import { serve } from './cli/serve-command';

process.exit(await serve(process.argv.slice(2)));

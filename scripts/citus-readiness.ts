/** `npm run report:citus`: writes docs/citus-readiness.md from the Drizzle schema (scripts/lib/citus-readiness.ts). */
import fs from 'node:fs';
import path from 'node:path';
import { citusReadinessMarkdown } from './lib/citus-readiness';

const target = path.resolve(import.meta.dirname, '../docs/citus-readiness.md');
fs.writeFileSync(target, citusReadinessMarkdown());
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);

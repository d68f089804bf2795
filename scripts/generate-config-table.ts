// Rewrites the configuration table in README.md; with --check, exits 1 when it is stale.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replaceConfigTable } from '@lomo/config';

const file = path.resolve(__dirname, '..', 'README.md');
const current = fs.readFileSync(file, 'utf8');
const next = replaceConfigTable(current);
if (process.argv.includes('--check')) {
  if (next !== current) {
    console.error('README.md configuration table is stale: run npm run docs');
    process.exit(1);
  }
} else if (next !== current) {
  fs.writeFileSync(file, next);
  console.log('README.md configuration table updated');
}

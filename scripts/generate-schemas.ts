// Writes schemas/events/*.json and catalog.md; with --check, exits 1 when they are stale.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderEventSchemaDocuments } from '@lomo/contracts';

const dir = path.resolve(__dirname, '..', 'schemas', 'events');
const check = process.argv.includes('--check');
const documents = renderEventSchemaDocuments();
const existing = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
const stale = [
  ...[...documents]
    .filter(([name, text]) => !existing.includes(name) || fs.readFileSync(path.join(dir, name), 'utf8') !== text)
    .map(([n]) => n),
  ...existing.filter((name) => !documents.has(name)),
];

if (check) {
  if (stale.length > 0) {
    console.error(`schemas/events is stale (${stale.join(', ')}): run npm run schemas`);
    process.exit(1);
  }
  console.log(`schemas/events is up to date (${documents.size} files)`);
} else {
  fs.mkdirSync(dir, { recursive: true });
  for (const name of existing) if (!documents.has(name)) fs.rmSync(path.join(dir, name));
  for (const [name, text] of documents) fs.writeFileSync(path.join(dir, name), text);
  console.log(`wrote ${documents.size} files to schemas/events (${stale.length} changed)`);
}

// Writes schemas/graphql/schema.graphql from the API's resolvers; `--check` fails when it is stale.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderGraphqlSchema, SCHEMA_FILE } from '@lomo/api';

async function main(): Promise<void> {
  const file = path.resolve(__dirname, '..', SCHEMA_FILE);
  const text = await renderGraphqlSchema();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (current !== text) {
      console.error(`${SCHEMA_FILE} is stale: run npm run schemas:graphql`);
      process.exit(1);
    }
    console.log(JSON.stringify({ msg: 'graphql schema up to date', file: SCHEMA_FILE }));
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  console.log(JSON.stringify({ msg: 'graphql schema written', file: SCHEMA_FILE, bytes: text.length }));
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});

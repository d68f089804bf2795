import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderGraphqlSchema, SCHEMA_FILE } from './render-schema';

describe('generated schemas/graphql/schema.graphql', () => {
  it('is not stale: it matches what `npm run schemas:graphql` would write', async () => {
    const file = path.resolve(__dirname, '../../../..', SCHEMA_FILE);
    const onDisk = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '(missing)';
    expect(onDisk).toEqual(await renderGraphqlSchema());
  });
});

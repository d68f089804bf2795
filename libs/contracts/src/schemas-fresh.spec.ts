import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderEventSchemaDocuments } from './schema-documents';

describe('generated schemas/events', () => {
  it('is not stale: every file matches what `npm run schemas` would write, and nothing extra is there', () => {
    const dir = path.resolve(__dirname, '../../../schemas/events');
    const expected = renderEventSchemaDocuments();
    const onDisk = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
    expect(onDisk).toEqual([...expected.keys()].sort());
    for (const [name, text] of expected) {
      expect({ name, text: fs.readFileSync(path.join(dir, name), 'utf8') }).toEqual({ name, text });
    }
  });
});

import * as fs from 'node:fs';
import * as path from 'node:path';
import { replaceConfigTable } from './config-table';

describe('README configuration table', () => {
  it('lists every variable the config schema knows, as `npm run docs` renders it', () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
    expect(replaceConfigTable(readme)).toBe(readme);
  });
});

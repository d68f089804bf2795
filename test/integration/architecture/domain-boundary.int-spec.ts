import { lintSource } from './support/run-eslint';

// The lint rule CI runs is what keeps the domain framework-free; this proves the rule bites.
function restrictedImportErrors(filePath: string, source: string): number {
  return lintSource(filePath, source).filter((m) => m.ruleId === 'no-restricted-imports').length;
}

describe('lint rule: libs/domain and libs/contracts import no infrastructure', () => {
  const forbidden = ['@nestjs/common', '@nestjs/cqrs', 'kafkajs', 'mongodb', 'better-sqlite3', '@eventstore/db-client'];
  const probe =
    forbidden.map((pkg, i) => `import * as m${i} from '${pkg}';`).join('\n') +
    `\nexport const all = [${forbidden.map((_, i) => `m${i}`).join(', ')}];\n`;

  it.each(['libs/domain/src/probe.ts', 'libs/contracts/src/probe.ts'])(
    '%s fails lint once per forbidden import',
    (filePath) => {
      expect(restrictedImportErrors(filePath, probe)).toBe(forbidden.length);
    },
  );

  it('allows the same imports in an adapter library', () => {
    expect(restrictedImportErrors('libs/eventstore/src/probe.ts', probe)).toBe(0);
  });
});

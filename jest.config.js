// Three projects: unit (pure, in-memory, fast), integration (embedded SQLite, child
// processes), distributed (needs Kafka / FerretDB started by scripts/infra).
const swcOptions = require('./scripts/swc-options.cjs');
const { jsc, module: mod } = swcOptions('x.ts');

const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc, module: mod, sourceMaps: 'inline' }] },
  moduleNameMapper: { '^@lomo/([^/]+)$': '<rootDir>/libs/$1/src' },
  setupFiles: ['reflect-metadata'],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};

module.exports = {
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts', '<rootDir>/{apps,libs}/**/*.int-spec.ts'],
    },
    {
      ...shared,
      displayName: 'distributed',
      testMatch: ['<rootDir>/test/distributed/**/*.dist-spec.ts'],
    },
  ],
};

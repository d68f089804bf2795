// Five projects: unit (pure, in-memory, fast), integration (embedded SQLite, child processes),
// browser (Debian's chromium), distributed (needs Kafka / FerretDB started by scripts/infra),
// drills (end-to-end scenarios on the built app).
const swcOptions = require('./scripts/swc-options.cjs');
const { jsc, module: mod } = swcOptions('x.ts');

const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc, module: mod, sourceMaps: 'inline' }] },
  moduleNameMapper: {
    '^@lomo/([^/]+)/testing$': '<rootDir>/libs/$1/src/testing',
    '^@lomo/([^/]+)$': '<rootDir>/libs/$1/src',
  },
  setupFiles: ['reflect-metadata'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/dist\\.(building|old)-'],
};

module.exports = {
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts', '<rootDir>/{apps,libs}/**/*.int-spec.ts'],
    },
    // A real browser: Debian's chromium (npm run test:browser says how to install it).
    { ...shared, displayName: 'browser', testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'] },
    {
      ...shared,
      displayName: 'distributed',
      testMatch: ['<rootDir>/test/distributed/**/*.dist-spec.ts'],
    },
    // End-to-end drills (issue 21): the built standalone app driven by scripted people; minutes
    // long, so `npm run test:drills` runs them in band and `npm test` leaves them out.
    { ...shared, displayName: 'drills', testMatch: ['<rootDir>/test/drills/**/*.drill-spec.ts'] },
  ],
};

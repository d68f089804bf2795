// Shared SWC settings: CommonJS output with decorator metadata, which NestJS DI needs.
module.exports = (filename) => ({
  filename,
  sourceMaps: 'inline',
  module: { type: 'commonjs' },
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    keepClassNames: true,
  },
});

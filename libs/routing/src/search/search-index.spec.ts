import { describeSearchIndexContract, InMemorySearchIndex } from '@lomo/routing/testing';

describeSearchIndexContract('in-memory', {
  create: async (dimensions) => ({ index: new InMemorySearchIndex({ dimensions }), dispose: async () => {} }),
});

// Test support for @lomo/read-models: the document-store contract suite and its harnesses.
export * from '../document-store/testing/document-store.contract';
export * from '../document-store/testing/document-store-harness';
export * from '../document-store/testing/mongo-harness';
export * from '../document-store/testing/sqlite-harness';
export { CLAIMS_COLLECTION } from '../document-store/mongodb/transition-claims';
export * from './generated-log';
export * from './collection-diff';

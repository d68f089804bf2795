import type { DocumentStoreHarness } from '@lomo/read-models/testing';
import { DocumentApiTokenStore } from '../document-api-token-store';
import type { ApiTokenStoreHarness } from './api-token-store.contract';

/** Token stores over a document-store harness (SQLite file or a FerretDB database of its own). */
export function documentTokenStoreHarness(documents: DocumentStoreHarness): ApiTokenStoreHarness {
  return {
    store: new DocumentApiTokenStore(documents.store),
    openAnother: async () => new DocumentApiTokenStore(await documents.openAnother()),
    dispose: () => documents.dispose(),
  };
}

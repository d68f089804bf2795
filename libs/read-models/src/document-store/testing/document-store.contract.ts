import { conditionalWriteContract } from './contract/conditional-write.contract';
import { countAndBulkContract } from './contract/count-bulk.contract';
import { crudContract } from './contract/crud.contract';
import { filterContract } from './contract/filter.contract';
import { indexesContract } from './contract/indexes.contract';
import { invalidInputContract } from './contract/invalid-input.contract';
import { paginationContract } from './contract/pagination.contract';
import type { ContractContext, DocumentStoreHarness, DocumentStoreHarnessFactory } from './document-store-harness';

export type { DocumentStoreHarness, DocumentStoreHarnessFactory } from './document-store-harness';

/**
 * The one behavioural contract of the DocumentStore port, run by every adapter: SQLite in
 * `npm test`, FerretDB (MongoDB wire protocol) in `npm run test:distributed`. One storage per
 * suite; every test works in collections of its own.
 */
export interface ContractOptions {
  /**
   * Whether compare-and-set holds when writers race on one document. Only switched off to run
   * the rest of the contract through the MongoDB code path on FerretDB, whose filtered updates
   * are not atomic (the adapter's FerretDB path passes the full contract).
   */
  racingWriters?: boolean;
}

export function describeDocumentStoreContract(
  name: string,
  factory: DocumentStoreHarnessFactory,
  options: ContractOptions = {},
): void {
  describe(`DocumentStore contract: ${name}`, () => {
    let current: DocumentStoreHarness | undefined;
    let counter = 0;
    const harness = (): DocumentStoreHarness => {
      if (current === undefined) throw new Error('The contract harness is used outside a test');
      return current;
    };
    const context: ContractContext = {
      harness,
      store: () => harness().store,
      collection: (label) => `${label}_${(counter += 1)}`,
    };

    beforeAll(async () => {
      current = await factory();
    });
    afterAll(async () => {
      await current?.dispose();
      current = undefined;
    });

    crudContract(context);
    conditionalWriteContract(context, { racingWriters: options.racingWriters ?? true });
    filterContract(context);
    paginationContract(context);
    countAndBulkContract(context);
    indexesContract(context);
    invalidInputContract(context);
  });
}

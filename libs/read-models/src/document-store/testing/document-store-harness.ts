import type { DocumentStore } from '../document-store.port';

export interface DocumentStoreHarness {
  store: DocumentStore;
  /** A second store on the same storage (another process, another projector instance). */
  openAnother(): Promise<DocumentStore>;
  dispose(): Promise<void>;
}

export type DocumentStoreHarnessFactory = () => Promise<DocumentStoreHarness>;

export interface ContractContext {
  harness(): DocumentStoreHarness;
  store(): DocumentStore;
  /** A collection name no other test uses, so tests share one storage without interfering. */
  collection(label: string): string;
}

/** Asserts a typed error by its stable code (never by message or class identity). */
export async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  await expect(promise).rejects.toMatchObject({ code });
}

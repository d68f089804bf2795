/** Topic of read-model change notices; key = document id. */
export const CHANGES_TOPIC = 'lomo.changes';

/**
 * Published after a projection wrote a document (DESIGN.md §4 step 7): API instances answer
 * consistency tokens and push GraphQL subscriptions from these. At least once: a notice is sent
 * after the document is written and before the stream revisions advance, so a crash in between
 * sends it again on redelivery. `streams` is every source-stream revision the document now
 * reflects, `{streamId: revision}`.
 */
export interface ChangeNotice {
  projection: string;
  collection: string;
  documentId: string;
  workspaceId: string;
  streams: Record<string, number>;
}

export interface ChangeNoticeSink {
  publish(notices: readonly ChangeNotice[]): Promise<void>;
}

export const discardChangeNotices: ChangeNoticeSink = { publish: async () => undefined };

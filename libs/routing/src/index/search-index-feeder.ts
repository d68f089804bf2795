import type { EmbeddingProvider } from '@lomo/llm';
import type { ChangeNotice, ChangeNoticeSink, DocumentStore } from '@lomo/read-models';
import type { SearchDocument, SearchIndex } from '../search/search-index.port';
import { isRoutable, routingText } from './routing-document';
import { ROUTING_INDEX_PROJECTION, toRoutingDocument, type RoutingIndexDocument } from './routing-index.projection';

/** Documents read per page when a whole collection is re-fed (after a rebuild). */
const RESYNC_PAGE = 500;

/**
 * Feeds the SearchIndex from `routing_index`, as a ChangeNoticeSink wrapped around the
 * projector's own sink.
 *
 * Why here: the engine publishes a batch's notices after it wrote the documents and before it
 * advances the stream revisions (ProjectionEngine.apply in @lomo/read-models). So the search
 * index is written in the same apply path, after the document: if the upsert fails or the
 * process dies, the revisions stay behind, the batch is redone and the notice comes again, and
 * the upsert (replace by scope + id) repeats harmlessly. Nothing is lost and nothing needs a
 * checkpoint of its own. The document, not the event, is the source: an out-of-order or repeated
 * notice writes the current text.
 *
 * A rebuild writes a fresh collection without notices; `resync(collection)` then clears the search
 * index and feeds it from that collection, so a rebuild rebuilds the search index too (the caller
 * runs it after the switch, and on start when the search index is empty and the collection not).
 */
export class SearchIndexFeeder implements ChangeNoticeSink {
  constructor(
    private readonly deps: {
      documents: DocumentStore;
      search: SearchIndex;
      embedder: EmbeddingProvider;
      /** The sink notices go on to (the bus, or in-process listeners). */
      next?: ChangeNoticeSink;
    },
  ) {}

  async publish(notices: readonly ChangeNotice[]): Promise<void> {
    const mine = notices.filter((n) => n.projection === ROUTING_INDEX_PROJECTION);
    const byCollection = new Map<string, string[]>();
    for (const n of mine) byCollection.set(n.collection, [...(byCollection.get(n.collection) ?? []), n.documentId]);
    for (const [collection, ids] of byCollection) {
      await this.feed(await this.deps.documents.getMany<RoutingIndexDocument>(collection, ids));
    }
    await this.deps.next?.publish(notices);
  }

  /** Re-feeds everything from one physical collection (after a rebuild switched to it). */
  async resync(collection: string): Promise<number> {
    await this.deps.search.clear();
    let after: string | undefined;
    let fed = 0;
    for (;;) {
      const page = await this.deps.documents.find<RoutingIndexDocument>(collection, { limit: RESYNC_PAGE, after });
      fed += await this.feed(page.items);
      if (!page.hasMore || page.endCursor === undefined) return fed;
      after = page.endCursor;
    }
  }

  /** Upserts the routable documents (text = goal + summary, vector of it), removes the others. */
  async feed(stored: readonly RoutingIndexDocument[]): Promise<number> {
    const created = stored.filter((d) => d.created);
    // An operator's fork is never a candidate (routing-index.projection.ts).
    const routable = (d: RoutingIndexDocument) => d.fork !== true && isRoutable(toRoutingDocument(d));
    const keep = created.filter(routable).map(toRoutingDocument);
    for (const gone of created.filter((d) => !routable(d))) {
      await this.deps.search.remove(gone.workspaceId, [gone.taskId]);
    }
    if (keep.length === 0) return 0;
    const texts = keep.map(routingText);
    const vectors = await this.deps.embedder.embed({ texts });
    const documents: SearchDocument[] = keep.map((d, i) => ({
      scope: d.workspaceId,
      id: d.taskId,
      text: texts[i]!,
      vector: vectors[i],
    }));
    await this.deps.search.upsert(documents);
    return documents.length;
  }
}

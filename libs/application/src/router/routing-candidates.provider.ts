import type { Provider } from '@nestjs/common';
import { LOMO_CONFIG, type LomoConfig } from '@lomo/config';
import { EMBEDDING_PROVIDER, type EmbeddingProvider } from '@lomo/llm';
import {
  IndexedRoutingCandidates,
  ROUTING_CANDIDATES,
  ROUTING_INDEX,
  SEARCH_INDEX,
  type RoutingIndex,
  type SearchIndex,
} from '@lomo/routing';

/** Candidates from the routing index and the search index, N recent + K retrieved (LOMO_ROUTING_*). */
export const routingCandidatesProvider: Provider = {
  provide: ROUTING_CANDIDATES,
  useFactory: (config: LomoConfig, index: RoutingIndex, search: SearchIndex, embedder: EmbeddingProvider) =>
    new IndexedRoutingCandidates(
      { index, search, embedder },
      { recent: config.LOMO_ROUTING_RECENT, retrieved: config.LOMO_ROUTING_RETRIEVED },
    ),
  inject: [LOMO_CONFIG, ROUTING_INDEX, SEARCH_INDEX, EMBEDDING_PROVIDER],
};

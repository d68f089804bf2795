import type { Provider } from '@nestjs/common';
import { ROUTING_CANDIDATES, type RouteCandidate } from '@lomo/routing';

// Replaced by the routing index's retrieval when it lands (libs/routing/src/candidates).
export const routingCandidatesProvider: Provider = {
  provide: ROUTING_CANDIDATES,
  useValue: {
    retrieve: async (input: { alsoInclude: readonly RouteCandidate[] }) => [...input.alsoInclude],
    duplicates: async () => [],
  },
};

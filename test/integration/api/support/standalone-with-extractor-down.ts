import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { ModelUnavailableError } from '@lomo/llm';
import { OfflineMemoryExtractor, type ExtractionRequest, type MemoryExtractor } from '@lomo/memory';
import { runApp } from '@lomo/platform';
import { StandaloneModule } from '../../../../apps/standalone/src/standalone.module';

// The standalone as `npm start` runs it, except that memory extraction fails (as a model outage
// would, retriable) while the file `extractor-down` exists in the data directory; then it is the
// offline rules again. For test/integration/api/memory-dead-letters.int-spec.ts.
class ExtractorDownWhileFlagged implements MemoryExtractor {
  readonly kind = 'offline_rules' as const;
  private readonly rules = new OfflineMemoryExtractor();
  constructor(private readonly flag: string) {}
  extract(request: ExtractionRequest): Promise<unknown[]> {
    if (existsSync(this.flag)) return Promise.reject(new ModelUnavailableError('the extraction model is down'));
    return this.rules.extract(request);
  }
}

runApp('standalone', (config, logger) =>
  StandaloneModule.register(config, {
    logger,
    memory: { extractor: new ExtractorDownWhileFlagged(path.join(config.LOMO_DATA_DIR, 'extractor-down')) },
  }),
);

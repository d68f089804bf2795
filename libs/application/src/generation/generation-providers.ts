import type { LomoConfig } from '@lomo/config';
import type { Clock } from '@lomo/contracts';
import {
  OpenAiImagesProvider,
  OpenAiVideosProvider,
  SimulatedGenerationProvider,
  type GenerationProvider,
  type MediaKind,
} from '@lomo/generation';
import type { Logger } from '@lomo/observability';

export interface GenerationProviderSet {
  providers: GenerationProvider[];
  providerFor: (kind: MediaKind) => string;
}

/**
 * The providers LOMO_GENERATION_PROVIDER names. `simulated`: one provider for every kind.
 * `openai`: images and videos on the OpenAI-compatible endpoint; 3D and audio, which that API
 * does not make, stay on the simulated upstream when one is configured (else they are refused
 * with GENERATION_KIND_UNAVAILABLE).
 */
export function generationProvidersFrom(
  config: LomoConfig,
  upstream: { url: string; callbackSecret: string; callbackUrl: string } | null,
  clock: Clock,
  logger: Logger,
): GenerationProviderSet {
  const simulated =
    upstream === null
      ? undefined
      : new SimulatedGenerationProvider({
          baseUrl: upstream.url,
          callbackSecret: upstream.callbackSecret,
          callbackUrl: `${upstream.callbackUrl}/simulated`,
          clock,
          logger,
        });
  if (config.LOMO_GENERATION_PROVIDER === 'simulated') {
    if (simulated === undefined) throw new Error('The simulated provider needs the sim-upstream');
    return { providers: [simulated], providerFor: () => simulated.name };
  }
  const connection = { apiKey: config.OPENAI_API_KEY ?? '', baseUrl: config.OPENAI_BASE_URL };
  const images = new OpenAiImagesProvider({ ...connection });
  const videos = new OpenAiVideosProvider({ ...connection, webhookSecret: config.OPENAI_WEBHOOK_SECRET });
  const byKind: Record<MediaKind, string> = {
    image: images.name,
    video: videos.name,
    // Without a simulated upstream these kinds have no provider: ordering one is a typed error.
    '3d': simulated?.name ?? 'none',
    audio: simulated?.name ?? 'none',
  };
  return {
    providers: simulated ? [images, videos, simulated] : [images, videos],
    providerFor: (kind) => byKind[kind],
  };
}

import type { GenerationParams } from '../provider/generation-provider.port';
import { DEFAULT_IMAGE_PRICES, OpenAiImagesProvider } from './openai-images-provider';
import { OpenAiVideosProvider } from './openai-videos-provider';

const image = (options: Record<string, unknown>): GenerationParams => ({
  kind: 'image',
  operation: 'image.generate',
  prompt: 'p',
  options,
});
const video = (options: Record<string, unknown>): GenerationParams => ({
  kind: 'video',
  operation: 'video.generate',
  prompt: 'p',
  options,
});

describe('OpenAiImagesProvider.quote', () => {
  const images = new OpenAiImagesProvider({ apiKey: 'sk-test' });

  it('prices one image by quality and size from the default table, in integer cents', () => {
    expect(images.quote(image({ size: '1536x1024', quality: 'high' }))).toEqual({
      provider: 'openai-images',
      units: 1,
      unit: 'image',
      unitPriceMinor: 25,
      amountMinor: 25,
      currency: 'USD',
    });
    // Defaults: 1024x1024 at medium.
    expect(images.quote(image({})).amountMinor).toBe(DEFAULT_IMAGE_PRICES.perImageMinor.medium['1024x1024']);
    expect(images.quote({ ...image({ quality: 'low' }), operation: 'image.edit' }).amountMinor).toBe(2);
  });

  it('uses a configured table and currency', () => {
    const custom = new OpenAiImagesProvider({
      apiKey: 'sk-test',
      prices: { currency: 'CNY', perImageMinor: { standard: { '512x512': 30 } } },
      defaultQuality: 'standard',
    });
    expect(custom.quote(image({ size: '512x512' }))).toMatchObject({ amountMinor: 30, currency: 'CNY' });
  });

  it('refuses a combination it has no price for, and another kind or operation', () => {
    expect(() => images.quote(image({ size: '4096x4096' }))).toThrow(
      expect.objectContaining({ code: 'GENERATION_REJECTED' }),
    );
    expect(() => images.quote(video({}))).toThrow(expect.objectContaining({ code: 'GENERATION_REJECTED' }));
  });

  it('refuses a table with fractional minor units at construction', () => {
    expect(
      () =>
        new OpenAiImagesProvider({
          apiKey: 'sk-test',
          prices: { currency: 'USD', perImageMinor: { low: { '1024x1024': 1.1 } } },
        }),
    ).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});

describe('OpenAiVideosProvider.quote', () => {
  const videos = new OpenAiVideosProvider({ apiKey: 'sk-test' });

  it('prices seconds × per-second price by model and size', () => {
    expect(videos.quote(video({ seconds: 8, size: '1280x720' }))).toEqual({
      provider: 'openai-videos',
      units: 8,
      unit: 'second',
      unitPriceMinor: 10,
      amountMinor: 80,
      currency: 'USD',
    });
    expect(videos.quote(video({ model: 'sora-2-pro', size: '1792x1024', seconds: '12' })).amountMinor).toBe(600);
    // A dated snapshot is priced as its base model; defaults are 720x1280 and 4 s.
    expect(videos.quote(video({ model: 'sora-2-2025-10-06' })).amountMinor).toBe(40);
  });

  it('refuses a size its model has no price for, and a non-integer duration', () => {
    expect(() => videos.quote(video({ size: '1792x1024' }))).toThrow(
      expect.objectContaining({ code: 'GENERATION_REJECTED' }),
    );
    expect(() => videos.quote(video({ seconds: 2.5 }))).toThrow(
      expect.objectContaining({ code: 'GENERATION_REJECTED' }),
    );
  });
});

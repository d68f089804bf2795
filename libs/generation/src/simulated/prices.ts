import type { GenerationParams, GenerationQuote, MediaKind } from '../provider';

/** Price of one unit per kind, in integer minor units of `currency`. */
export type SimulatedPriceTable = Readonly<Record<MediaKind, number>>;

/** What one unit is per kind: images count, video seconds, 3D models, audio seconds. */
export const simulatedUnitNames: Readonly<Record<MediaKind, string>> = {
  image: 'image',
  video: 'second',
  '3d': 'model',
  audio: 'second',
};

export const defaultSimulatedPrices: SimulatedPriceTable = { image: 4, video: 10, '3d': 50, audio: 1 };
export const defaultSimulatedCurrency = 'USD';

const defaultUnits: Readonly<Record<MediaKind, number>> = { image: 1, video: 4, '3d': 1, audio: 5 };
const maxUnits: Readonly<Record<MediaKind, number>> = { image: 10, video: 60, '3d': 4, audio: 600 };

function firstNumber(options: Readonly<Record<string, unknown>>, names: readonly string[]): unknown {
  for (const name of names) if (options[name] !== undefined) return options[name];
  return undefined;
}

/**
 * How many billable units a request is. The upstream and the adapter's quote() both call this,
 * so what is quoted is what the upstream records. Throws RangeError for a count it would refuse.
 */
export function simulatedUnits(kind: MediaKind, options: Readonly<Record<string, unknown>>): number {
  const names =
    kind === 'image' ? ['n', 'count'] : kind === '3d' ? ['count'] : ['durationSeconds', 'seconds', 'duration'];
  const raw = firstNumber(options, names) ?? defaultUnits[kind];
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw <= 0) {
    throw new RangeError(`${kind} needs a positive number of ${simulatedUnitNames[kind]}s`);
  }
  // Seconds are billed per started second; counts must already be whole.
  const units = kind === 'video' || kind === 'audio' ? Math.ceil(raw) : raw;
  if (!Number.isInteger(units) || units > maxUnits[kind]) {
    throw new RangeError(`${kind} allows 1..${maxUnits[kind]} whole ${simulatedUnitNames[kind]}s, got ${raw}`);
  }
  return units;
}

export function simulatedQuote(
  provider: string,
  params: Pick<GenerationParams, 'kind' | 'options'>,
  prices: SimulatedPriceTable,
  currency: string,
): GenerationQuote {
  const units = simulatedUnits(params.kind, params.options);
  const unitPriceMinor = prices[params.kind];
  return {
    provider,
    units,
    unit: simulatedUnitNames[params.kind],
    unitPriceMinor,
    amountMinor: units * unitPriceMinor,
    currency,
  };
}

/**
 * EWG hazard-score bands (storefront spec §9): Excellent 1-2, Good 3-6, Moderate concern 7-10;
 * an ingredient without a score (or with a score outside 1-10) is shown as "Pending".
 */
import { EWG_BANDS } from '@nh/shared/constants';

export type EwgBandKey = 'excellent' | 'good' | 'moderate' | 'pending';

export interface EwgBand {
  key: EwgBandKey;
  label: string;
  /** Human range such as "1-2"; null for Pending. */
  range: string | null;
}

const KEYS: readonly EwgBandKey[] = ['excellent', 'good', 'moderate'];

export const PENDING_BAND: EwgBand = { key: 'pending', label: 'Pending', range: null };

/** The rated bands in display order, then Pending. */
export const EWG_BAND_LIST: readonly EwgBand[] = [
  ...EWG_BANDS.map((band, index) => ({ key: KEYS[index]!, label: band.label, range: `${band.min}-${band.max}` })),
  PENDING_BAND,
];

export function ewgBand(rating: number | null | undefined): EwgBand {
  if (typeof rating !== 'number' || !Number.isInteger(rating)) return PENDING_BAND;
  const index = EWG_BANDS.findIndex((band) => rating >= band.min && rating <= band.max);
  return index === -1 ? PENDING_BAND : EWG_BAND_LIST[index]!;
}

/** Groups items by band, in band order, leaving out empty bands; items keep their order. */
export function groupByEwgBand<T extends { ewgRating: number | null }>(items: readonly T[]): { band: EwgBand; items: T[] }[] {
  return EWG_BAND_LIST.map((band) => ({ band, items: items.filter((item) => ewgBand(item.ewgRating).key === band.key) })).filter(
    (group) => group.items.length > 0,
  );
}

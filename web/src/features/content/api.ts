/** Content data: impact figures and the ingredient glossary. */
import { IMPACT_FALLBACK } from '@nh/shared/constants';
import type { ImpactStats, Ingredient } from '@nh/shared/contracts/catalog';
import { queryOptions, useQuery } from '@tanstack/react-query';

export const impactQuery = queryOptions<ImpactStats>({ queryKey: ['/api/impact'] });
export const ingredientsQuery = queryOptions<Ingredient[]>({ queryKey: ['/api/ingredients'] });

export type ImpactFigures = Pick<ImpactStats, 'bottlesSaved' | 'chemicalsAvoided' | 'homesHelped'>;

/** GET /api/impact; when the call fails the fallback figures of spec §9 are shown instead. */
export function useImpactFigures(): { figures: ImpactFigures; isPending: boolean; isFallback: boolean } {
  const query = useQuery(impactQuery);
  if (query.data) return { figures: query.data, isPending: false, isFallback: false };
  return { figures: IMPACT_FALLBACK, isPending: query.isPending, isFallback: query.isError };
}

export function useIngredients() {
  return useQuery(ingredientsQuery);
}

/**
 * A cadence that learns (issue 21): the one rule that suggests a plan a longer or shorter cadence from
 * what its shopper did. Pure: the API (My Subscriptions), the workers (the renewal reminder) and the web
 * (its words) all call it with the plan's recent history as plain data.
 *
 * - Two skips in a row (the two latest periods skipped by the shopper) → the next longer cadence offered.
 * - Two ship-nows within one cadence (the two latest periods shipped early, less than one cadence apart)
 *   → the next shorter cadence offered.
 * - Declined: hidden until three periods have gone by since the period it was declined in.
 * - Nothing when the plan is already on the longest (or shortest) cadence offered, or on one not offered.
 * - Only the periods since the cadence last changed count (an accepted suggestion starts afresh).
 */

/** What happened to one period of the plan: delivered on its date, skipped by the shopper, or shipped early (ship now). */
export type CadencePeriodKind = 'delivered' | 'skipped' | 'shipped-early';

export interface CadencePeriod {
  /** yyyy-mm-dd (UTC): the period's billing date (skipped, delivered), or the day it shipped (shipped early). */
  day: string;
  kind: CadencePeriodKind;
}

export interface CadenceHistory {
  /** The plan's recent periods, in any order (the rule sorts them by day). */
  periods: readonly CadencePeriod[];
  /** The plan's cadence now, in months. */
  currentMonths: number;
  /** The cadences offered (PLAN_CADENCE_MONTHS), sorted ascending. */
  offeredMonths: readonly number[];
  /** yyyy-mm-dd of the period the shopper last declined a suggestion in, or null. */
  dismissedPeriod: string | null;
  /** yyyy-mm-dd the plan's cadence last changed (by anyone), or null: periods before it say nothing of the cadence it has now. */
  cadenceChangedOn?: string | null;
}

export type CadenceSuggestionReason = 'skipped-twice' | 'shipped-early-twice';

export interface CadenceSuggestion {
  direction: 'longer' | 'shorter';
  /** The cadence suggested, in months (one of the offered). */
  intervalCount: number;
  reason: CadenceSuggestionReason;
}

/** A declined suggestion stays hidden for this many periods. */
export const CADENCE_SUGGESTION_HIDDEN_PERIODS = 3;

const DAY_MS = 86_400_000;

/** `day` plus `months` calendar months (clamped to the month's last day), as a UTC time. */
function addMonths(day: string, months: number): number {
  const date = new Date(`${day}T00:00:00.000Z`);
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  return Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(date.getUTCDate(), last));
}

export function suggestCadence({ periods, currentMonths, offeredMonths, dismissedPeriod, cadenceChangedOn = null }: CadenceHistory): CadenceSuggestion | null {
  const offered = [...offeredMonths].sort((a, b) => a - b);
  const at = offered.indexOf(currentMonths);
  if (at < 0) return null;
  const sorted = periods.filter((p) => cadenceChangedOn === null || p.day >= cadenceChangedOn).sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  if (dismissedPeriod !== null && sorted.filter((p) => p.day >= dismissedPeriod).length < CADENCE_SUGGESTION_HIDDEN_PERIODS) return null;
  const [before, last] = sorted.slice(-2);
  if (!before || !last) return null;
  if (before.kind === 'skipped' && last.kind === 'skipped') {
    const longer = offered[at + 1];
    return longer === undefined ? null : { direction: 'longer', intervalCount: longer, reason: 'skipped-twice' };
  }
  if (before.kind === 'shipped-early' && last.kind === 'shipped-early' && Date.parse(`${last.day}T00:00:00.000Z`) < addMonths(before.day, currentMonths) + DAY_MS) {
    const shorter = offered[at - 1];
    return shorter === undefined ? null : { direction: 'shorter', intervalCount: shorter, reason: 'shipped-early-twice' };
  }
  return null;
}

const everyWords = (months: number) => (months === 1 ? 'every month' : `every ${months} months`);

/**
 * The suggestion as the shopper reads it (My Subscriptions and the renewal reminder): why, then the
 * question. "You skipped your last two deliveries. Would every 2 months suit you better?"
 */
export function cadenceSuggestionWords(suggestion: Pick<CadenceSuggestion, 'intervalCount' | 'reason'>): { why: string; question: string; accept: string } {
  const every = everyWords(suggestion.intervalCount);
  return {
    why: suggestion.reason === 'skipped-twice' ? 'You skipped your last two deliveries.' : 'You asked for your last two deliveries early.',
    question: `Would a delivery ${every} suit you better?`,
    accept: `Deliver ${every}`,
  };
}

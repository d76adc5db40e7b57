import { describe, expect, it } from 'vitest';
import { cadenceSuggestionWords, suggestCadence, type CadenceHistory, type CadencePeriod } from './cadence-suggestion';

const offered = [1, 2, 3];
const p = (day: string, kind: CadencePeriod['kind']): CadencePeriod => ({ day, kind });
const history = (periods: CadencePeriod[], over: Partial<CadenceHistory> = {}): CadenceHistory => ({ periods, currentMonths: 1, offeredMonths: offered, dismissedPeriod: null, ...over });

describe('suggestCadence', () => {
  it('suggests the next longer cadence after two skips in a row', () => {
    const periods = [p('2027-01-03', 'delivered'), p('2027-02-03', 'skipped'), p('2027-03-03', 'skipped')];
    expect(suggestCadence(history(periods))).toEqual({ direction: 'longer', intervalCount: 2, reason: 'skipped-twice' });
    expect(suggestCadence(history(periods, { currentMonths: 2 }))).toEqual({ direction: 'longer', intervalCount: 3, reason: 'skipped-twice' });
  });

  it('reads the periods by day, whatever order they come in', () => {
    const periods = [p('2027-03-03', 'skipped'), p('2027-01-03', 'delivered'), p('2027-02-03', 'skipped')];
    expect(suggestCadence(history(periods))?.intervalCount).toBe(2);
  });

  it('needs the two skips to be the latest periods, one after the other', () => {
    expect(suggestCadence(history([p('2027-01-03', 'skipped'), p('2027-02-03', 'delivered'), p('2027-03-03', 'skipped')]))).toBeNull();
    expect(suggestCadence(history([p('2027-01-03', 'skipped'), p('2027-02-03', 'skipped'), p('2027-03-03', 'delivered')]))).toBeNull();
    expect(suggestCadence(history([p('2027-03-03', 'skipped')]))).toBeNull();
    expect(suggestCadence(history([]))).toBeNull();
  });

  it('suggests nothing longer on the longest cadence offered', () => {
    expect(suggestCadence(history([p('2027-02-03', 'skipped'), p('2027-05-03', 'skipped')], { currentMonths: 3 }))).toBeNull();
  });

  it('suggests the next shorter cadence after two ship-nows within one cadence', () => {
    const periods = [p('2027-01-03', 'delivered'), p('2027-02-10', 'shipped-early'), p('2027-03-20', 'shipped-early')];
    expect(suggestCadence(history(periods, { currentMonths: 2 }))).toEqual({ direction: 'shorter', intervalCount: 1, reason: 'shipped-early-twice' });
    expect(suggestCadence(history(periods, { currentMonths: 3 }))?.intervalCount).toBe(2);
  });

  it('does not count two ship-nows more than one cadence apart', () => {
    const periods = [p('2027-01-10', 'shipped-early'), p('2027-03-11', 'shipped-early')];
    expect(suggestCadence(history(periods, { currentMonths: 2 }))).toBeNull();
    expect(suggestCadence(history([p('2027-01-10', 'shipped-early'), p('2027-03-10', 'shipped-early')], { currentMonths: 2 }))?.intervalCount).toBe(1);
  });

  it('suggests nothing shorter on the shortest cadence offered', () => {
    expect(suggestCadence(history([p('2027-01-10', 'shipped-early'), p('2027-01-20', 'shipped-early')], { currentMonths: 1 }))).toBeNull();
  });

  it('suggests nothing on a cadence that is not offered', () => {
    expect(suggestCadence(history([p('2027-02-03', 'skipped'), p('2027-03-03', 'skipped')], { currentMonths: 6 }))).toBeNull();
  });

  it('hides a declined suggestion for three periods from the one it was declined in', () => {
    const skips = [p('2027-01-03', 'skipped'), p('2027-02-03', 'skipped')];
    // Declined while on the March period: hidden through March, April and May.
    expect(suggestCadence(history(skips, { dismissedPeriod: '2027-03-03' }))).toBeNull();
    const later = [...skips, p('2027-03-03', 'delivered'), p('2027-04-03', 'skipped'), p('2027-05-03', 'skipped')];
    expect(suggestCadence(history(later.slice(0, 4), { dismissedPeriod: '2027-03-03' }))).toBeNull();
    expect(suggestCadence(history(later, { dismissedPeriod: '2027-03-03' }))).toEqual({ direction: 'longer', intervalCount: 2, reason: 'skipped-twice' });
  });

  it('shows it again after three periods only when the rule still holds', () => {
    const periods = [p('2027-01-03', 'skipped'), p('2027-02-03', 'skipped'), p('2027-03-03', 'delivered'), p('2027-04-03', 'delivered'), p('2027-05-03', 'delivered')];
    expect(suggestCadence(history(periods, { dismissedPeriod: '2027-03-03' }))).toBeNull();
  });
});

describe('suggestCadence after a change of cadence', () => {
  it('reads only the periods since the cadence changed', () => {
    const periods = [p('2027-01-03', 'skipped'), p('2027-02-03', 'skipped'), p('2027-04-03', 'skipped')];
    expect(suggestCadence(history(periods, { currentMonths: 2, cadenceChangedOn: '2027-02-10' }))).toBeNull();
    expect(suggestCadence(history([...periods, p('2027-06-03', 'skipped')], { currentMonths: 2, cadenceChangedOn: '2027-02-10' }))?.intervalCount).toBe(3);
  });
});

describe('cadenceSuggestionWords', () => {
  it('says why and asks, in the shopper\'s words', () => {
    expect(cadenceSuggestionWords({ intervalCount: 2, reason: 'skipped-twice' })).toEqual({
      why: 'You skipped your last two deliveries.',
      question: 'Would a delivery every 2 months suit you better?',
      accept: 'Deliver every 2 months',
    });
    expect(cadenceSuggestionWords({ intervalCount: 1, reason: 'shipped-early-twice' }).accept).toBe('Deliver every month');
  });
});

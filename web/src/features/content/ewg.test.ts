import { describe, expect, it } from 'vitest';
import { ewgBand, EWG_BAND_LIST, groupByEwgBand } from './ewg';

describe('ewgBand', () => {
  it.each([
    [1, 'Excellent'],
    [2, 'Excellent'],
    [3, 'Good'],
    [6, 'Good'],
    [7, 'Moderate concern'],
    [10, 'Moderate concern'],
  ])('puts a rating of %i in %s', (rating, label) => {
    expect(ewgBand(rating).label).toBe(label);
  });

  it.each([null, undefined, 0, 11, -1, 2.5, Number.NaN])('shows %s as Pending', (rating) => {
    expect(ewgBand(rating)).toEqual({ key: 'pending', label: 'Pending', range: null });
  });

  it('lists the bands with their ranges in order', () => {
    expect(EWG_BAND_LIST.map((band) => [band.label, band.range])).toEqual([
      ['Excellent', '1-2'],
      ['Good', '3-6'],
      ['Moderate concern', '7-10'],
      ['Pending', null],
    ]);
  });
});

describe('groupByEwgBand', () => {
  it('groups in band order, keeps item order and leaves out empty bands', () => {
    const items = [
      { name: 'Fragrance', ewgRating: 8 },
      { name: 'Water', ewgRating: 1 },
      { name: 'New', ewgRating: null },
      { name: 'Citric acid', ewgRating: 2 },
    ];
    expect(groupByEwgBand(items).map((group) => [group.band.key, group.items.map((item) => item.name)])).toEqual([
      ['excellent', ['Water', 'Citric acid']],
      ['moderate', ['Fragrance']],
      ['pending', ['New']],
    ]);
  });
});

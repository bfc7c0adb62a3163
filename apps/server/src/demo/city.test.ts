import { describe, expect, it } from 'vitest';
import { generateCity } from './city.ts';

describe('demo city', () => {
  it('is the same city for the same seed', () => {
    expect(generateCity({ pipes: 500 })).toEqual(generateCity({ pipes: 500 }));
    expect(generateCity({ pipes: 500, seed: 1 }).pipes).not.toEqual(generateCity({ pipes: 500 }).pipes);
  });

  it('keeps the sizes of a main street from one end to the other, with water, gas and drainage under it', () => {
    const city = generateCity({ pipes: 2000 });
    const mid = (c: number[][]) => [(c[0][0] + c[c.length - 1][0]) / 2, (c[0][1] + c[c.length - 1][1]) / 2];
    const pipeMids = city.pipes.map((p) => ({ pipe: p, at: mid(p.geometry.coordinates as number[][]) }));
    const mainStreets = city.basemap.filter((f) => f.kind === 'mainStreet');
    let checked = 0;
    expect(mainStreets.length).toBeGreaterThan(2);
    const trunkWater = new Set<number>();
    for (const street of mainStreets) {
      const points = street.geometry.coordinates as number[][];
      const sizes = { water: new Set<number>(), gas: new Set<number>(), drainage: new Set<number>() };
      for (let k = 1; k < points.length; k++) {
        const block = mid([points[k - 1], points[k]]);
        // The pipes of a block lie within a few metres of its middle (1e-4 degrees is about 10 m).
        const under = pipeMids.filter(({ at }) => Math.hypot(at[0] - block[0], at[1] - block[1]) < 1e-4).map(({ pipe }) => pipe);
        if (under.length === 0) continue; // past the requested number of pipes
        expect(under.map((p) => p.networkType).sort()).toEqual(['drainage', 'gas', 'water']);
        for (const p of under) sizes[p.networkType as keyof typeof sizes].add(p.diameterMm);
      }
      if (sizes.water.size === 0) continue; // a street past the requested number of pipes
      for (const set of Object.values(sizes)) expect(set.size).toBe(1);
      checked++;
      const [water] = sizes.water;
      expect(water).toBeGreaterThanOrEqual(400);
      if (water >= 800) trunkWater.add(water);
    }
    expect(checked).toBeGreaterThan(2);
    // Some main streets are trunk corridors (drawn from the smallest map scales).
    expect(trunkWater.size).toBeGreaterThan(0);
  });
});

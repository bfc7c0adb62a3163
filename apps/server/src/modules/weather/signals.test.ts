import { describe, expect, it } from 'vitest';
import type { WeatherHour } from '@console/contract';
import { deriveWarnings } from './signals.ts';

/** Hours from `start` (UTC), one a value, the other fields given by `fill`. */
function series(start: string, count: number, fill: (i: number) => Partial<WeatherHour>): WeatherHour[] {
  return Array.from({ length: count }, (_, i) => ({
    time: new Date(Date.parse(start) + i * 3_600_000).toISOString(),
    precipitation: 0,
    temperature: 15,
    windSpeed: 2,
    windGust: 4,
    ...fill(i),
  }));
}

const rainAt = (amounts: Record<number, number>) => series('2026-07-01T00:00:00Z', 24, (i) => ({ precipitation: amounts[i] ?? 0 }));
const only = (hours: WeatherHour[], type: string) => deriveWarnings(hours).filter((w) => w.type === type);

describe('CMA warning signals from hourly values', () => {
  it('rainstorm: 50.0 mm in 3 h is orange, 49.9 mm is nothing; 100 mm in 3 h red; 50 mm in 6 h yellow, in 12 h blue', () => {
    expect(only(rainAt({ 5: 16.7, 6: 16.7, 7: 16.6 }), 'rainstorm').map((w) => [w.level, w.value, w.start])).toEqual([['II', 50, '2026-07-01T07:00:00.000Z']]);
    expect(only(rainAt({ 5: 16.7, 6: 16.6, 7: 16.6 }), 'rainstorm')).toEqual([]);
    expect(only(rainAt({ 5: 40, 6: 30, 7: 30 }), 'rainstorm')[0]).toMatchObject({ level: 'I', value: 100 });
    expect(only(rainAt({ 2: 9, 3: 9, 4: 8, 5: 8, 6: 8, 7: 8 }), 'rainstorm')[0]).toMatchObject({ level: 'III', value: 50 });
    const twelveHours = (last: number) => rainAt({ ...Object.fromEntries(Array.from({ length: 11 }, (_, i) => [i + 1, 4.2])), 12: last });
    expect(only(twelveHours(3.8), 'rainstorm')[0]).toMatchObject({ level: 'IV', value: 50 });
    expect(only(twelveHours(3.7), 'rainstorm')).toEqual([]);
  });

  it('a rainstorm that grows is one warning at its highest level, each rise listed as an update', () => {
    // 50 mm over 12 h (blue), then a burst: 50 mm in 6 h (yellow), then 50 mm in 3 h (orange).
    const hours = rainAt({ 0: 6, 1: 6, 2: 6, 3: 6, 4: 6, 5: 6, 6: 6, 7: 8, 8: 20, 9: 20, 10: 20 });
    const [storm] = only(hours, 'rainstorm');
    expect(storm.level).toBe('II');
    expect(storm.levels.map((l) => l.level)).toEqual(['IV', 'III', 'II']);
    expect(storm.start).toBe('2026-07-01T07:00:00.000Z');
    expect(only(hours, 'rainstorm')).toHaveLength(1);
  });

  it('cold wave: the daily minimum falling 12 °C in 24 h to 0 °C or below is orange; 48 h falls of 8 °C to 4 °C blue', () => {
    // Local days (UTC+8) start at 16:00 UTC; one value per hour, the day's minimum at its 6th hour.
    const days = (minima: number[]) => series('2026-01-09T16:00:00Z', minima.length * 24, (i) => ({ temperature: i % 24 === 6 ? minima[Math.floor(i / 24)] : minima[Math.floor(i / 24)] + 6 }));
    expect(only(days([10, -2]), 'coldWave').map((w) => [w.level, w.value])).toEqual([['II', 12]]);
    expect(only(days([10, -1.9]), 'coldWave').map((w) => w.level)).toEqual(['III']);
    expect(only(days([10, 0.1]), 'coldWave')).toEqual([]);
    expect(only(days([8, 4, 0]), 'coldWave').map((w) => [w.level, w.value])).toEqual([['IV', 8]]);
    expect(only(days([14, -2]), 'coldWave').map((w) => w.level)).toEqual(['I']);
    expect(only(days([8.1, 4, 0.2]), 'coldWave')).toEqual([]);
  });

  it('gale: mean wind of force 6 (10.8 m/s) is blue, 10.7 m/s nothing; force 8 yellow, 10 orange, 12 red', () => {
    const wind = (v: number) => series('2026-03-01T00:00:00Z', 3, (i) => ({ windSpeed: i === 1 ? v : 3 }));
    expect(only(wind(10.7), 'gale')).toEqual([]);
    expect(only(wind(10.8), 'gale').map((w) => w.level)).toEqual(['IV']);
    expect(only(wind(17.2), 'gale').map((w) => w.level)).toEqual(['III']);
    expect(only(wind(24.5), 'gale').map((w) => w.level)).toEqual(['II']);
    expect(only(wind(32.7), 'gale').map((w) => w.level)).toEqual(['I']);
  });

  it('heat: 35 °C on three days running is yellow (not on two), 37 °C orange, 40 °C red', () => {
    const days = (maxima: number[]) => series('2026-07-09T16:00:00Z', maxima.length * 24, (i) => ({ temperature: i % 24 === 14 ? maxima[Math.floor(i / 24)] : 28 }));
    expect(only(days([35, 35]), 'heat')).toEqual([]);
    expect(only(days([35, 35, 35]), 'heat').map((w) => [w.level, w.start])).toEqual([['III', '2026-07-11T16:00:00.000Z']]);
    expect(only(days([34.9, 35, 35]), 'heat')).toEqual([]);
    expect(only(days([30, 37]), 'heat').map((w) => w.level)).toEqual(['II']);
    expect(only(days([30, 39.9]), 'heat').map((w) => w.level)).toEqual(['II']);
    expect(only(days([30, 40]), 'heat').map((w) => w.level)).toEqual(['I']);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readOpenMeteoCsv, readOpenMeteoJson } from './readers.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const reasons = (result: ReturnType<typeof readOpenMeteoJson>) => ('problems' in result ? result.problems.map((p) => [p.row, p.field, p.reason['en-US']]) : null);

describe('Open-Meteo readers', () => {
  it('reads the JSON answer: local times to UTC by its offset, wind from km/h to m/s, the place', () => {
    const result = readOpenMeteoJson(fixture('open-meteo-hangzhou.json'));
    if ('problems' in result) throw new Error(JSON.stringify(result.problems));
    expect(result.place).toEqual({ lon: 120.2, lat: 30.2 });
    expect(result.hours).toHaveLength(5);
    expect(result.hours[0]).toEqual({ time: '2026-06-30T16:00:00.000Z', precipitation: 0, temperature: 26.1, windSpeed: 3, windGust: 6 });
    expect(result.hours[2]).toMatchObject({ precipitation: 21.3, windSpeed: 10, windGust: 17 });
  });

  it('reads the CSV download: the place line, units from the header, an empty value as none', () => {
    const result = readOpenMeteoCsv(fixture('open-meteo-hangzhou.csv'));
    if ('problems' in result) throw new Error(JSON.stringify(result.problems));
    expect(result.place).toEqual({ lon: 120.2, lat: 30.2 });
    expect(result.hours.map((h) => [h.time, h.temperature, h.precipitation, h.windSpeed])).toEqual([
      ['2026-01-09T16:00:00.000Z', 6.2, 0, 3.1],
      ['2026-01-09T17:00:00.000Z', 5.8, 0.2, 3.4],
      ['2026-01-09T18:00:00.000Z', 5.1, null, 2.9],
    ]);
  });

  it('reports bad files by row and field and reads nothing of them', () => {
    const good = JSON.parse(fixture('open-meteo-hangzhou.json'));
    expect(reasons(readOpenMeteoJson('{"hourly": '))).toEqual([[null, 'file', expect.stringMatching(/^file: cannot be read as Open-Meteo JSON/)]]);
    expect(reasons(readOpenMeteoJson(JSON.stringify({ ...good, hourly: { ...good.hourly, precipitation: [0, 1] } })))).toEqual([[null, 'hourly.precipitation', 'must hold one value per hour of hourly.time (5)']]);
    expect(reasons(readOpenMeteoJson(JSON.stringify({ ...good, hourly_units: { wind_speed_10m: 'bft' } })))).toEqual([[null, 'wind_speed_10m', 'wind in "bft", which is not km/h, m/s, mph or kn']]);
    const badValues = { ...good, hourly: { ...good.hourly, time: ['2026-07-01T00:00', '2026-07-01 01:00', '2026-07-01T02:00', '2026-07-01T03:00', '2026-13-01T04:00'], temperature_2m: [26.1, 'warm', 25.5, 25.4, 25.9] } };
    expect(reasons(readOpenMeteoJson(JSON.stringify(badValues)))).toEqual([
      [2, 'time', 'must be a date and time like 2026-01-31T08:30:00Z'],
      [2, 'temperature_2m', '"warm" is not a number'],
      [5, 'time', 'must be a date and time like 2026-01-31T08:30:00Z'],
    ]);
    const csv = fixture('open-meteo-hangzhou.csv').replace('5.8,0.2', '5.8,lots');
    expect(reasons(readOpenMeteoCsv(csv))).toEqual([[2, 'precipitation', '"lots" is not a number']]);
  });
});

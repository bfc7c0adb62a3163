import { describe, expect, it } from 'vitest';
import { JsonArraySplitter, JsonSyntaxError } from './jsonArraySplitter.ts';

/** The elements the splitter hands on when the document arrives cut at `cuts`. */
function split(text: string, cuts: number[]) {
  const bytes = Buffer.from(text, 'utf8');
  const splitter = new JsonArraySplitter('features');
  const out: unknown[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...splitter.write(bytes.subarray(from, cut)).map((t) => JSON.parse(t)));
    from = cut;
  }
  return { out, ended: splitter.isEnded };
}

const DOCUMENT = JSON.stringify(
  {
    type: 'FeatureCollection',
    name: 'a "features" [name] {with} \\ brackets',
    crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::4490', features: [1, 2] } },
    features: [
      { type: 'Feature', properties: { 名称: '给水管 "主干" \\\\', note: '}]{[', features: ['x'] }, geometry: { type: 'LineString', coordinates: [[120.1, 30.2], [120.2, 30.3]] } },
      null,
      12.5,
      'text with \\" quote',
      [1, [2, 3]],
      { type: 'Feature', properties: {}, geometry: null },
    ],
    after: { features: [{ not: 'this one' }] },
  },
  null,
  1,
);

describe('JSON array splitter', () => {
  it('hands on each element of the top-level "features" whole, wherever the chunks are cut', () => {
    const expected = JSON.parse(DOCUMENT).features;
    const bytes = Buffer.byteLength(DOCUMENT);
    for (let cut = 0; cut <= bytes; cut++) expect(split(DOCUMENT, [cut])).toEqual({ out: expected, ended: true });
    // Many small chunks, including ones that cut multi-byte characters.
    for (const size of [1, 2, 3, 7]) {
      const cuts = Array.from({ length: Math.floor(bytes / size) }, (_, k) => (k + 1) * size);
      expect(split(DOCUMENT, cuts)).toEqual({ out: expected, ended: true });
    }
  });

  it('skips a byte-order mark; says when the document is cut short, is not an object, or has text after it', () => {
    expect(split(`\uFEFF{"features":[{"a":1}]}`, [2]).out).toEqual([{ a: 1 }]);
    expect(split('{"features":[{"a":1},{"b":', []).ended).toBe(false);
    expect(() => split('[{"a":1}]', [])).toThrow(JsonSyntaxError);
    expect(() => split('{"features":[]} x', [])).toThrow(JsonSyntaxError);
    expect(() => split('{"features":[]}}', [])).toThrow(JsonSyntaxError);
    expect(split('{"type":"FeatureCollection"}', []).out).toEqual([]);
  });
});

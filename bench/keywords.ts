/**
 * The pipe list's keyword search as a user meets it: one signed-in connection asking
 * /api/pipelines?keyword=... over HTTP, right after an import, with keywords of 1 to 20 characters
 * (digits, letters in either case, Chinese road names; common, rare and absent ones).
 */
import type { DemoCity } from '../apps/server/src/demo/city.ts';
import { signedInHeaders, type Running } from './api.ts';
import { percentile } from './support.ts';

/** Requests per keyword after one not counted. */
const TIMES = 30;

const NETWORK_CODES = { water: 'JS', gas: 'RQ', drainage: 'PS' } as const;

/**
 * One pipe in four renamed as utilities number them by street ("江南二路-JS-000123"), so
 * Chinese keywords find pipes as they would in a utility's own register; the rest keep the
 * generator's codes (W-0000001, G-..., D-...: every "W-" after every "D-" and "G-").
 */
export function numberByStreet(city: DemoCity) {
  const streets = city.basemap.filter((feature) => feature.kind === 'street' || feature.kind === 'mainStreet').map((feature) => feature.name);
  city.pipes.forEach((pipe, i) => {
    if (i % 4 === 0) pipe.pipeId = `${streets[(i * 7919) % streets.length]}-${NETWORK_CODES[pipe.networkType as keyof typeof NETWORK_CODES]}-${String(i).padStart(7, '0')}`;
  });
}

/** Keywords a user types, by length: the two-character ones with letters and Chinese are the hard ones. */
export const BENCH_KEYWORDS = [
  '1',
  'w',
  '路',
  'x',
  '12',
  'ab',
  'pe',
  'PE',
  'G-',
  'W-',
  'js',
  '江南',
  '滨康',
  '路-',
  '012',
  'W-00',
  '江南二',
  'rq-00',
  '0012345',
  '滨盛路-PS',
  'W-0012345',
  '长河三路-JS-0001234',
  'no-such-pipe-at-all',
];

/** Each keyword TIMES times in a row on one connection; p50 and p99 by keyword and over all. */
export async function keywordsOverHttp(server: Running, label: string, say: (line: string) => void) {
  const headers = await signedInHeaders(server.url, 'admin', 'Demo123456');
  const all: number[] = [];
  const lines: string[] = [];
  for (const keyword of BENCH_KEYWORDS) {
    const times: number[] = [];
    let total = '';
    for (let i = 0; i <= TIMES; i++) {
      // A page size of its own each time: the server reads a page once for all who ask for it
      // until the network changes, and a page read again from there is not what is timed here.
      const url = `${server.url}/api/pipelines?pageSize=${10 + i}&keyword=${encodeURIComponent(keyword)}`;
      const started = performance.now();
      const response = await fetch(url, { headers: { ...headers, 'accept-encoding': 'gzip' } });
      const body = await response.json();
      if (!body.success) throw new Error(`keyword ${keyword}: ${body.message}`);
      if (i > 0) times.push(performance.now() - started);
      total = `${body.result.totalExact ? '' : 'more than '}${body.result.total.toLocaleString('en')}`;
    }
    times.sort((a, b) => a - b);
    all.push(...times);
    lines.push(`    ${JSON.stringify(keyword).padEnd(24)} (${[...keyword].length} chars) p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  p99 ${percentile(times, 99).toFixed(1).padStart(6)} ms  found ${total}`);
  }
  all.sort((a, b) => a - b);
  say(`  ${label}: every keyword p50 ${percentile(all, 50).toFixed(1)} ms, p99 ${percentile(all, 99).toFixed(1)} ms (goal p99 < 50 ms; ${all.length} requests)`);
  for (const line of lines) say(line);
}

import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { as, login, multipartFile, useDemoServer } from '../testing/app.ts';

const demo = useDemoServer();

/** Every route that takes a file: each must read it only from the multipart stream it wrote. */
const uploadRoutes = async (api: ReturnType<typeof as>) => {
  const projects = (await api({ method: 'GET', url: '/api/projects' })).json().result as { id: number; code: string }[];
  const leakProject = projects.find((p) => p.code === 'BJ-LEAK-2026')!;
  const pois = (await api({ method: 'GET', url: `/api/leaks/pois?projectId=${leakProject.id}&pageSize=1` })).json().result.list as { id: number }[];
  return ['/api/pipelines/imports', '/api/acquisitions/imports', '/api/leaks/imports', `/api/leaks/pois/${pois[0].id}/photos`];
};

describe('uploads come only from the multipart stream', () => {
  it('refuses a JSON or form body that names a server path, reading, moving and deleting nothing', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    // A file the server could reach: a relative path from its data folder and an absolute one.
    const secretDir = join(demo.dataDir, 'secret');
    await mkdir(secretDir, { recursive: true });
    const secret = join(secretDir, 'keep.geojson');
    const content = JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { id: 'x' }, geometry: { type: 'LineString', coordinates: [[120.2, 30.2], [120.21, 30.21]] } }] });
    await writeFile(secret, content);
    const passwdBefore = await stat('/etc/passwd');
    const importsBefore = await readdir(join(demo.dataDir, 'imports')).catch(() => []);

    for (const url of await uploadRoutes(api)) {
      // /etc/passwd comes last: were the hole ever back, a path in the test's own folder fails first.
      for (const path of [secret, 'secret/keep.geojson', '../secret/keep.geojson', '/etc/passwd']) {
        const file = { path, filename: 'pipes.geojson', mimetype: 'application/geo+json', size: 10 };
        const json = await api({ method: 'POST', url, payload: { file } });
        expect(json.statusCode, `${url} ${path}`).toBe(400);
        expect(json.json().message).toMatch(/^file: /);
        expect(json.body).not.toContain(path);
        const form = await api({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ file: path }).toString() });
        expect(form.statusCode, `${url} form ${path}`).toBe(400);
      }
    }
    expect(await readFile(secret, 'utf8')).toBe(content);
    expect((await stat('/etc/passwd')).mtimeMs).toBe(passwdBefore.mtimeMs);
    expect(await readdir(join(demo.dataDir, 'imports')).catch(() => [])).toEqual(importsBefore);
    for (const kind of ['pipelines', 'acquisitions', 'leaks']) {
      const jobs = (await api({ method: 'GET', url: `/api/${kind}/imports` })).json().result as { fileName: string }[];
      expect(jobs.filter((job) => job.fileName === 'pipes.geojson')).toEqual([]);
    }
  });

  it('still takes a real multipart upload, and the chosen file name never becomes a path', async () => {
    const api = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const geojson = JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { id: 'up-1' }, geometry: { type: 'LineString', coordinates: [[120.2, 30.2], [120.21, 30.21]] } }] });
    const answer = await api({ method: 'POST', url: '/api/pipelines/imports', ...multipartFile('file', '../../../../etc/passwd.geojson', geojson) });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().result.fileName).toBe('passwd.geojson');
    expect(await readFile('/etc/passwd', 'utf8')).not.toContain('FeatureCollection');
  });
});

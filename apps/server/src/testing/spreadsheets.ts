import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** How one reader saw a spreadsheet: its column names and how many data rows (the header not counted). */
export interface SheetAsTable {
  columns: string[];
  rows: number;
}

/** The tools a utility opens an export with; absent ones fail the test under CI (.ci/run installs them). */
async function available(command: string, args: string[]): Promise<boolean> {
  const found = await run(command, args).then(() => true, () => false);
  if (!found && process.env.CI) throw new Error(`${command} is not installed: the export is not read by it (.ci/run installs it)`);
  if (!found) console.warn(`${command} is not installed: the export is not read by it`);
  return found;
}

/**
 * An XLSX export as GDAL (ogrinfo), pandas (read_excel) and LibreOffice (converted to CSV) read it:
 * each must see the header as the column names and every other row as data.
 */
export async function readSpreadsheetElsewhere(xlsx: Buffer): Promise<Record<'gdal' | 'pandas' | 'libreoffice', SheetAsTable | null>> {
  const dir = await mkdtemp(join(tmpdir(), 'console-xlsx-'));
  const file = join(dir, 'export.xlsx');
  try {
    await writeFile(file, xlsx);
    let gdal: SheetAsTable | null = null;
    if (await available('ogrinfo', ['--version'])) {
      const { stdout } = await run('ogrinfo', ['-ro', '-al', '-so', file]);
      const rows = Number(stdout.match(/^Feature Count: (\d+)/m)?.[1] ?? NaN);
      const columns = [...stdout.matchAll(/^(\w+): (?:String|Integer|Integer64|Real|Date|DateTime)/gm)].map((m) => m[1]);
      gdal = { columns, rows };
    }
    let pandas: SheetAsTable | null = null;
    if (await available('/usr/bin/python3', ['-c', 'import pandas, openpyxl'])) {
      const script = 'import json, sys, pandas; f = pandas.read_excel(sys.argv[1]); print(json.dumps({"columns": [str(c) for c in f.columns], "rows": len(f)}))';
      pandas = JSON.parse((await run('/usr/bin/python3', ['-c', script, file])).stdout) as SheetAsTable;
    }
    let libreoffice: SheetAsTable | null = null;
    if (await available('soffice', ['--version'])) {
      // A profile of its own: a second LibreOffice (the user's, another test) must not share it.
      await run('soffice', [`-env:UserInstallation=file://${dir}/profile`, '--headless', '--convert-to', 'csv', '--outdir', dir, file], { timeout: 120_000 });
      const lines = (await readFile(join(dir, 'export.csv'), 'utf8')).trim().split(/\r?\n/);
      libreoffice = { columns: lines[0].split(','), rows: lines.length - 1 };
    }
    return { gdal, pandas, libreoffice };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

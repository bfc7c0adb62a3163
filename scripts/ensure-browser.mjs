// Runs first in `npm test`: the browser tests drive Debian's Chromium (no browser download), and
// the report tests read PDFs that embed Debian's CJK font (fonts-wqy-microhei, REPORT_FONT's
// default). Where one is missing, it is installed with apt-get when running as root; otherwise the
// run stops here, before any test, with the one command to run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const browser = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const font = process.env.REPORT_FONT ?? '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';
const browserWorks = () => existsSync(browser) && spawnSync(browser, ['--version'], { stdio: 'ignore' }).status === 0;

const packages = [...(browserWorks() ? [] : ['chromium']), ...(existsSync(font) ? [] : ['fonts-wqy-microhei'])];
if (packages.length) {
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (process.env.CHROME_PATH || process.env.REPORT_FONT || !isRoot || !hasApt) {
    console.error(`The tests need ${!browserWorks() ? `Chromium at ${browser}` : ''}${packages.length === 2 ? ' and ' : ''}${existsSync(font) ? '' : `a CJK font at ${font}`}, missing here.`);
    console.error(process.env.CHROME_PATH || process.env.REPORT_FONT ? 'Point CHROME_PATH at a Chromium binary and REPORT_FONT at a TrueType font with Chinese letters.' : `Install them, then run npm test again:\n\n  sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}\n`);
    process.exit(1);
  }
  console.log(`Missing: installing Debian's ${packages.join(' and ')} (apt-get)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
  if (!browserWorks()) {
    console.error(`Chromium was installed but ${browser} does not run.`);
    process.exit(1);
  }
}
console.log(`Browser for the tests: ${execFileSync(browser, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim()}; report font: ${font}`);

// Runs first in `npm test`: the browser tests drive Debian's Chromium (no browser download).
// Where it is missing, it is installed with apt-get when running as root; otherwise the run
// stops here, before any test, with the one command to run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const browser = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const works = () => existsSync(browser) && spawnSync(browser, ['--version'], { stdio: 'ignore' }).status === 0;

if (!works()) {
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (process.env.CHROME_PATH || !isRoot || !hasApt) {
    console.error(`The browser tests need Chromium at ${browser}, and it is not there.`);
    console.error(process.env.CHROME_PATH ? 'Point CHROME_PATH at a Chromium binary.' : 'Install it, then run npm test again:\n\n  sudo apt-get update && sudo apt-get install -y chromium\n');
    process.exit(1);
  }
  console.log('Chromium is missing: installing Debian\'s chromium package (apt-get)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  if (!works()) {
    console.error(`Chromium was installed but ${browser} does not run.`);
    process.exit(1);
  }
}
console.log(`Browser for the tests: ${execFileSync(browser, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim()}`);

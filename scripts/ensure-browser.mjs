// Runs first in `npm test`: the browser tests drive Debian's Chromium (no browser download), the
// report tests read PDFs that embed Debian's CJK font (fonts-wqy-microhei, REPORT_FONT's default),
// and the sensor tests talk to a real Mosquitto (Debian's mosquitto, on MQTT_TEST_URL or
// 127.0.0.1:1883, started here when it is not running). Where one is missing, it is installed with
// apt-get when running as root; otherwise the run stops here, before any test, with the command to run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';

const browser = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const font = process.env.REPORT_FONT ?? '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';
const browserWorks = () => existsSync(browser) && spawnSync(browser, ['--version'], { stdio: 'ignore' }).status === 0;

const hasMosquitto = () => spawnSync('mosquitto', ['-h'], { stdio: 'ignore' }).error === undefined;
const packages = [...(browserWorks() ? [] : ['chromium']), ...(existsSync(font) ? [] : ['fonts-wqy-microhei']), ...(hasMosquitto() ? [] : ['mosquitto'])];
if (packages.length) {
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (process.env.CHROME_PATH || process.env.REPORT_FONT || !isRoot || !hasApt) {
    console.error(`The tests need Debian's ${packages.join(', ')}, missing here (${[!browserWorks() && `Chromium at ${browser}`, !existsSync(font) && `a CJK font at ${font}`, !hasMosquitto() && 'the mosquitto broker'].filter(Boolean).join('; ')}).`);
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

// The sensor tests' broker: the machine's Mosquitto, started (as a daemon, its default local-only
// listener) when nothing answers on its port.
const broker = new URL(process.env.MQTT_TEST_URL ?? 'mqtt://127.0.0.1:1883');
const answers = () =>
  new Promise((resolve) => {
    const socket = connect({ host: broker.hostname, port: Number(broker.port || 1883) }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
if (!(await answers())) {
  const config = '/etc/mosquitto/mosquitto.conf';
  console.log(`No MQTT broker at ${broker.host}: starting Mosquitto${existsSync(config) ? ` (${config})` : ''}...`);
  spawnSync('mosquitto', ['-d', ...(existsSync(config) ? ['-c', config] : ['-p', String(broker.port || 1883)])], { stdio: 'inherit' });
  for (let i = 0; i < 50 && !(await answers()); i++) await new Promise((r) => setTimeout(r, 100));
  if (!(await answers())) {
    console.error(`Mosquitto did not start on ${broker.host}; start it (mosquitto -d) or set MQTT_TEST_URL, then run npm test again.`);
    process.exit(1);
  }
}
console.log(`MQTT broker for the tests: ${broker.host}`);

import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium unless CHROMIUM_PATH names another build (`.ci/run` installs it when missing). */
const EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * A headless Chromium with a fresh profile (Playwright makes a temporary user-data-dir for every
 * launch) that reaches nothing but the servers a test starts: no updates, sync or QUIC probes.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: EXECUTABLE,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

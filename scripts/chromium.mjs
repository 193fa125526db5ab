// Chromium as every browser run of this repository drives it: the e2e suite (e2e/playwright.config.ts),
// `npm run screenshots` and `npm run bench:web`. One list of flags, so a flag one of them needs (say,
// on a new CI image) reaches all three. Typed for the e2e workspace by chromium.d.mts beside it.

export const chromiumLaunchOptions = {
  // The system's Chromium: Playwright's own browser download is not installed here.
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    // Containers and CI run as root, where Chromium's sandbox cannot start.
    '--no-sandbox',
    '--disable-gpu',
    // No traffic of the browser's own (updates, sync, first-run pages) beside what the page fetches:
    // the bench counts the page's requests, and none of the runs may wait on the internet.
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

/**
 * Waits, at most 3 s, until no finite animation or transition runs; endless ones (spinners) do not
 * count. A toast caught half faded is neither a fair picture nor a fair contrast check (axe failed
 * color-contrast once that way). Still moving after 3 s: the caller goes on with the page as it is.
 */
export async function animationsSettled(page) {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      undefined,
      { timeout: 3000 },
    )
    .catch(() => {});
}

/**
 * Stores the console session the sign-in screen would store (docs/product.md §3.1), so a run opens
 * signed-in screens without typing the password. `session` is the login answer's data.
 */
export async function storeConsoleSession(page, baseUrl, session, timeZone) {
  // localStorage belongs to the origin: open a page of it first (the health check is the lightest).
  await page.goto(`${baseUrl}/api/health`);
  await page.evaluate(
    ([token, details, zone]) =>
      localStorage.setItem(
        'auth',
        JSON.stringify({
          details: { ...details, token, timeZone: zone },
          toggle: true,
          deviceDetail: {},
          userDetails: details,
        }),
      ),
    [session.accessToken, session.admin, timeZone],
  );
}

/**
 * How Orrery's browser tests and benchmarks start Chromium: Debian's package (never a downloaded
 * browser), headless as root, with the background services that would reach the network turned off.
 *
 * Headless Chromium (the "new" headless, a whole browser) builds each window's own address bar
 * popup, a WebUI page of some hundred modules, in a renderer of its own: every fresh browser
 * context of a bench paid it (about 350 ms of a 2-core machine's CPU while the page under test
 * loaded; bench/console's sign-in to a usable list, alternating the two launches in one run: median
 * 1,680 ms with it, 1,144 ms without, on a loaded machine). A person's browser built it once when it
 * started, so the benches and e2e tests turn it off.
 *
 * Chromium keeps the last --disable-features it is given, and Playwright passes its own list first:
 * so this one names Playwright's (1.65's chromiumSwitches) too.
 */
const playwrightDisabledFeatures = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
];
const addressBarPopup = ["WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup"];

export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    `--disable-features=${[...playwrightDisabledFeatures, ...addressBarPopup].join(",")}`,
  ],
};

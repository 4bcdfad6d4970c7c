/**
 * How Orrery's browser tests and benchmarks start Chromium: Debian's package (never a downloaded
 * browser), headless as root, with the background services that would reach the network turned off.
 */
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
  ],
};

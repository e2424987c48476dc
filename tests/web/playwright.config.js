// SPDX-License-Identifier: MIT
// The browser tests of the web client (tests/web/*.spec.js), run by
// tests/web/run.sh from `make test`: Debian's chromium, headless, one worker;
// each test file starts its own `figaro serve` (server.js).
import { defineConfig } from "@playwright/test";
import fs from "node:fs";

const chromium = ["/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium", "/usr/bin/chromium"]
    .find((p) => fs.existsSync(p));

export default defineConfig({
    testDir: ".",
    testMatch: "*.spec.js",
    workers: 1,
    fullyParallel: false,
    retries: 0,
    timeout: 120000,
    expect: { timeout: 15000 },
    reporter: [["list"]],
    outputDir: process.env.WEB_ARTIFACTS ? process.env.WEB_ARTIFACTS + "/results" : "../../build/test/web-artifacts/results",
    use: {
        headless: true,
        launchOptions: { executablePath: chromium, args: ["--no-sandbox"] },
        viewport: { width: 1280, height: 800 },
        // A click that waits this long waits for a button that stays disabled:
        // fail naming it, rather than when the whole test runs out of time.
        actionTimeout: 60000,
        trace: "retain-on-failure",
    },
});

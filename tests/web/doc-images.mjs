// SPDX-License-Identifier: MIT
// doc-images.mjs - the README's pictures of a table, taken in a real game
// with Debian's chromium: docs/img/table-phone.png (360x640, a card chosen:
// the lit seats say what it would do), docs/img/table-phone-hint.png (a hint
// at a table that allows them) and docs/img/table-desktop.png:
//   FIGARO=build/figaro node tests/web/doc-images.mjs
// (then optionally pngquant them). Not a test: it only takes the pictures.
import { chromium } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { startServer, ROOT } from "./server.js";
import { createTable, playTurn, rng, handSize } from "./helpers.js";

const exe = ["/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium"]
    .find((p) => fs.existsSync(p)) ||
    "/usr/lib/chromium/chromium";
const srv = await startServer();
const browser = await chromium.launch({ executablePath: exe, args: ["--no-sandbox"] });
try {
    for (const [name, w, h, hint] of [["desktop", 1280, 800, false], ["phone", 360, 640, false],
                                      ["phone-hint", 360, 640, true]]) {
        const ctx = await browser.newContext({ viewport: { width: Number(w), height: Number(h) },
                                               reducedMotion: "reduce", hasTouch: Number(w) < 600 });
        const page = await ctx.newPage();
        await createTable(page, srv.url, "Ann", ["bot:easy", "bot:easy", "bot:easy"]);
        const rnd = rng(5);
        for (let i = 0; i < 200 && ((await handSize(page)) > 9 ||
                                    (await page.locator(".pile .card").count()) < 3); i++)
            if (!(await playTurn(page, rnd))) await page.waitForTimeout(100);
        await page.locator(".hand.mine").waitFor();
        if (hint) {
            await page.click(".action-bar .hint-btn");
            await page.locator(".hint-panel").waitFor();
        } else {
            await page.locator(".hand button.card.playable:not(.c-ring)").last().click();
        }
        await page.waitForTimeout(300);
        await page.screenshot({ path: path.join(ROOT, "docs", "img", `table-${name}.png`) });
        await ctx.close();
    }
} finally {
    await browser.close();
    await srv.stop();
}

// SPDX-License-Identifier: MIT
// doc-images.mjs - the README's pictures of a table, taken in a real game
// with Debian's chromium: docs/img/table-phone.png (360x640, a card chosen:
// the lit seats say what it would do), docs/img/table-phone-hint.png (a hint
// at a table that allows them), docs/img/table-desktop.png, and a newcomer's
// path at 360x640: docs/img/home-phone.png (the first screen),
// docs/img/learn-phone.png (a lesson's move refused, with the engine's reason)
// and docs/img/aid-phone.png (the player aid over a table):
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
    const phone = { viewport: { width: 360, height: 640 }, reducedMotion: /** @type {const} */ ("reduce"),
                    hasTouch: true, locale: "en" };
    const shot = (/** @type {import("@playwright/test").Page} */ page, /** @type {string} */ name) =>
        page.screenshot({ path: path.join(ROOT, "docs", "img", `${name}-phone.png`) });
    const ctx = await browser.newContext(phone);
    const page = await ctx.newPage();
    await page.goto(srv.url);
    await page.locator(".learn-btn").waitFor();
    await shot(page, "home");
    // The colours lesson: blue is Rosina's, so the blue 2 in front of Basilio is refused.
    await page.goto(srv.url + "#/learn/colours");
    await page.locator("[data-focus=begin]").tap();
    await page.locator('.hand button.card[data-card="B2"]').tap();
    await page.locator('.target-btn[data-seat="3"]').tap();
    await page.locator(".why-panel").waitFor();
    await shot(page, "learn");
    await ctx.close();
    const ctx2 = await browser.newContext(phone);
    const page2 = await ctx2.newPage();
    await page2.goto(srv.url);
    await page2.locator(".play-now").tap();
    await page2.locator(".hand.mine").waitFor();
    await page2.locator(".rules-btn").tap();
    await page2.locator("dialog.rules-sheet").waitFor();
    await page2.waitForTimeout(300);
    await shot(page2, "aid");
    await ctx2.close();
} finally {
    await browser.close();
    await srv.stop();
}

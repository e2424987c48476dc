// doc-images.mjs - the README's pictures of a table (docs/img/table-phone.png,
// docs/img/table-desktop.png), taken in a real game with Debian's chromium:
//   FIGARO=build/figaro node tests/web/doc-images.mjs
// (then optionally pngquant them). Not a test: it only takes the pictures.
import { chromium } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { startServer, ROOT } from "./server.js";
import { createTable, playTurn, rng } from "./helpers.js";

const exe = ["/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium"]
    .find((p) => fs.existsSync(p)) ||
    "/usr/lib/chromium/chromium";
const srv = await startServer();
const browser = await chromium.launch({ executablePath: exe, args: ["--no-sandbox"] });
try {
    for (const [name, w, h] of [["desktop", 1280, 800], ["phone", 360, 640]]) {
        const ctx = await browser.newContext({ viewport: { width: Number(w), height: Number(h) },
                                               reducedMotion: "reduce" });
        const page = await ctx.newPage();
        await createTable(page, srv.url, "Ann", ["bot:easy", "bot:easy", "bot:easy"]);
        const rnd = rng(5);
        for (let i = 0; i < 200 && ((await page.locator(".hand .card").count()) > 9 ||
                                    (await page.locator(".pile .card").count()) < 3); i++)
            if (!(await playTurn(page, rnd))) await page.waitForTimeout(100);
        await page.locator(".hand.mine").waitFor();
        await page.locator(".hand button.card.playable:not(.c-ring)").last().click();
        await page.waitForTimeout(300);
        await page.evaluate(() => {
            const ring = document.querySelector(".ring");
            if (ring && window.innerWidth < 600) window.scrollTo(0, ring.getBoundingClientRect().top + window.scrollY - 70);
        });
        await page.screenshot({ path: path.join(ROOT, "docs", "img", `table-${name}.png`) });
        await ctx.close();
    }
} finally {
    await browser.close();
    await srv.stop();
}

// SPDX-License-Identifier: MIT
// How the table looks: in each language with no untranslated string, at a
// phone's 360x640 and a desktop's 1280x800 with no horizontal overflow and no
// two seats overlapping (checked on the boxes), screenshots kept as test
// artifacts (build/test/web-artifacts), and an accessibility scan (axe) with
// no serious or critical violation.
import { test, expect } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import path from "node:path";
import { startServer, ARTIFACTS } from "./server.js";
import { createTable, layoutProblems } from "./helpers.js";

/** @type {Awaited<ReturnType<typeof startServer>>} */
let srv;
test.beforeAll(async () => { srv = await startServer(); });
test.afterAll(async () => { await srv.stop(); });

// Each language with another number of players: every table shape is drawn.
const CASES = [["en", 6], ["fr", 3], ["nl", 4], ["it", 5]];
// The table page's load: the bytes a phone receives, and the bytes it
// decodes and parses (docs/browser.md says what they were when set).
const WIRE_BUDGET = 80 * 1024;
const DECODED_BUDGET = 300 * 1024;
const ENGLISH = ["What happened", "Your hand", "Round 1 of 3", "cards in hand", "Language"];

for (const [lang, players] of CASES) {
    test(`the table in ${lang} with ${players} players`, async ({ browser }) => {
        // Without the service worker: what it hands the page came decoded
        // (its entries' encodedBodySize is the decoded size), while the
        // network's bytes are those of a first visit, measured here.
        const ctx = await browser.newContext({ locale: lang, reducedMotion: "reduce", serviceWorkers: "block" });
        const page = await ctx.newPage();
        /** @type {string[]} */
        const errors = [];
        page.on("pageerror", (e) => errors.push(e.message));
        // Every request goes to the server itself; the page's text comes gzip
        // (the build's copies, sent by the server: a file without it is named).
        /** @type {string[]} */
        const foreign = [];
        /** @type {string[]} */
        const plain = [];
        const origin = new URL(srv.url).host;
        page.on("request", (r) => { if (new URL(r.url()).host !== origin) foreign.push(r.url()); });
        page.on("response", (r) => {
            const p = new URL(r.url()).pathname;
            if (r.status() === 200 && /(\/|\.(html|js|css|json|svg|webmanifest))$/.test(p) &&
                r.headers()["content-encoding"] !== "gzip") plain.push(p);
        });
        page.on("websocket", (ws) => { if (new URL(ws.url()).host !== origin) foreign.push(ws.url()); });
        const others = Array.from({ length: Number(players) - 1 }, () => "bot:random");
        await page.goto(srv.url);
        await expect(page.locator("html")).toHaveAttribute("lang", String(lang));   // the browser's language
        await createTable(page, srv.url, "Ann", others);
        await expect(page.locator(".hand .card").first()).toBeVisible();
        await expect(page.locator(".seat")).toHaveCount(Number(players));
        await expect(page.locator(".log p").first()).toBeVisible();
        expect(await page.evaluate(() => /** @type {any} */ (window).figaroMissing())).toEqual([]);
        if (lang !== "en") {
            const text = await page.locator("body").innerText();
            for (const en of ENGLISH) expect(text).not.toContain(en);
        }
        for (const [w, h] of [[360, 640], [1280, 800]]) {
            await page.setViewportSize({ width: w, height: h });
            await page.waitForTimeout(150);
            const { problems, seats } = await layoutProblems(page);
            expect(seats).toBe(Number(players));
            expect(problems).toEqual([]);
            await page.screenshot({ path: path.join(ARTIFACTS, `table-${lang}-${players}p-${w}x${h}.png`),
                                    fullPage: w < 400 });
        }
        if (lang === "en") {
            const axe = await new AxeBuilder({ page }).analyze();
            const bad = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
            expect(bad.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "))).toEqual([]);
        }
        expect(errors).toEqual([]);
        expect(foreign).toEqual([]);
        expect(plain, "sent without gzip (make webgz: a copy older than its file is not sent)").toEqual([]);
        // The bytes of every file of this page's load (the page, scripts,
        // style, words): as they came over the wire (what a phone pays for),
        // and decoded (what it parses), each under its budget (docs/browser.md).
        const { wire, decoded } = await page.evaluate(() => performance.getEntriesByType("navigation")
            .concat(performance.getEntriesByType("resource"))
            .map((e) => /** @type {PerformanceResourceTiming} */ (e))
            .reduce((n, e) => ({ wire: n.wire + e.encodedBodySize, decoded: n.decoded + e.decodedBodySize }),
                    { wire: 0, decoded: 0 }));
        console.log(`page weight ${lang}: ${wire} bytes over the wire, ${decoded} decoded`);
        expect(decoded).toBeGreaterThan(50000);        // it did count the files
        expect(wire).toBeLessThan(decoded / 2);        // they did come compressed
        expect(wire).toBeLessThan(WIRE_BUDGET);
        expect(decoded).toBeLessThan(DECODED_BUDGET);
        await ctx.close();
    });
}

test("the home page: switching language, and the accessibility scan", async ({ page }) => {
    await page.goto(srv.url);
    await expect(page.locator("#name")).toBeVisible();
    const axe = await new AxeBuilder({ page }).analyze();
    const bad = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(bad.map((v) => v.id)).toEqual([]);
    await page.selectOption("#lang", "nl");
    await expect(page.locator("html")).toHaveAttribute("lang", "nl");
    expect(await page.evaluate(() => /** @type {any} */ (window).figaroMissing())).toEqual([]);
    await page.setViewportSize({ width: 360, height: 640 });
    expect((await layoutProblems(page)).problems).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, "home-nl-360x640.png"), fullPage: true });
});

// SPDX-License-Identifier: MIT
// The page's menus are the server's lists: the levels of the bots (a seat's
// and the one that plays for someone away) and the languages are built from
// what `welcome` sent (src/ai/bot.c's and src/host/lang.c's tables), with
// the levels' names in the reader's language; beginner is among them.
import { readFileSync } from "node:fs";
import { test, expect } from "@playwright/test";
import { startServer } from "./server.js";
import { openForm } from "./helpers.js";

/** @type {Awaited<ReturnType<typeof startServer>>} */
let srv;
test.beforeAll(async () => { srv = await startServer(); });
test.afterAll(async () => { await srv.stop(); });

/** The first `welcome` the page receives. @param {import("@playwright/test").Page} page */
function welcomeOf(page) {
    return new Promise((resolve) => {
        page.on("websocket", (ws) => {
            ws.on("framereceived", (f) => {
                try {
                    const m = JSON.parse(String(f.payload));
                    if (m.type === "welcome") resolve(m);
                } catch {
                    // not JSON: not the welcome
                }
            });
        });
    });
}

/** A message's translation in po/LANG.po (the catalogues' one source), or
 * undefined. @param {string} lang @param {string} msgid */
function poMsgstr(lang, msgid) {
    const po = readFileSync(new URL(`../../po/${lang}.po`, import.meta.url), "utf8");
    const m = po.match(new RegExp(`^msgid ${JSON.stringify(msgid)}\nmsgstr "(.*)"$`, "m"));
    return m ? m[1] : undefined;
}

/** Each option of a select as [value, text]. @param {import("@playwright/test").Page} page @param {string} sel */
function options(page, sel) {
    return page.locator(sel + " option").evaluateAll((os) =>
        os.map((o) => [/** @type {HTMLOptionElement} */ (o).value, (o.textContent || "").trim()]));
}

test("the level and language menus are those of welcome", async ({ browser }) => {
    const ctx = await browser.newContext({ locale: "fr" });
    const page = await ctx.newPage();
    const welcome = /** @type {Promise<any>} */ (welcomeOf(page));
    await page.goto(srv.url);
    const w = await welcome;
    expect(w.levels).toContain("beginner");
    expect(w.levels).toEqual(["random", "beginner", "easy", "normal", "hard", "max"]);
    expect(w.default_level).toBe("normal");
    expect(w.languages.map((/** @type {any} */ l) => l.code)).toEqual(["en", "fr", "nl", "it"]);

    // The languages, each named in itself.
    await expect(page.locator("#lang option")).toHaveCount(w.languages.length);
    expect(await options(page, "#lang")).toEqual(w.languages.map((/** @type {any} */ l) => [l.code, l.name]));
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");

    // The level that plays for someone away, and each seat's bots.
    await expect(page.locator("#fill option")).toHaveCount(w.levels.length);
    const fill = await options(page, "#fill");
    expect(fill.map(([v]) => v)).toEqual(w.levels);
    expect(fill.find(([v]) => v === "beginner")).toEqual(["beginner", "débutant"]);
    // Every level the server sends is shown as po/fr.po translates it: the
    // page's catalogue takes the level names from the C sources that name them.
    expect(fill).toEqual(w.levels.map((/** @type {string} */ l) => [l, poMsgstr("fr", l)]));
    await expect(page.locator("#fill")).toHaveValue(w.default_level);
    const seat = await options(page, "#seat-2");
    expect(seat.filter(([v]) => v.startsWith("bot:")).map(([v]) => v.slice(4))).toEqual(w.levels);
    await expect(page.locator("#seat-2")).toHaveValue("bot:" + w.default_level);

    // A table with a beginner, and a beginner for the absent.
    await page.fill("#name", "Ann");
    await openForm(page);
    await page.selectOption("#seat-2", "bot:beginner");
    await page.selectOption("#fill", "beginner");
    await page.click("form.create button[type=submit]");
    await expect(page).toHaveURL(/#\/t\/[A-Z0-9]{6}$/);
    expect(await page.evaluate(() => /** @type {any} */ (window).figaroMissing())).toEqual([]);
    await ctx.close();
});

// SPDX-License-Identifier: MIT
// How to play and Play now, at a phone's 360x640: the rules sheet in each
// language with the published edition's words (the text of `figaro rules`,
// written by the build to web/rules/LANG.json), an anchor per rule and the
// page's "R13" linking there, cards drawn as at the table; opened at the
// table without losing the game; "Play now" starting a game against gentle
// bots with hints in one tap; no horizontal overflow; axe clean; readable
// offline once the page is installed.
import { test, expect } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { startServer, figaro, ROOT, ARTIFACTS } from "./server.js";
import { createTable, playTurn, rng, underWorker } from "./helpers.js";

/** @type {Awaited<ReturnType<typeof startServer>>} */
let srv;
test.beforeAll(async () => { srv = await startServer(); });
test.afterAll(async () => { await srv.stop(); });

const PHONE = { width: 360, height: 640 };

// The editions' words for the jester and the ring (po/*.po's header notes).
const WORDS = { en: ["jester", "ring"], fr: ["jongleur", "ronde"], nl: ["nar", "rondedans"], it: ["giullare", "girotondo"] };

/** Nothing beyond the width, in the page and in the open sheet.
 * @param {import("@playwright/test").Page} page */
async function overflow(page) {
    return page.evaluate(() => {
        const out = [];
        const w = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth > w) out.push("page " + document.documentElement.scrollWidth);
        for (const el of document.querySelectorAll("dialog[open], dialog[open] *")) {
            const r = el.getBoundingClientRect();
            if (r.width && (r.right > w + 0.5 || r.left < -0.5)) out.push(el.tagName + "." + el.className + " " + r.left + "-" + r.right);
        }
        return out;
    });
}

/** What keeps the open sheet's player aid from being one screen: text to
 * scroll (the body's scrollHeight against its clientHeight, and the sheet
 * within the window), text under 14 px. @param {import("@playwright/test").Page} page */
async function aidProblems(page) {
    return page.evaluate(() => {
        const out = [];
        const body = /** @type {HTMLElement} */ (document.querySelector("dialog[open] .rules-body.aid"));
        if (!body) return ["no player aid open"];
        if (body.scrollHeight > body.clientHeight) out.push("scrolls " + (body.scrollHeight - body.clientHeight) + " px");
        const sheet = /** @type {HTMLElement} */ (body.closest("dialog"));
        if (sheet.getBoundingClientRect().bottom > window.innerHeight + 0.5 || sheet.getBoundingClientRect().top < -0.5)
            out.push("the sheet leaves the window");
        for (const el of body.querySelectorAll("p, li")) {
            const px = parseFloat(getComputedStyle(el).fontSize);
            if (px < 14) out.push((el.textContent || "").slice(0, 20) + ": " + px + " px");
        }
        return out;
    });
}

/** @param {import("@playwright/test").Page} page */
async function axeProblems(page) {
    const axe = await new AxeBuilder({ page }).analyze();
    return axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
}

for (const [lang, words] of Object.entries(WORDS)) {
    test(`how to play in ${lang}: the first screen, the edition's words, an anchor per rule, the player aid`, async ({ browser }) => {
        const ctx = await browser.newContext({ locale: lang, viewport: PHONE, reducedMotion: "reduce" });
        const page = await ctx.newPage();
        /** @type {string[]} */
        const errors = [];
        page.on("pageerror", (e) => errors.push(e.message));
        await page.goto(srv.url);
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        // Both doors in the first screen.
        for (const sel of [".play-now", ".how-to-play"]) {
            const box = await page.locator(sel).boundingBox();
            expect(box && box.y + box.height).toBeLessThanOrEqual(PHONE.height);
        }
        await page.click(".how-to-play");
        const sheet = page.locator("dialog.rules-sheet");
        await expect(sheet).toBeVisible();
        await expect(sheet.locator("[data-rules=rules]")).toHaveAttribute("aria-pressed", "true");
        // The terminal's text, word for word: `figaro rules --json` is its source.
        const text = JSON.parse(execFileSync(figaro(), ["rules", "--json", "--lang", lang]).toString());
        await expect(sheet.locator(".rules-title")).toHaveText(text.rules[0].text);
        await expect(sheet.locator(".rules-body > p").first()).toHaveText(text.rules[1].text);   // the goal first
        const body = (await sheet.locator(".rules-body").innerText()).toLowerCase();
        for (const w of words) expect(body).toMatch(new RegExp("(^|[^\\p{L}])" + w + "($|[^\\p{L}])", "u"));
        // An anchor for each rule, R1 to R14; cards drawn as the table draws them.
        for (let k = 1; k <= 14; k++) await expect(sheet.locator("#sheet-rule-R" + k)).toHaveCount(1);
        expect(await sheet.locator(".rules-body .card").count()).toBeGreaterThan(8);
        expect(await overflow(page)).toEqual([]);
        expect(await axeProblems(page)).toEqual([]);
        await page.screenshot({ path: path.join(ARTIFACTS, `rules-${lang}-360x640.png`) });
        // The player aid: one screen, nothing to scroll, its text at 14 px at least.
        await sheet.locator("[data-rules=aid]").click();
        await expect(sheet.locator(".rules-title")).toHaveText(text.aid[0].text);
        expect(await aidProblems(page)).toEqual([]);
        await page.screenshot({ path: path.join(ARTIFACTS, `aid-${lang}-360x640.png`) });
        // At the table on the person's turn the close button says the turn
        // waits (the line the table gives the sheet): still one screen.
        await page.evaluate(async () => {
            const [rules, i18n] = await Promise.all([import("./rules.js"), import("./i18n.js")]);
            rules.rulesStatus(i18n._("Your turn: close this to play."));
        });
        await expect(sheet.locator(".rules-close")).toHaveClass(/primary/);
        expect(await aidProblems(page)).toEqual([]);
        expect(await axeProblems(page)).toEqual([]);
        await page.evaluate(async () => (await import("./rules.js")).rulesStatus(null));
        expect(await overflow(page)).toEqual([]);
        await sheet.locator(".rules-close").click();
        await expect(sheet).toBeHidden();
        expect(await page.evaluate(() => /** @type {any} */ (window).figaroMissing())).toEqual([]);
        expect(errors).toEqual([]);
        await ctx.close();
    });
}

test("a rule's number links to its rule: the ranking's R13, and #/rules/R13", async ({ browser }) => {
    const ctx = await browser.newContext({ viewport: PHONE, reducedMotion: "reduce" });
    const page = await ctx.newPage();
    await page.goto(srv.url);
    await page.setInputFiles("#fgn-file", path.join(ROOT, "tests", "cases", "finished-4p.fgn"));
    await page.click("[data-step=end]");
    const link = page.locator(".ranking .rule-link", { hasText: "R13" });
    await expect(link).toBeVisible();
    await link.click();
    const sheet = page.locator("dialog.rules-sheet");
    await expect(sheet).toBeVisible();
    await expect(sheet.locator("#sheet-rule-R13")).toBeInViewport();
    await sheet.locator(".rules-close").click();
    await expect(page.locator("[data-step=end]")).toBeDisabled();   // the replay, where it was
    // The rules as a page of their own, at a rule.
    await page.goto(srv.url + "#/rules/R12");
    await expect(page.locator("#rule-R12")).toBeInViewport();
    await page.goto(srv.url + "#/rules/aid");
    await expect(page.locator(".rules-page .rules-title")).toBeVisible();
    expect(await overflow(page)).toEqual([]);
    await ctx.close();
});

test("play now tapped before the server's welcome: the page says it is connecting, then starts the game", async ({ browser }) => {
    const ctx = await browser.newContext({ viewport: PHONE, reducedMotion: "reduce" });
    const page = await ctx.newPage();
    // A slow connection: the server's first frames reach the page only once the tap is made.
    /** @type {string[]} */
    const held = [];
    let release = () => {};
    const tapped = new Promise((r) => { release = () => r(undefined); });
    await page.routeWebSocket(/\/ws/, (ws) => {
        const server = ws.connectToServer();
        let open = false;
        server.onMessage((text) => {
            if (open) ws.send(String(text));
            else held.push(String(text));
        });
        tapped.then(() => { open = true; for (const t of held.splice(0)) ws.send(t); });
    });
    await page.goto(srv.url);
    await expect(page.locator(".play-now")).toBeVisible();
    await page.click(".play-now");
    await expect(page.locator(".home .notice")).toHaveText("Connecting to the server…");
    release();
    await expect(page.locator(".table-title .code")).toHaveText(/^[A-Z0-9]{6}$/);
    await expect(page.locator(".seat")).toHaveCount(4);
    await expect(page.locator(".seat .tag", { hasText: "bot: beginner" })).toHaveCount(3);
    await ctx.close();
});

test("play now: one tap, a game of four against beginner bots with hints; the rules open over the table and keep it", async ({ browser }) => {
    const ctx = await browser.newContext({ viewport: PHONE, reducedMotion: "reduce" });
    const page = await ctx.newPage();
    await page.goto(srv.url);
    await expect(page.locator("form.create")).toBeHidden();   // the full form, folded
    // the server's welcome is in (its levels fill the folded form): Play now has levels to ask for
    await expect(page.locator("#fill option")).not.toHaveCount(0);
    await page.click(".play-now");
    await expect(page.locator(".table-title .code")).toHaveText(/^[A-Z0-9]{6}$/);
    const code = await page.locator(".table-title .code").textContent();
    await expect(page.locator(".seat")).toHaveCount(4);
    await expect(page.locator(".seat.you")).toHaveCount(1);
    await expect(page.locator(".tag-hints")).toBeVisible();
    await expect(page.locator(".seat .tag", { hasText: "bot: beginner" })).toHaveCount(3);
    await expect(page.locator(".hand .card").first()).toBeVisible();
    // Wait for the person's turn (the bots play fast), then open the rules.
    await expect(page.locator(".hand.mine")).toBeVisible({ timeout: 30000 });
    const hand = await page.locator(".hand .card").count();
    await page.click(".rules-btn");
    const sheet = page.locator("dialog.rules-sheet");
    await expect(sheet).toBeVisible();
    await expect(sheet.locator("[data-rules=aid]")).toHaveAttribute("aria-pressed", "true");
    await expect(sheet.locator(".rules-status")).toHaveText("Your turn: close this to play.");
    // The way back says the turn waits, and the aid is still one screen.
    await expect(sheet.locator(".rules-close")).toHaveText("Your turn!");
    expect(await aidProblems(page)).toEqual([]);
    expect(await overflow(page)).toEqual([]);
    expect(await axeProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, "aid-at-table-360x640.png") });
    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
    // The same table, the same turn, the same hand: nothing was lost.
    await expect(page.locator(".table-title .code")).toHaveText(code || "");
    await expect(page.locator(".hand.mine")).toBeVisible();
    await expect(page.locator(".hand .card")).toHaveCount(hand);
    await ctx.close();
});

test("how to play reads offline once the page is installed", async ({ browser }) => {
    const ctx = await browser.newContext({ locale: "it", viewport: PHONE });
    const page = await ctx.newPage();
    await page.goto(srv.url);
    await expect(page.locator(".how-to-play")).toBeVisible();
    await underWorker(page, "rules/it.json");
    await expect(page.locator(".how-to-play")).toBeVisible();
    await ctx.setOffline(true);
    await page.reload();
    await page.click(".how-to-play");
    await expect(page.locator("dialog.rules-sheet .rules-body")).toContainText("girotondo");
    await ctx.setOffline(false);
    await ctx.close();
});

test("reasons: a first game's turn line says what is allowed, a card that can go nowhere says why in the engine's words without sending an act, a forced take says so, the round's end gives way to the lit seats", async ({ browser }) => {
    test.setTimeout(240000);
    const ctx = await browser.newContext({ viewport: PHONE, reducedMotion: "reduce" });
    const page = await ctx.newPage();
    /** @type {string[]} */
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // What the page sends (a question is no action: tapping a card sends no
    // `act`), and the last view and seats the server told it.
    /** @type {string[]} */
    const sent = [];
    /** @type {any} */
    const told = { view: null, seats: [] };
    page.on("websocket", (ws) => {
        ws.on("framesent", (f) => sent.push(JSON.parse(String(f.payload)).type));
        ws.on("framereceived", (f) => {
            const m = JSON.parse(String(f.payload));
            if (m.view) told.view = m.view;
            if (m.seats) told.seats = m.seats;
        });
    });
    const acts = () => sent.filter((t) => t === "act").length;
    const COLOURS = { R: "red", B: "blue", G: "green", Y: "yellow", P: "purple" };
    // Three players: a colour card can go nowhere only when every pile has another colour.
    await createTable(page, srv.url, "Ann", ["bot:random", "bot:random"]);
    const rnd = rng(45);
    const seen = { why: 0, first: 0, forced: 0, gaveWay: 0 };
    for (let turn = 0; turn < 400 && !(await page.locator(".ranking").count()); turn++) {
        if (!(await page.locator(".hand.mine").count())) {
            await page.waitForTimeout(100);
            continue;
        }
        try {
            const prompt = (await page.locator(".action-bar .prompt").textContent({ timeout: 2000 })) || "";
            if (/^Your turn: play one of the bright cards/.test(prompt)) seen.first++;
            if (await page.locator(".action-bar .must-take").count()) {
                await expect(page.locator(".action-bar .must-take")).toHaveText("No card of yours can be played: you must take (R5).");
                await expect(page.locator(".action-bar .must-take .rule-link")).toHaveText("R5");
                await expect(page.locator(".hand .card.playable")).toHaveCount(0);
                seen.forced++;
            }
            const stuck = page.locator(".hand.mine .card:not(.playable)");
            if (seen.why < 3 && await stuck.count()) {
                const card = await stuck.first().getAttribute("data-card");
                const before = acts();
                await stuck.first().click({ timeout: 2000, force: true });   // aria-disabled, yet tapped
                const panel = page.locator(".panels .why-panel");
                await expect(panel).toBeVisible();
                // One reason per seat, from the rules (R6): its pile has
                // another colour, and no pile has the card's.
                const v = told.view;
                const want = v.piles.map((/** @type {any} */ p, /** @type {number} */ t) =>
                    `${card} cannot go in front of ${t === v.seat ? "you" : told.seats[t].name}: that pile is ${COLOURS[/** @type {"R"} */ (p.colour)]}.`);
                await expect(panel.locator("li")).toHaveText(want, { timeout: 5000 });
                expect(acts()).toBe(before);   // the page asked nothing with an action
                expect(await overflow(page)).toEqual([]);
                if (!seen.why) await page.screenshot({ path: path.join(ARTIFACTS, "why-360x640.png") });
                seen.why++;
            }
            const end = page.locator(".panels .round-end");
            const cards = page.locator(".hand .card.playable");
            if (await end.count() && await cards.count()) {
                await cards.first().click({ timeout: 2000 });
                await expect(end).toHaveCount(0);   // the lit seats show
                await expect(page.locator(".target-btn").first()).toBeVisible();
                seen.gaveWay++;
                await page.locator("[data-focus=unselect]").click({ timeout: 2000 });
                await expect(end).toHaveCount(1);   // back until closed
            }
        } catch (e) {
            if (process.env.WEB_DEBUG) console.log("reasons:", String(e).slice(0, 300));
            if (String(e).includes("expect(")) throw e;
        }
        await playTurn(page, rnd);
    }
    if (process.env.WEB_DEBUG) console.log("reasons seen:", JSON.stringify(seen));
    expect(seen.why).toBeGreaterThan(0);
    expect(seen.first).toBeGreaterThan(0);
    expect(seen.gaveWay).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await ctx.close();
});

// SPDX-License-Identifier: MIT
// Learn by playing, at a phone's 360x640: a newcomer opens the lessons from
// the home page's first screen and completes every lesson in each language,
// tapping the drawn cards and seats as at a table; a wrong move in each
// lesson answers with the engine's reason (the words of `figaro learn`); a
// lesson left resumes at its step after a reload; at every moment of every
// step (its words, the task, the hint, the seats lit, a refusal, the move
// told) no page scroll, nothing beyond the width, the seats within the table
// and none spilling, every seat and pile in the window with nothing over it,
// the hand and the buttons uncovered (helpers.js's measure); axe clean;
// readable offline once the page is installed; the last lesson offers the
// first game (four players, hints).
// The script reads the moves to make from `figaro learn --played` (the file
// the build writes for the page); the clicks are real taps on the page.
import { test, expect } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startServer, figaro, ROOT, ARTIFACTS } from "./server.js";
import { measure, underWorker } from "./helpers.js";

/** @type {Awaited<ReturnType<typeof startServer>>} */
let srv;
test.beforeAll(async () => { srv = await startServer(); });
test.afterAll(async () => { await srv.stop(); });

const PHONE = { width: 360, height: 640 };

/** The lessons played out, in a language, as the build writes them for the page.
 * @param {string} lang @returns {any} */
function lessons(lang) {
    return JSON.parse(execFileSync(figaro(), ["learn", "--played", "--lang", lang,
                                              "--lessons", path.join(ROOT, "lessons")]).toString());
}

/** What does not fit a phone's screen (helpers.js's measure, as for a game):
 * the page scrolling either way, an element beyond the width, a part of the
 * move out of sight or under a finger's size, the seats needing more height
 * than the table has or spilling out of their boxes, a seat or its pile out of
 * the window or under something else.
 * @param {import("@playwright/test").Page} page @param {string} [where] */
async function misfits(page, where = "") {
    const x = await measure(page);
    const out = [];
    if (x.scrollWidth > x.width) out.push("page width " + x.scrollWidth);
    if (x.scrollHeight > x.height) out.push("page height " + x.scrollHeight);
    out.push(...x.wide, ...x.unseen, ...x.small, ...x.covered, ...x.crowded, ...x.hidden);
    return out.map((o) => (where ? where + ": " : "") + o);
}

/** @param {import("@playwright/test").Page} page */
async function axeProblems(page) {
    const axe = await new AxeBuilder({ page }).analyze();
    return axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
}

/** Makes a move by tapping: the card of the hand, then the seat; or Take.
 * `lit` looks at the page while the seats are lit, before the seat's tap.
 * @param {import("@playwright/test").Page} page @param {string} action @param {number} you
 * @param {() => Promise<void>} [lit] */
async function tap(page, action, you, lit) {
    if (action === "take") {
        await page.locator(".action-bar button.take").tap();
        return;
    }
    const [card, seat] = action.split(">");
    await page.locator(`.hand button.card[data-card="${card}"]`).tap();
    const target = page.locator(`.target-btn[data-seat="${seat === undefined ? you : seat}"]`);
    if (lit) {
        await expect(target).toBeVisible();
        await lit();
    }
    await target.tap();
}

for (const lang of ["en", "fr", "nl", "it"]) {
    test(`a newcomer completes every lesson in ${lang}, a wrong move in each told why`, async ({ browser }) => {
        test.setTimeout(240000);
        const data = lessons(lang);
        const ctx = await browser.newContext({ locale: lang, viewport: PHONE, reducedMotion: "reduce", hasTouch: true });
        const page = await ctx.newPage();
        /** @type {string[]} */
        const errors = [];
        page.on("pageerror", (e) => errors.push(e.message));
        await page.goto(srv.url);
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        // The door in the first screen, beside How to play and Play now.
        const box = await page.locator(".learn-btn").boundingBox();
        expect(box && box.y + box.height).toBeLessThanOrEqual(PHONE.height);
        await page.locator(".learn-btn").tap();
        await expect(page.locator(".learn-list .lesson-item")).toHaveCount(data.lessons.length);
        expect(await misfits(page)).toEqual([]);
        expect(await axeProblems(page)).toEqual([]);
        await page.locator("[data-focus=learn-next]").tap();
        // What does not fit, at every step of every lesson (each of its
        // moments: its words, the task, the hint, the seats lit, the move
        // told, a refusal), gathered so that a run says all of them.
        /** @type {string[]} */
        const found = [];
        /** @param {string} where */
        const fit = async (where) => { found.push(...await misfits(page, where)); };
        for (const [i, l] of data.lessons.entries()) {
            await expect(page.locator(".lesson-panel h2")).toHaveText(l.title);
            await expect(page.locator(".lesson-panel")).toContainText(l.tell[0]);
            await fit(l.id + " intro");
            await page.locator("[data-focus=begin]").tap();
            // The lesson's wrong move: the first the engine refuses, at the first step that has one.
            const wrongAt = l.steps.findIndex((/** @type {any} */ s) =>
                Object.values(s.tries).some((/** @type {any} */ t) => t.verdict === "refused"));
            expect(wrongAt).toBeGreaterThanOrEqual(0);
            for (const [k, s] of l.steps.entries()) {
                const at = l.id + " step " + (k + 1);
                const lit = () => fit(at + " lit");
                if (s.tell.length) {
                    await expect(page.locator(".lesson-panel")).toContainText(s.tell[0]);
                    await fit(at + " told");   // the text leaves the seats in sight
                    await page.locator("[data-focus=panel-ok]").tap();
                }
                await expect(page.locator(".lesson-task")).toHaveText(s.task);
                await fit(at + " task");
                // The hint says the move in words (a take too), and leaves the seats in sight.
                if (k === 0 || s.answer === "take") {
                    await page.locator(".action-bar .hint-btn").tap();
                    await expect(page.locator(".lesson-panel")).toContainText(s.hint || s.task);
                    if (s.answer === "take") await expect(page.locator(".lesson-panel")).toContainText(/\d/);
                    expect(await page.locator(".lesson-panel").innerText()).not.toMatch(/\b(type|tapez|typ|digita)\b/i);
                    await fit(at + " hint");
                    await page.locator("[data-focus=panel-ok]").tap();
                }
                if (k === 0) {
                    expect(await axeProblems(page)).toEqual([]);
                    await page.screenshot({ path: path.join(ARTIFACTS, `learn-${lang}-${l.id}-360x640.png`) });
                }
                if (k === wrongAt) {
                    const [bad, t] = /** @type {[string, any]} */ (Object.entries(s.tries).find(([, t]) => t.verdict === "refused"));
                    await tap(page, bad, l.you, lit);
                    await expect(page.locator(".why-panel")).toContainText(t.why);
                    if (i === 1) await page.screenshot({ path: path.join(ARTIFACTS, `learn-${lang}-refused-360x640.png`) });
                    await fit(at + " refused");
                    if (i === 0) expect(await axeProblems(page)).toEqual([]);
                    await page.locator("[data-focus=panel-ok]").tap();
                    await expect(page.locator(".why-panel")).toHaveCount(0);
                }
                // A legal move this step does not ask for: its hint, and the step goes on.
                const other = Object.entries(s.tries).find(([, t]) => /** @type {any} */ (t).verdict === "hint");
                if (other && k === 0) {
                    await tap(page, other[0], l.you);
                    await expect(page.locator(".why-panel")).toContainText(s.hint || s.task);
                    await page.locator("[data-focus=panel-ok]").tap();
                }
                await tap(page, s.answer, l.you, lit);
                const told = s.tries[s.answer].told;
                await expect(page.locator(".lesson-panel")).toContainText(told[told.length - 1]);
                if (s.done) await expect(page.locator(".lesson-panel")).toContainText(s.done);
                // What the move did is in sight while it is told, until Next.
                await fit(at + " done");
                // The last step says the lesson's closing words; Next goes on to the next lesson.
                const last = i < data.lessons.length - 1 && k === l.steps.length - 1;
                if (last && l.end) await expect(page.locator(".lesson-panel")).toContainText(l.end);
                await page.locator("[data-focus=panel-ok]").tap();
            }
            await fit(l.id + " end");
        }
        if (found.length) await page.screenshot({ path: path.join(ARTIFACTS, `learn-${lang}-misfit-360x640.png`) });
        expect(found).toEqual([]);
        const final = data.lessons[data.lessons.length - 1];
        if (final.end) await expect(page.locator(".lesson-panel")).toContainText(final.end);
        await page.screenshot({ path: path.join(ARTIFACTS, `learn-end-${lang}-360x640.png`) });
        // Every word of the page in the language.
        expect(await page.evaluate(() => /** @type {any} */ (window).figaroMissing())).toEqual([]);
        // The last lesson ends on the first game; the list says every lesson is done.
        await expect(page.locator(".first-game")).toBeVisible();
        await page.goto(srv.url + "#/learn");
        await expect(page.locator(".learn-list .lesson-item.done")).toHaveCount(data.lessons.length);
        await expect(page.locator(".learn-list .first-game")).toBeVisible();
        if (lang === "en") {
            // The first game: as Play now, four players, the level the lessons name, hints on.
            await page.locator(".first-game").tap();
            await expect(page.locator(".seat.you")).toHaveCount(1);
            await expect(page.locator(".seat")).toHaveCount(data.first_game.players);
            await expect(page.locator(".tag-hints")).toHaveCount(1);
        }
        expect(errors).toEqual([]);
        await ctx.close();
    });
}

// How long a newcomer takes, counted as a person spends it: reading every
// word the page shows (the panels' and the task's, as they appear: what is
// folded is not read) at 200 words a minute, a conservative figure for adults
// reading silently (Brysbaert, "How many words do we read per minute? A
// review and meta-analysis of reading rate", Journal of Memory and Language
// 109, 2019: 238 words a minute for non-fiction in English), and 2 s for
// each tap (a card, a seat, a button: a decision each). The path is the one a
// newcomer takes who does what each task says; a wrong move in each lesson (a
// refusal read, then OK) is counted apart. docs/lessons.md gives the figures.
const WPM = 200;
const TAP_S = 2;

for (const lang of ["en", "fr", "nl", "it"]) {
    test(`a newcomer finishes the lessons in under five minutes in ${lang} (${WPM} words a minute, ${TAP_S} s a tap)`, async ({ browser }) => {
        test.setTimeout(180000);
        const data = lessons(lang);
        const ctx = await browser.newContext({ locale: lang, viewport: PHONE, reducedMotion: "reduce", hasTouch: true });
        const page = await ctx.newPage();
        const path_ = { words: 0, taps: 0 };
        const wrong = { words: 0, taps: 0 };
        /** Reads what the page shows in `sel` (its buttons' labels are taps, not reading).
         * @param {string} sel @param {{words: number, taps: number}} into */
        const read = async (sel, into = path_) => {
            const text = await page.locator(sel).first().evaluate((el) => {
                const copy = /** @type {HTMLElement} */ (el.cloneNode(true));
                for (const b of copy.querySelectorAll("button, a.button, details:not([open]) > :not(summary)")) b.remove();
                document.body.append(copy);   // innerText needs the layout: folded text is not rendered
                const t = copy.innerText;
                copy.remove();
                return t;
            });
            // words, not the marks French sets apart (" : ", " ; ")
            const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
            into.words += words;
            if (process.env.WEB_DEBUG) console.log(sel, words, JSON.stringify(text));
        };
        /** @param {import("@playwright/test").Locator} loc @param {{words: number, taps: number}} into */
        const tapOn = async (loc, into = path_) => {
            await loc.tap();
            into.taps++;
        };
        /** @param {string} action @param {number} you @param {{words: number, taps: number}} into */
        const move = async (action, you, into = path_) => {
            if (action === "take") return tapOn(page.locator(".action-bar button.take"), into);
            const [card, seat] = action.split(">");
            await tapOn(page.locator(`.hand button.card[data-card="${card}"]`), into);
            await tapOn(page.locator(`.target-btn[data-seat="${seat === undefined ? you : seat}"]`), into);
        };
        await page.goto(srv.url);
        await tapOn(page.locator(".learn-btn"));
        await expect(page.locator(".learn-list .lesson-item")).toHaveCount(data.lessons.length);
        await read(".learn-list");
        await tapOn(page.locator("[data-focus=learn-next]"));
        for (const [i, l] of data.lessons.entries()) {
            await expect(page.locator(".lesson-panel h2")).toHaveText(l.title);
            await read(".lesson-panel");
            await tapOn(page.locator("[data-focus=begin]"));
            const wrongAt = l.steps.findIndex((/** @type {any} */ s) =>
                Object.values(s.tries).some((/** @type {any} */ t) => t.verdict === "refused"));
            for (const [k, s] of l.steps.entries()) {
                const at = l.id + " step " + (k + 1);
                const lit = () => fit(at + " lit");
                if (s.tell.length) {
                    await expect(page.locator(".lesson-panel")).toContainText(s.tell[0]);
                    await read(".lesson-panel");
                    await tapOn(page.locator("[data-focus=panel-ok]"));
                }
                await expect(page.locator(".lesson-task")).toHaveText(s.task);
                await read(".lesson-task");
                if (k === wrongAt) {
                    const [bad] = /** @type {[string, any]} */ (Object.entries(s.tries).find(([, t]) => t.verdict === "refused"));
                    await move(bad, l.you, wrong);
                    await expect(page.locator(".why-panel")).toBeVisible();
                    await read(".why-panel", wrong);
                    await tapOn(page.locator("[data-focus=panel-ok]"), wrong);
                }
                await move(s.answer, l.you);
                await expect(page.locator("[data-focus=panel-ok]")).toBeVisible();
                await read(".lesson-panel");
                await tapOn(page.locator("[data-focus=panel-ok]"));
            }
            if (i === data.lessons.length - 1) {   // the end, and the first game
                await expect(page.locator(".first-game")).toBeVisible();
                await read(".lesson-panel");
            }
        }
        await expect(page.locator(".first-game")).toBeVisible();
        const secs = (/** @type {{words: number, taps: number}} */ c) => c.words * 60 / WPM + c.taps * TAP_S;
        const total = secs(path_);
        const line = `${lang}: ${path_.words} words, ${path_.taps} taps: ${Math.round(total)} s` +
                     ` (${Math.floor(total / 60)} min ${Math.round(total % 60)} s); a wrong move in each lesson adds` +
                     ` ${wrong.words} words and ${wrong.taps} taps: ${Math.round(secs(wrong))} s`;
        console.log("newcomer " + line);
        fs.mkdirSync(ARTIFACTS, { recursive: true });
        fs.appendFileSync(path.join(ARTIFACTS, "newcomer-times.txt"), line + "\n");
        expect(total).toBeLessThan(300);
        await ctx.close();
    });
}

test("a lesson left resumes at its step after a reload, keyboard only", async ({ browser }) => {
    const data = lessons("en");
    const l = data.lessons.find((/** @type {any} */ x) => x.id === "colours");
    const ctx = await browser.newContext({ locale: "en", viewport: PHONE, reducedMotion: "reduce" });
    const page = await ctx.newPage();
    await page.goto(srv.url + "#/learn/colours");
    await page.locator("[data-focus=begin]").focus();
    await page.keyboard.press("Enter");
    // The first step's move with the keyboard: the hand is one Tab stop, arrows within it.
    const [card, seat] = l.steps[0].answer.split(">");
    await page.locator(".hand button.card[tabindex='0']").focus();
    for (let n = 0; n < 20 && await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement).dataset.card) !== card; n++)
        await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Enter");
    await page.locator(`.target-btn[data-seat="${seat}"]`).focus();
    await page.keyboard.press("Enter");
    await expect(page.locator(".lesson-panel")).toContainText(l.steps[0].done);
    await page.keyboard.press("Enter");   // Next: the panel's button has the focus
    await expect(page.locator(".lesson-panel")).toContainText(l.steps[1].tell[0]);
    await page.keyboard.press("Enter");   // the step's words read: back to the hand
    await expect(page.locator(".lesson-task")).toHaveText(l.steps[1].task);
    await expect(page.locator(".hand button.card:focus")).toHaveCount(1);
    // A card chosen, then put back with Escape.
    await page.keyboard.press("Enter");
    await expect(page.locator(".target-btn")).not.toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(page.locator(".target-btn")).toHaveCount(0);
    await page.reload();
    await expect(page.locator(".lesson-panel")).toContainText(l.steps[1].tell[0]);
    await page.locator("[data-focus=panel-ok]").click();
    await expect(page.locator(".lesson-task")).toHaveText(l.steps[1].task);
    // The list says it was started; Again starts it over.
    await page.goto(srv.url + "#/learn");
    await expect(page.locator(".lesson-item .lesson-left")).toHaveCount(1);
    await page.goto(srv.url + "#/learn/colours");
    await page.locator("[data-focus=panel-ok]").click();
    await page.locator("[data-focus=again]").click();
    await expect(page.locator(".lesson-panel h2")).toHaveText(l.title);
    // Hint: the step's hint and the move, the card marked.
    await page.locator("[data-focus=begin]").click();
    await page.locator("[data-focus=hint]").click();
    await expect(page.locator(".lesson-panel")).toContainText(l.steps[0].hint);
    await page.locator("[data-focus=panel-ok]").click();
    await expect(page.locator(`.hand button.card.hinted[data-card="${card}"]`)).toHaveCount(1);
    await ctx.close();
});

test("the lessons read offline once the page is installed", async ({ browser }) => {
    const ctx = await browser.newContext({ locale: "fr", viewport: PHONE });
    const page = await ctx.newPage();
    await page.goto(srv.url);
    await underWorker(page, "lessons/fr.json", "i18n/later-fr.json");   // the lessons and their words
    await expect(page.locator(".learn-btn")).toBeVisible();
    await ctx.setOffline(true);
    await page.goto(srv.url + "#/learn/jesters");
    await page.reload();
    const data = lessons("fr");
    await expect(page.locator(".lesson-panel h2")).toHaveText(data.lessons[2].title);
    await page.locator("[data-focus=begin]").click();
    await expect(page.locator(".lesson-task")).toHaveText(data.lessons[2].steps[0].task);
    await ctx.setOffline(false);
    await ctx.close();
});

// SPDX-License-Identifier: MIT
// The review of my moves: a person plays a whole game with two
// fast bots; at the end the game-over panel offers "Review my moves", which
// opens the replay with the review the server computed for that person's
// seat: it steps from graded move to graded move, each shown in the position
// before it (the replay's next step is that seat's action), with the grade,
// the move played and the better one, as the server's `review` frame says.
import { test, expect } from "@playwright/test";
import fs from "node:fs";
import { startServer, ARTIFACTS } from "./server.js";
import { createTable, playTurn, rng } from "./helpers.js";

/** @type {Awaited<ReturnType<typeof startServer>>} */
let srv;
test.beforeAll(async () => { srv = await startServer(); });
test.afterAll(async () => { await srv.stop(); });

test("the review of my moves, offered at the end, is shown in the replay", async ({ browser }) => {
    test.setTimeout(240000);
    const ctx = await browser.newContext({ reducedMotion: "reduce" });
    const page = await ctx.newPage();
    /** @type {any[]} */
    const reviews = [];
    /** @type {string[]} */
    const sentTypes = [];
    page.on("websocket", (ws) => {
        ws.on("framereceived", (f) => {
            const m = JSON.parse(String(f.payload));
            if (m.type === "review") reviews.push(m);
        });
        ws.on("framesent", (f) => sentTypes.push(JSON.parse(String(f.payload)).type));
    });
    const code = await createTable(page, srv.url, "Ann", ["bot:random", "bot:random"]);
    const rnd = rng(25);
    const deadline = Date.now() + 150000;
    while (Date.now() < deadline && !(await page.locator(".ranking").count()))
        if (!(await playTurn(page, rnd))) await page.waitForTimeout(40);
    await expect(page.locator(".ranking")).toBeVisible();
    expect(reviews).toEqual([]);              // nothing during the game
    expect(sentTypes).not.toContain("review");

    const link = page.locator("a.review-link");
    await expect(link).toHaveText("Review my moves");
    await link.click();
    await expect(page).toHaveURL(new RegExp("#/r/" + code + "/1/review$"));
    await expect(page.locator(".review .notice")).toContainText("Reviewing your moves");
    await expect(page.locator(".review-summary")).toBeVisible({ timeout: 120000 });
    expect(reviews.length).toBe(1);
    const rv = reviews[0];
    expect(rv.seat).toBe(0);
    expect(rv.reviewed).toBeGreaterThan(20);
    await expect(page.locator(".review-summary")).toHaveText(rv.summary);
    expect(rv.moves.length).toBeGreaterThan(0);   // random moves: some are graded

    // The replay, as the server tells it, to tie each position to its step.
    const replay = await (await page.request.get(srv.url + "tables/" + code + "/games/1.json")).json();
    const stepNo = async () => Number(((await page.locator(".replay-step").textContent()) || "").match(/(\d+)/)?.[1]) - 1;
    const count = page.locator(".review-count");
    await page.setViewportSize({ width: 360, height: 640 });   // on a phone, too
    /** @type {any[]} */
    const measures = [];
    for (let k = 0; k < rv.moves.length; k++) {
        const m = rv.moves[k];
        await expect(count).toHaveText("Graded move " + (k + 1) + " of " + rv.moves.length);
        // On a phone, without scrolling: the verdict (the grade, what it cost,
        // the move played and the better one, each with its worth) and the way
        // to the next graded move are in the first screen, above the board.
        const at = await page.evaluate(() => {
            const box = (/** @type {string} */ s) => {
                const el = document.querySelector(s);
                const r = el ? el.getBoundingClientRect() : null;
                return r ? { top: r.top, bottom: r.bottom, left: r.left, right: r.right } : null;
            };
            return { scrollY: window.scrollY, width: document.documentElement.scrollWidth, move: box(".review-move"),
                     next: box("[data-review=next]"), prev: box("[data-review=prev]"), board: box(".replay-page .ring") };
        });
        measures.push({ k, ...at });
        expect(at.scrollY).toBe(0);
        expect(at.width).toBeLessThanOrEqual(360);
        for (const b of [at.move, at.next, at.prev]) {
            expect(b).not.toBeNull();
            expect(/** @type {any} */ (b).bottom).toBeLessThanOrEqual(640);
            expect(/** @type {any} */ (b).right).toBeLessThanOrEqual(360);
        }
        expect(/** @type {any} */ (at.board).top).toBeLessThan(640);   // the board starts beside it
        await expect(page.locator(".review-cost")).toHaveText("your chance to win went from " + Math.round(100 * m.best_win) +
                                                              "% to " + Math.round(100 * m.played_win) + "%.");
        if (k === 0) await page.screenshot({ path: ARTIFACTS + "/review-phone.png" });
        await expect(page.locator(".review-grade")).toHaveText(m.grade_say);
        await expect(page.locator(".review-played")).toContainText("You played: " + m.played_say);
        await expect(page.locator(".review-best")).toContainText("Better: " + m.best_say);
        await expect(page.locator(".review-played")).toContainText("(wins " + Math.round(100 * m.played_win) + "%");
        await expect(page.locator(".review-best")).toContainText("(wins " + Math.round(100 * m.best_win) + "%");
        expect(["inaccuracy", "mistake", "blunder"]).toContain(m.grade);
        const i = await stepNo();
        const action = replay.steps[i + 1];   // the move graded: the next step, Ann's
        expect(action.kind).toBe("action");
        expect(action.seat).toBe(0);
        expect(action.round).toBe(m.round);
        expect(action.action).toBe(m.played);
        if (k + 1 < rv.moves.length) await page.click("[data-review=next]");
    }
    fs.writeFileSync(ARTIFACTS + "/review-phone-measures.json", JSON.stringify(measures, null, 1));
    await expect(page.locator("[data-review=next]")).toBeDisabled();
    // The deal is the server's, so a game may have a single graded move:
    // then there is nothing before it either, and a click would wait forever.
    const prev = page.locator("[data-review=prev]");
    if (rv.moves.length > 1) {
        await prev.click();
        await expect(count).toHaveText("Graded move " + (rv.moves.length - 1) + " of " + rv.moves.length);
    } else await expect(prev).toBeDisabled();
    // Elsewhere than a graded move, the review says how many there are.
    await page.click("[data-step=end]");
    await expect(count).toHaveText(new RegExp("^" + rv.moves.length + " graded moves?$"));
    await ctx.close();
});

test("a review is only for the people seated: another browser is told so", async ({ page }) => {
    await page.goto(srv.url + "#/r/ABCDEF/1/review");
    await expect(page.locator(".review .notice")).toContainText("Only the people who sat at this game");
});

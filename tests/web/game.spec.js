// SPDX-License-Identifier: MIT
// A whole game in the browser: two people (two browser contexts) and a bot
// play a 3-player game by clicking cards; the final ranking they see is the
// one `figaro replay` prints for the game's record, and the client's replay
// of that record steps to the end and shows it too.
import { test, expect } from "@playwright/test";
import { startServer, replayJson, ARTIFACTS } from "./server.js";
import { createTable, joinTable, playTurn, rng, badPreviews, layoutProblems } from "./helpers.js";

/** @type {Awaited<ReturnType<typeof startServer>>} */
let srv;
test.beforeAll(async () => { srv = await startServer(); });
test.afterAll(async () => { await srv.stop(); });

test("two people and a bot play a complete game by clicking cards", async ({ browser }) => {
    test.setTimeout(150000);
    // Less motion: nothing to wait for before each click (the game is the same).
    const a = await browser.newContext({ reducedMotion: "reduce" });
    const b = await browser.newContext({ reducedMotion: "reduce" });
    const pa = await a.newPage();
    const pb = await b.newPage();
    const code = await createTable(pa, srv.url, "Ann", ["person", "bot:random"]);
    await expect(pa.locator(".invite-url")).toHaveValue(new RegExp("#/t/" + code + "$"));
    const link = await pa.locator(".invite-url").inputValue();
    await pb.goto(link);
    await pb.fill("#join-name", "Bob");
    await pb.click("form.join button[type=submit]");
    await expect(pb.locator(".seat.you .seat-name")).toHaveText(/Bob/);
    await expect(pa.locator(".hand .card").first()).toBeVisible();

    const rnd = rng(13);
    let moves = 0;
    const deadline = Date.now() + 130000;
    while (Date.now() < deadline) {
        if ((await pa.locator(".ranking").count()) && (await pb.locator(".ranking").count())) break;
        let played = false;
        for (const p of [pa, pb]) if (await playTurn(p, rnd)) { played = true; moves++; }
        if (process.env.WEB_DEBUG && played) console.log(Date.now() % 100000, moves);
        if (!played) await pa.waitForTimeout(40);
    }
    await expect(pa.locator(".ranking")).toBeVisible();
    await expect(pb.locator(".ranking")).toBeVisible();
    expect(moves).toBeGreaterThan(20);
    expect(badPreviews).toEqual([]);   // every lit seat said what the move would do

    // Both see the same ranking, and it is figaro replay's.
    const shown = await pa.locator(".ranking-list .rank-name").allTextContents();
    expect(await pb.locator(".ranking-list .rank-name").allTextContents()).toEqual(shown);
    const href = await pa.locator("a[download]").getAttribute("href");
    expect(href).toMatch(new RegExp("^/tables/" + code + "/games/1\\.fgn$"));
    const record = await (await pa.request.get(srv.url.replace(/\/$/, "") + href)).text();
    const want = replayJson(record);
    expect(want.finished).toBe(true);
    const names = (record.match(/^names (.*)$/m) || ["", ""])[1].split(" ");
    expect(shown).toEqual(want.ranking.map((/** @type {number} */ s) => names[s]));

    // The replay steps through every move to the end.
    await pa.click("text=Replay this game");
    await expect(pa.locator(".replay-step")).toHaveText(/1\D+\d+/);
    const total = Number(((await pa.locator(".replay-step").textContent()) || "").match(/(\d+)\D*$/)?.[1]);
    expect(total).toBeGreaterThan(50);
    const next = pa.locator("[data-step=next]");
    await next.click();
    await expect(pa.locator(".replay-step")).toHaveText(new RegExp("^\\D*2\\D"));
    for (let i = 2; i < total; i++) await pa.keyboard.press("ArrowRight");
    await expect(next).toBeDisabled();
    // The last step says many sentences: one a line, the first alone in bold.
    const says = pa.locator(".replay-say p");
    expect(await says.count()).toBeGreaterThan(1);
    expect(await says.nth(1).evaluate((e) => Number(getComputedStyle(e).fontWeight))).toBeLessThan(600);
    expect(await pa.locator(".ranking-list .rank-name").allTextContents()).toEqual(shown);
    // Every hand is shown in a replay.
    await pa.click("[data-step=start]");
    await expect(pa.locator(".seat-hand")).toHaveCount(3);

    // Rematch by agreement: Ann asks, Bob sees it and the ranking stays on
    // both screens; Ann changes her mind, asks again; Bob's yes starts game 2.
    await pa.goBack();
    await expect(pa.locator(".ranking")).toBeVisible();
    expect(await pa.locator(".ranking-list .rank-name").allTextContents()).toEqual(shown);
    await pa.click("[data-focus=rematch]");
    await expect(pb.locator(".rematch-vote")).toHaveText(/Ann wants a rematch — 1 of 2 ready/);
    await expect(pa.locator(".rematch-vote")).toContainText("Waiting for Bob.");
    await expect(pb.locator(".rematch-vote")).toContainText("Waiting for you.");
    await expect(pa.locator("[data-focus=rematch]")).toHaveText("Cancel my rematch request");
    await expect(pb.locator(".log")).toContainText("Ann wants a rematch: 1 of 2 ready.");
    await expect(pa.locator(".ranking")).toBeVisible();
    await expect(pb.locator(".ranking")).toBeVisible();
    await pa.click("[data-focus=rematch]");
    await expect(pb.locator(".rematch-vote")).not.toContainText("Ann");
    await expect(pa.locator("[data-focus=rematch]")).toHaveText("Rematch");
    await pa.click("[data-focus=rematch]");
    await expect(pb.locator(".rematch-vote")).toContainText("1 of 2 ready");
    // On a phone, the panel with the vote fits the width.
    await pb.setViewportSize({ width: 360, height: 640 });
    expect((await layoutProblems(pb)).problems.filter((p) => /overflow/.test(p))).toEqual([]);
    await pb.locator(".rematch-vote").scrollIntoViewIfNeeded();
    await pb.screenshot({ path: ARTIFACTS + "/rematch-vote-phone.png" });
    // A reload keeps the vote (the snapshot has it).
    await pa.reload();
    await expect(pa.locator("[data-focus=rematch]")).toHaveText("Cancel my rematch request");
    await pb.click("[data-focus=rematch]");
    await expect(pa.locator(".round-line")).toHaveText(/Game 2/);
    await expect(pb.locator(".round-line")).toHaveText(/Game 2/);
    await expect(pa.locator(".ranking")).toHaveCount(0);
    await a.close();
    await b.close();
});

test("a replay of recorded games shows the ranking figaro replay prints", async ({ page }) => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const { ROOT } = await import("./server.js");
    for (const f of ["finished-3p.fgn", "finished-4p.fgn"]) {
        const file = path.join(ROOT, "tests", "cases", f);
        const want = replayJson(fs.readFileSync(file, "utf8"));
        await page.goto(srv.url);
        await page.setInputFiles("#fgn-file", file);
        await page.click("[data-step=end]");
        const shown = await page.locator(".ranking-list .rank-row").evaluateAll(
            (rows) => rows.map((r) => Number(/** @type {HTMLElement} */ (r).dataset.seat)));
        expect(shown).toEqual(want.ranking);
        const totals = await page.locator(".ranking-list .rank-total").allTextContents();
        expect(totals.map(Number)).toEqual(want.ranking.map((/** @type {number} */ s) => want.totals[s]));
    }
    // The server's engine replays the file: a bad record gets its parser's words.
    await page.goto(srv.url);
    await page.setInputFiles("#fgn-file", path.join(ROOT, "tests", "cases", "bad-not-in-hand.fgn"));
    await expect(page.locator(".replay-page .notice")).toContainText("line 17: seat 0 has no R3 in hand");
    await expect(page.locator("[data-step=end]")).toBeDisabled();
});

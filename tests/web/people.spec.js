// SPDX-License-Identifier: MIT
// People and ratings in the browser, at 360x640 on a touch screen: Ann gives
// her name and creates a rated table (no hints, bots of a level): the page
// makes her a person (its key kept in the browser), the table says it is
// rated, and after the game (played by tapping; the table's page never
// scrolls) the ranking shows her new rating. Her page lists the game with its
// replay (one request, the kept game's .json; none to POST /replay), the figures and the rating's plot (an SVG the page draws, with its
// numbers in a table: those of the server's API); her data downloads as
// JSON (no key in it), a rename shows at once. "Use on another device"
// shows a code, its link and a QR code, read off a screenshot by a real
// decoder (zbarimg); a second browser opens that link and is Ann: her seat
// and her history follow. The code works once. The leaderboard lists her,
// hiding takes her off it; each key reached its own browser alone, once
// (every frame of both read); forget me deletes her (the API answers 404, the
// other browser's key stops working). axe finds nothing serious on the
// people's pages. Then a friend who joins by the link with a name is made a
// person too (the seat theirs), two rated games later the plot has two
// points drawn the right way up with the API's numbers, the leaderboard
// lists both in the API's order; the friend signs out (the key refused
// after) and a name makes him a new person with no games; in French nothing
// lacks a translation.
import { test, expect } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startServer, ARTIFACTS } from "./server.js";
import { openForm, tapTurn, playTurn, measure, rng, createTable, joinTable } from "./helpers.js";

/** @type {Awaited<ReturnType<typeof startServer>>} */
let srv;
test.beforeAll(async () => { srv = await startServer(); });
test.afterAll(async () => { await srv.stop(); });

const PHONE = { viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true, reducedMotion: /** @type {const} */ ("reduce") };

/** @param {import("@playwright/test").Page} page */
async function axeProblems(page) {
    const axe = await new AxeBuilder({ page }).analyze();
    return axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
}

/** Every WebSocket frame a page receives, kept in `into`.
 * @param {import("@playwright/test").Page} page @param {string[]} into */
function sniff(page, into) {
    page.on("websocket", (ws) => ws.on("framereceived", (f) => into.push(String(f.payload))));
}

/** The page's person key (local storage). @param {import("@playwright/test").Page} page */
async function keyOf(page) {
    return page.evaluate(() => localStorage.getItem("figaro.person-key"));
}

test("a person across two browsers: a rated game, the page, the device code and its QR, the leaderboard, forget me", async ({ browser }) => {
    test.setTimeout(300000);
    const a = await browser.newContext(PHONE);
    const pa = await a.newPage();
    /** @type {string[]} */
    const errors = [];
    pa.on("pageerror", (e) => errors.push(e.message));
    /** @type {string[]} */
    const framesA = [], framesB = [];
    sniff(pa, framesA);

    // Ann's first visit: her name and a rated table (bots of a level, no hints).
    await pa.goto(srv.url);
    expect(await keyOf(pa)).toBeNull();
    await pa.fill("#name", "Ann");
    await openForm(pa);
    await pa.selectOption("#players", "3");
    await pa.selectOption("#seat-1", "bot:beginner");
    await pa.selectOption("#seat-2", "bot:beginner");
    await pa.uncheck("#hints");
    await pa.click("form.create button[type=submit]");
    await expect(pa.locator(".seat.you")).toHaveCount(1);
    const code = (await pa.locator(".table-title .code").textContent()) || "";
    expect(await keyOf(pa)).toMatch(/^[0-9a-f]{32}$/);
    await expect(pa.locator(".table-head .tag-rated")).toHaveText("rated");
    await expect(pa.locator(".table-options")).toContainText("This table's games count for the players' ratings.");
    await expect(pa.locator(".top .me-badge")).toContainText("Ann");

    // The game, by tapping: the table's page never scrolls at 360x640.
    /** @type {string[]} */
    const problems = [];
    const check = async (/** @type {string} */ what) => {
        const x = await measure(pa);
        if (x.scrollHeight > x.height) problems.push(what + ": page " + x.scrollHeight + " px high");
        if (x.scrollWidth > x.width) problems.push(what + ": page " + x.scrollWidth + " px wide");
    };
    const rnd = rng(4301);
    const deadline = Date.now() + 200000;
    while (Date.now() < deadline && !(await pa.locator(".ranking").count())) {
        if (!(await tapTurn(pa, rnd, check))) await pa.waitForTimeout(30);
    }
    await expect(pa.locator(".ranking")).toBeVisible();
    // The rated game's end: the new rating under the ranking, and in the log.
    await expect(pa.locator(".ranking .rated-line")).toContainText(/Your rating: -?\d+\.\d \([+-]\d+\.\d\)/);
    await check("ranking");
    expect(problems.slice(0, 10)).toEqual([]);
    await pa.screenshot({ path: path.join(ARTIFACTS, "people-rated-over.png") });

    // Her page: the game, the figures, the plot with its numbers.
    await pa.goto(srv.url + "#/me");
    await expect(pa.locator(".people-page h1")).toHaveText("Ann");
    await expect(pa.locator("li.played")).toHaveCount(1);
    const id = await pa.evaluate(() => JSON.parse(localStorage.getItem("figaro.person") || "{}").id);
    expect(id).toMatch(/^[A-Z0-9]{10}$/);
    const api = await (await pa.request.get(srv.url + "api/people/" + id)).json();
    expect(api.games.length).toBe(1);
    const g = api.games[0];
    expect(g.rated).toBe(true);
    await expect(pa.locator("li.played .played-head")).toContainText(`Place ${g.place} of 3`);
    const plot = pa.locator("svg.rating-plot");
    await expect(plot).toBeVisible();
    await expect(plot.locator("title")).toHaveText("Ann's rating over 1 rated game");
    await expect(plot.locator(".plot-dots circle")).toHaveCount(1);
    expect(await plot.getAttribute("aria-labelledby")).toBe("rating-plot-title rating-plot-desc");
    const box = await plot.boundingBox();
    expect(box && box.width >= 300 && box.x >= 0 && box.x + box.width <= 360).toBe(true);
    await pa.locator(".plot-numbers summary").click();
    const cells = await pa.locator(".plot-numbers tbody tr").first().locator("td").allTextContents();
    expect(cells.slice(2)).toEqual([(g.mu - 3 * g.sigma).toFixed(1), g.mu.toFixed(2), g.sigma.toFixed(2)]);
    await expect(pa.locator(".person-rating strong")).toHaveText(api.shown.toFixed(1));
    await expect(pa.locator(".figures tbody tr").first()).toContainText(/All games\s*1\s*[01]/);
    await expect(pa.locator(".figures")).toContainText("against beginner");
    expect(await axeProblems(pa)).toEqual([]);
    await pa.screenshot({ path: path.join(ARTIFACTS, "people-page.png"), fullPage: true });

    // Her data as a JSON file: the API's page, as an attachment.
    const [dl] = await Promise.all([pa.waitForEvent("download"), pa.locator(".person-tools a[download]").click()]);
    expect(dl.suggestedFilename()).toBe("figaro-" + id + ".json");
    const saved = JSON.parse(fs.readFileSync(/** @type {string} */ (await dl.path()), "utf8"));
    expect(saved.id).toBe(id);
    expect(saved.games.length).toBe(1);
    expect(JSON.stringify(saved)).not.toContain(/** @type {string} */ (await keyOf(pa)));

    // Renamed: the page, the header, the API.
    await pa.fill("#person-name", "Ann B");
    await pa.locator(".person-tools form.rename button").click();
    await expect(pa.locator(".top .me-badge .me-name")).toHaveText("Ann B");
    await expect(pa.locator(".people-page h1")).toHaveText("Ann B");
    await expect.poll(async () => (await (await pa.request.get(srv.url + "api/people/" + id)).json()).name).toBe("Ann B");
    await pa.fill("#person-name", "Ann");
    await pa.locator(".person-tools form.rename button").click();
    await expect(pa.locator(".people-page h1")).toHaveText("Ann");

    // The replay of the kept record opens from the page in one request, its
    // replay's (.json): the record is not fetched to be posted to /replay
    // (limited per address, for files a person chooses). The record stays
    // a download.
    expect(await pa.locator("li.played a", { hasText: "Record" }).getAttribute("href")).toBe(g.record);
    expect(g.record).toBe("/api/people/" + id + "/games/0.fgn");
    /** @type {string[]} */
    const asked = [];
    const note = (/** @type {import("@playwright/test").Request} */ r) => {
        const u = new URL(r.url());
        if (/^\/(api|tables|replay)(\/|$)/.test(u.pathname)) asked.push(r.method() + " " + u.pathname + u.search);
    };
    pa.on("request", note);
    await pa.locator("li.played a", { hasText: "Replay" }).click();
    await expect(pa.locator(".replay-page")).toBeVisible();
    await expect(pa.locator("[data-step=next]")).toBeEnabled();
    pa.off("request", note);
    expect(asked).toEqual(["GET /api/people/" + id + "/games/0.json?lang=en"]);
    await pa.goBack();

    // Another device: the code, its link, the QR code read by zbarimg.
    await pa.locator("button[data-focus=device]").click();
    await expect(pa.locator(".device-code-text")).toHaveText(/^[A-Z0-9]{8}$/);
    const link = await pa.locator("#device-link").inputValue();
    const dcode = (await pa.locator(".device-code-text").textContent()) || "";
    expect(link).toBe(srv.url + "#/device/" + dcode);
    const shot = path.join(ARTIFACTS, "people-qr.png");
    await pa.locator("svg.qr").screenshot({ path: shot });
    const read = execFileSync("zbarimg", ["--raw", "-q", shot], { stdio: ["ignore", "pipe", "pipe"] }).toString().trim();
    expect(read).toBe(link);

    // B opens the link: B is Ann, with her history and her seat.
    const b = await browser.newContext(PHONE);
    const pb = await b.newPage();
    pb.on("pageerror", (e) => errors.push(e.message));
    sniff(pb, framesB);
    await pb.goto(read);
    await expect(pb).toHaveURL(/#\/me$/);
    await expect(pb.locator(".people-page h1")).toHaveText("Ann");
    await expect(pb.locator("li.played")).toHaveCount(1);
    const keyB = await keyOf(pb);
    const keyA = /** @type {string} */ (await keyOf(pa));
    expect(keyB).toMatch(/^[0-9a-f]{32}$/);
    expect(keyB).not.toBe(keyA);   // each device its own key
    // Each key went to its own browser alone, once (person_new's, redeem's answer).
    expect(framesA.filter((f) => f.includes(keyA)).length).toBe(1);
    expect(framesB.filter((f) => f.includes(/** @type {string} */ (keyB))).length).toBe(1);
    expect(framesA.some((f) => f.includes(/** @type {string} */ (keyB)))).toBe(false);
    expect(framesB.some((f) => f.includes(keyA))).toBe(false);
    await pb.goto(srv.url + "#/");
    await expect(pb.locator(".person-card a.person-seat", { hasText: code })).toBeVisible();
    await pb.locator(".person-card a.person-seat", { hasText: code }).click();
    await expect(pb.locator(".seat.you .seat-name")).toHaveText(/Ann/);
    expect(await pb.evaluate((c) => JSON.parse(localStorage.getItem("figaro.seats") || "{}")[c], code)).toBeUndefined();
    // ... and the review of her moves, through her seat (B holds no token of it).
    await pb.goto(srv.url + "#/me");
    await pb.locator("li.played a", { hasText: "Review my moves" }).click();
    await expect(pb).toHaveURL(new RegExp("#/r/" + code + "/1/review$"));
    await expect(pb.locator(".review-summary")).toBeVisible({ timeout: 120000 });

    // The code worked once.
    const c = await browser.newContext(PHONE);
    const pc = await c.newPage();
    await pc.goto(read);
    await expect(pc.locator(".people-page [role=status]")).toHaveText(/unknown, used or expired/);
    expect(await keyOf(pc)).toBeNull();
    await c.close();

    // The leaderboard lists her; hidden, she is not on it.
    await pb.goto(srv.url + "#/");
    await pb.locator(".person-card a", { hasText: "Leaderboard" }).click();
    const row = pb.locator("table.leaderboard tbody tr", { hasText: "Ann" });
    await expect(row).toHaveClass(/me/);
    await expect(row.locator("td").nth(1)).toHaveText(api.shown.toFixed(1));
    expect(await axeProblems(pb)).toEqual([]);
    await pb.goto(srv.url + "#/me");
    await pb.locator("#person-hidden").check();
    await expect.poll(async () => (await (await pb.request.get(srv.url + "api/leaderboard")).json()).people.length).toBe(0);
    await pb.goto(srv.url + "#/leaderboard");
    await expect(pb.locator(".people-page")).toContainText("No one has played a rated game yet.");

    // Forget me, from B: confirmed, then everything is gone.
    await pb.goto(srv.url + "#/me");
    await pb.locator("button[data-focus=forget]").click();
    await expect(pb.locator(".forget-confirm")).toBeVisible();
    await pb.locator("button[data-focus=forget-yes]").click();
    await expect(pb.locator(".people-page h1")).toHaveText("Forgotten");
    expect(await keyOf(pb)).toBeNull();
    expect((await pb.request.get(srv.url + "api/people/" + id)).status()).toBe(404);
    // A, open on her page, is told; her old key no longer works: put back, the server refuses it.
    await expect(pa.locator(".people-page h1")).toHaveText("Forgotten");
    expect(await keyOf(pa)).toBeNull();
    await pa.evaluate((k) => localStorage.setItem("figaro.person-key", k), keyA);
    await pa.reload();
    await expect.poll(() => keyOf(pa)).toBeNull();
    await expect(pa.locator("#person-new-name")).toBeVisible();
    await expect(pa.locator(".top .me-badge")).toHaveCount(0);
    expect(errors).toEqual([]);
    await a.close();
    await b.close();
});

test("a friend who joins by the link becomes a person; the plot over two games; the leaderboard; in French", async ({ browser }) => {
    test.setTimeout(300000);
    const a = await browser.newContext(PHONE);
    const b = await browser.newContext(PHONE);
    const pa = await a.newPage();
    const pb = await b.newPage();
    /** @type {string[]} */
    const errors = [];
    for (const p of [pa, pb]) p.on("pageerror", (e) => errors.push(e.message));
    const code = await createTable(pa, srv.url, "Cleo", ["person", "bot:easy"]);
    await joinTable(pb, srv.url, code, "Dario");   // the join form: Dario is made a person first
    expect(await keyOf(pb)).toMatch(/^[0-9a-f]{32}$/);
    await expect(pa.locator(".table-head .tag-rated")).toBeVisible();
    const rnd = rng(4302);
    for (const game of [1, 2]) {
        const deadline = Date.now() + 120000;
        while (Date.now() < deadline && !(await pa.locator(".ranking").count() && await pb.locator(".ranking").count())) {
            let played = false;
            for (const p of [pa, pb]) if (await playTurn(p, rnd)) played = true;
            if (!played) await pa.waitForTimeout(30);
        }
        for (const p of [pa, pb]) await expect(p.locator(".ranking .rated-line")).toBeVisible();
        if (game === 1) {
            for (const p of [pa, pb]) await p.locator("button[data-focus=rematch]").click();
            for (const p of [pa, pb]) await expect(p.locator(".round-line")).toContainText("Game 2");
        }
    }
    // Cleo's page: two dots, the higher rating drawn higher; the numbers are the API's.
    await pa.goto(srv.url + "#/me");
    const id = await pa.evaluate(() => JSON.parse(localStorage.getItem("figaro.person") || "{}").id);
    const api = await (await pa.request.get(srv.url + "api/people/" + id)).json();
    expect(api.games.map((/** @type {any} */ g) => g.rated)).toEqual([true, true]);
    expect(api.games[0].seats.find((/** @type {any} */ s) => s.kind === "person").name).toBe("Dario");
    await expect(pa.locator("li.played")).toHaveCount(2);
    await expect(pa.locator("li.played").first()).toContainText("with Dario, bot: easy");
    const dots = pa.locator("svg.rating-plot .plot-dots circle");
    await expect(dots).toHaveCount(2);
    const ys = await dots.evaluateAll((cs) => cs.map((c) => Number(c.getAttribute("cy"))));
    const shown = api.games.map((/** @type {any} */ g) => g.mu - 3 * g.sigma);
    expect(Math.sign(ys[0] - ys[1])).toBe(Math.sign(shown[1] - shown[0]));   // y grows downwards
    expect(await pa.locator("svg.rating-plot desc").textContent()).toContain("From " + shown[0].toFixed(1) +
        " after the first game to " + shown[1].toFixed(1) + " after the last");
    const rows = await pa.locator(".plot-numbers tbody tr").evaluateAll((trs) => trs.map((tr) =>
        [...tr.querySelectorAll("td")].slice(2).map((td) => td.textContent)));
    expect(rows).toEqual(api.games.map((/** @type {any} */ g) => [(g.mu - 3 * g.sigma).toFixed(1), g.mu.toFixed(2), g.sigma.toFixed(2)]));
    await expect(pa.locator(".figures tbody tr").first()).toContainText(/All games\s*2/);

    // The leaderboard: both, by the rating shown, as the API has them.
    const board = (await (await pa.request.get(srv.url + "api/leaderboard")).json()).people;
    expect(board.map((/** @type {any} */ p) => p.name).sort()).toEqual(["Cleo", "Dario"]);
    await pa.goto(srv.url + "#/leaderboard");
    await expect(pa.locator("table.leaderboard tbody tr")).toHaveCount(2);
    expect(await pa.locator("table.leaderboard tbody th a").allTextContents()).toEqual(board.map((/** @type {any} */ p) => p.name));
    await pa.locator("table.leaderboard a", { hasText: "Dario" }).click();
    await expect(pa.locator(".people-page h1")).toHaveText("Dario");
    await expect(pa.locator(".person-tools")).toHaveCount(0);   // not hers: no tools
    await expect(pa.locator("li.played").first()).not.toContainText("Review my moves");

    // Dario signs out: his key is dropped and refused; a name makes him a new person, with no games yet.
    const keyD = /** @type {string} */ (await keyOf(pb));
    await pb.goto(srv.url + "#/me");
    const idD = await pb.evaluate(() => JSON.parse(localStorage.getItem("figaro.person") || "{}").id);
    await pb.locator("button[data-focus=sign-out]").click();
    await expect(pb).toHaveURL(/#\/$/);
    expect(await keyOf(pb)).toBeNull();
    await expect(pb.locator(".top .me-badge")).toHaveCount(0);
    await pb.evaluate((k) => localStorage.setItem("figaro.person-key", k), keyD);
    await pb.goto(srv.url + "#/me");
    await pb.reload();
    await expect.poll(() => keyOf(pb)).toBeNull();
    await pb.fill("#person-new-name", "Dario");
    await pb.locator("form button[type=submit]").first().click();
    await expect(pb.locator(".people-page h1")).toHaveText("Dario");
    await expect(pb.locator(".person-rating")).toHaveText(/no rated game yet/);
    await expect(pb.locator(".games-list")).toContainText("No game finished yet.");
    expect(await pb.evaluate(() => JSON.parse(localStorage.getItem("figaro.person") || "{}").id)).not.toBe(idD);
    expect(await axeProblems(pb)).toEqual([]);

    // In French: every word of the people's pages translated.
    await pa.selectOption("#lang", "fr");
    await pa.goto(srv.url + "#/me");
    await expect(pa.locator(".people-page h2").first()).toHaveText("Le classement au fil du temps");
    await pa.goto(srv.url + "#/leaderboard");
    await expect(pa.locator(".people-page h1")).toHaveText("Classement général");
    await pa.goto(srv.url + "#/me");
    await pa.locator("button[data-focus=device]").click();
    await expect(pa.locator("svg.qr")).toBeVisible();
    await pa.locator("button[data-focus=forget]").click();
    expect(await pa.evaluate(() => /** @type {any} */ (window).figaroMissing())).toEqual([]);
    expect(await axeProblems(pa)).toEqual([]);
    expect(errors).toEqual([]);
    await a.close();
    await b.close();
});

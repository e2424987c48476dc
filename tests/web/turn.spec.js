// SPDX-License-Identifier: MIT
// Your turn at the table: hints (an option of the table, shown to everyone:
// a hint comes only to the asker, only at a table that allows them; the
// frames the browser received are inspected), the tab's title and icon, the
// chime and the vibration a person asked for, the move clock everyone sees,
// a second tab that takes the seat (said on the page, the table not turned
// round), and small things a person meets: the hand is one Tab stop, an open
// seat and an empty pile said once, a long name never hides what a move does.
import { test, expect } from "@playwright/test";
import path from "node:path";
import { startServer, ARTIFACTS } from "./server.js";
import { createTable, openForm, joinTable, playTurn, measure, rng } from "./helpers.js";

/** @type {Awaited<ReturnType<typeof startServer>>} */
let srv;
test.beforeAll(async () => { srv = await startServer(); });
test.afterAll(async () => { await srv.stop(); });

/** Every frame a page receives, parsed. @param {import("@playwright/test").Page} page */
function framesOf(page) {
    /** @type {any[]} */
    const got = [];
    page.on("websocket", (ws) => ws.on("framereceived", (f) => {
        try { got.push(JSON.parse(String(f.payload))); } catch { /* not JSON */ }
    }));
    return got;
}

test("hints on: the default with bots, shown to all, the move with its reason, gone when the turn moves on", async ({ browser }) => {
    const ctx = await browser.newContext({ reducedMotion: "reduce" });
    const page = await ctx.newPage();
    const frames = framesOf(page);
    await page.goto(srv.url);
    await page.fill("#name", "Ann");
    await openForm(page);
    await page.selectOption("#players", "4");
    // The form follows the server's default: off with a friend, on with bots only.
    await expect(page.locator("#seat-1")).toHaveValue("person");
    await expect(page.locator("#hints")).not.toBeChecked();
    await page.selectOption("#seat-1", "bot:random");
    await expect(page.locator("#hints")).toBeChecked();
    await page.click("form.create button[type=submit]");
    await expect(page.locator(".seat.you")).toHaveCount(1);
    await expect(page.locator(".table-head .tag-hints")).toHaveText("hints on");
    const code = (await page.locator(".table-head .code").textContent()) || "";
    // A spectator sees that the table allows hints, and never gets one.
    const w = await browser.newContext();
    const pw = await w.newPage();
    const watched = framesOf(pw);
    await pw.goto(srv.url + "#/w/" + code);
    await expect(pw.locator(".table-head .tag-hints")).toBeVisible();

    await expect(page.locator(".hand.mine")).toBeVisible({ timeout: 20000 });
    await page.click(".action-bar .hint-btn");
    await expect(page.locator(".hint-panel")).toBeVisible({ timeout: 15000 });
    const hint = frames.find((f) => f.type === "hint");
    expect(hint.table).toBe(code);
    expect(hint.say.length).toBeGreaterThan(0);
    await expect(page.locator(".hint-panel h2")).toHaveText(hint.say[0]);
    if (hint.top.length > 1) {
        await page.click(".hint-panel summary");
        await expect(page.locator(".hint-panel .hint-alts li")).toHaveCount(Math.min(3, hint.top.length));
        await expect(page.locator(".hint-panel .hint-alts li").first()).toHaveText(hint.top[0].say);
    }
    await page.screenshot({ path: path.join(ARTIFACTS, "hint-desktop.png") });
    if (hint.action !== "take") {
        // The hinted card is marked; chosen, the panel makes way for the seats, the hinted one marked.
        const card = page.locator(".hand .card.hinted");
        await expect(card).toHaveAttribute("data-card", hint.action.split(">")[0]);
        await card.click();
        await expect(page.locator(".hint-panel")).toHaveCount(0);
        await expect(page.locator(".target-btn.hinted")).toHaveCount(1);
        // The Hint button (there when no card is chosen) shows it again, without a second search.
        await page.click("[data-focus=unselect]");
        await page.click(".action-bar .hint-btn");
        await expect(page.locator(".hint-panel")).toBeVisible();
        expect(frames.filter((f) => f.type === "hint").length).toBe(1);
        await card.click();
    }
    // Playing moves the turn on: the hint goes.
    if (hint.action === "take") {
        await page.click(".action-bar button.take");
        await page.click("[data-focus=take-yes]");
    } else {
        await page.locator(".target-btn").first().click();
    }
    await expect(page.locator(".hint-panel")).toHaveCount(0);
    await expect.poll(() => watched.some((f) => f.type === "event" && f.kind === "action" && f.seat === 0)).toBe(true);
    expect(watched.filter((f) => f.type === "hint")).toEqual([]);
    await ctx.close();
    await w.close();
});

/** Plays the card of this page's hand that brings the pile of `seat` (its
 * own or another's) highest without collecting, if it is its turn and it has one.
 * @param {import("@playwright/test").Page} page @param {number} seat
 * @returns {Promise<boolean>} whether it played */
async function buildPile(page, seat) {
    if (!(await page.locator(".hand.mine").count()) || (await page.locator(".panels .round-end").count())) return false;
    try {
        const cards = page.locator(".hand button.card.playable");
        const pile = page.locator(`.seat[data-seat='${seat}'] .target-btn:not(.collects)`);
        const n = await cards.count();
        let best = -1;
        let high = -1;
        for (let i = 0; i < n; i++) {
            await cards.nth(i).click({ timeout: 3000 });
            if (!(await pile.count())) continue;
            const m = /(\d+)/.exec((await pile.textContent()) || "");   // "Your pile: N", "Bob's pile: N"
            if (m && Number(m[1]) > high) { high = Number(m[1]); best = i; }
        }
        if (best < 0) return false;
        if (best !== n - 1) await cards.nth(best).click({ timeout: 3000 });   // a second click would unselect it
        await pile.click({ timeout: 3000 });
        return true;
    } catch (e) {
        if (process.env.WEB_DEBUG) console.log("buildPile:", String(e).slice(0, 300));
    }
    return false;
}

test("hints off: the default with friends; no Hint button, no hint frame; a long name never hides what a move does", async ({ browser }) => {
    test.setTimeout(300000);
    const a = await browser.newContext({ reducedMotion: "reduce", viewport: { width: 360, height: 640 } });
    const b = await browser.newContext({ reducedMotion: "reduce" });
    const pa = await a.newPage();
    const pb = await b.newPage();
    const fa = framesOf(pa);
    const fb = framesOf(pb);
    const code = await createTable(pa, srv.url, "Ann", ["person", "bot:random"]);
    // 32 characters: the most a name may have.
    const long = "Bartholomew Montgomery-Fitzgera";
    await pb.goto(srv.url + "#/t/" + code);
    await pb.fill("#join-name", long + "l");
    await pb.click("form.join button[type=submit]");
    await expect(pb.locator(".seat.you")).toHaveCount(1);
    await expect(pa.locator(".table-head .tag-hints")).toHaveCount(0);
    const rnd = rng(21);
    let turns = 0;
    let collects = 0;
    // Until Ann has seen a card of hers that would make Bob collect: the
    // preview where a long name could push "collects N cards" out. Most
    // deals show it within 12 turns; a few take a loaded machine 28 turns
    // and more, hence the time allowed (most of a game).
    const end = Date.now() + 240000;
    while ((turns < 12 || !collects) && Date.now() < end && !(await pa.locator(".ranking").count())) {
        let played = false;
        if (await pa.locator(".hand.mine").count()) {
            await expect(pa.locator(".hint-btn")).toHaveCount(0);
            // Ann's previews on Bob's seat: the name may be cut, never the rest.
            const cards = pa.locator(".hand button.card.playable");
            const n = await cards.count();
            for (let i = 0; i < n; i++) {
                await cards.nth(i).click();
                const x = await measure(pa);
                expect(x.cut).toEqual([]);
                const bob = pa.locator(".seat[data-seat='1'] .target-btn.collects .preview");
                if (await bob.count()) {
                    collects++;
                    await expect(bob).toContainText(/collects \d+ cards$/);
                    await expect(bob.locator(".who")).toHaveText(long + "l");
                }
            }
            if (n) await cards.nth(n - 1).click();   // unselected again: a click on it would not play
        }
        // Both pile cards up in front of Bob, so that Ann soon holds one that
        // would make him collect.
        if (await buildPile(pa, 1) || await playTurn(pa, rnd)) { played = true; turns++; }
        if (await buildPile(pb, 1) || await playTurn(pb, rnd)) { played = true; turns++; }
        if (!played) await pa.waitForTimeout(40);
    }
    if (process.env.WEB_DEBUG) console.log("turns:", turns, "previews that collect on Bob's seat:", collects);
    expect(turns).toBeGreaterThan(10);
    expect(collects, "previews that collect on Bob's seat, in " + turns + " turns").toBeGreaterThan(0);
    for (const f of [fa, fb]) {
        expect(f.some((m) => m.type === "event" && m.kind === "action")).toBe(true);
        expect(f.filter((m) => m.type === "hint")).toEqual([]);
        expect(f.find((m) => m.type === "snapshot").options.hints).toBe(false);
    }
    await a.close();
    await b.close();
});

test("your turn: the tab's title and icon, the chime and vibration asked for, the move clock for all", async ({ browser }) => {
    const ctx = await browser.newContext({ reducedMotion: "reduce" });
    // Counts what the page asks of the browser's audio and vibration (both still work as usual).
    await ctx.addInitScript(() => {
        const w = /** @type {any} */ (window);
        w.chimes = 0;
        w.vibrations = [];
        const make = AudioContext.prototype.createOscillator;
        AudioContext.prototype.createOscillator = function () { w.chimes++; return make.call(this); };
        const vibrate = navigator.vibrate ? navigator.vibrate.bind(navigator) : () => true;
        navigator.vibrate = (p) => { w.vibrations.push(p); return vibrate(p); };
        // Every title and icon the tab shows, in turn (a turn may come back at once).
        w.tab = [];
        document.addEventListener("DOMContentLoaded", () => {
            const icon = /** @type {Element} */ (document.querySelector("link[rel=icon]"));
            const note = () => w.tab.push(document.title + " " + icon.getAttribute("href"));
            new MutationObserver(note).observe(document.head, { subtree: true, childList: true, characterData: true,
                                                                attributes: true });
        });
    });
    const page = await ctx.newPage();
    await page.goto(srv.url);
    await page.fill("#name", "Ann");
    await openForm(page);
    await page.fill("#move-time", "40");
    await page.selectOption("#seat-1", "bot:random");
    await page.click("form.create button[type=submit]");
    await expect(page.locator(".seat.you")).toHaveCount(1);
    const code = (await page.locator(".table-head .code").textContent()) || "";
    const icon = page.locator("link[rel=icon]");

    await expect(page.locator(".hand.mine")).toBeVisible({ timeout: 20000 });
    await expect(page).toHaveTitle("Your turn! · Figaro · " + code);
    await expect(icon).toHaveAttribute("href", "favicon-turn.svg");
    await page.evaluate(() => { /** @type {any} */ (window).tab = []; });
    // The clock runs down, for the player and for a spectator who comes now.
    const clock = page.locator(".table-head .clock");
    await expect(clock).toHaveText(/^0:[0-4]\d$/);
    const secs = async (/** @type {import("@playwright/test").Locator} */ c) =>
        Number(((await c.textContent()) || "0:0").split(":")[1]);
    const first = await secs(clock);
    await page.waitForTimeout(2100);
    expect(await secs(clock)).toBeLessThan(first);
    expect(await clock.getAttribute("aria-label")).toMatch(/^Your time to move: 0:\d\d$/);
    const w = await browser.newContext();
    const pw = await w.newPage();
    await pw.goto(srv.url + "#/w/" + code);
    const wclock = pw.locator(".table-head .clock");
    await expect(wclock).toBeVisible();
    expect(Math.abs((await secs(wclock)) - (await secs(clock)))).toBeLessThanOrEqual(2);   // the server's count
    expect(await wclock.getAttribute("aria-label")).toMatch(/^Ann's time to move/);

    // Ask for the chime and the vibration (remembered), then play: not my turn any more.
    if (await page.locator(".drawer-btn").first().isVisible()) await page.click(".drawer-btn");   // wide: no sheet
    await page.check("#turn-sound");
    await page.check("#turn-vibrate");
    const before = await page.evaluate(() => /** @type {any} */ (window).chimes);
    expect(before).toBeGreaterThan(0);   // ticking the box plays it once
    await page.locator(".hand button.card.playable").first().click();
    await page.locator(".target-btn").first().click();
    await expect.poll(async () => (await page.evaluate(() => /** @type {any} */ (window).tab)).slice(-6))
        .toContainEqual("Figaro · " + code + " favicon.svg");
    // The next turn chimes and vibrates.
    await expect(page.locator(".hand.mine")).toBeVisible({ timeout: 20000 });
    await expect.poll(() => page.evaluate(() => /** @type {any} */ (window).chimes)).toBeGreaterThan(before);
    expect(await page.evaluate(() => /** @type {any} */ (window).vibrations)).toContainEqual([150, 80, 150]);
    await page.reload();
    await expect(page.locator("#turn-sound")).toBeChecked();
    await expect(page.locator("#turn-vibrate")).toBeChecked();
    await ctx.close();
    await w.close();
});

test("the move clock and the seats' status are the server's word: the page shows what the frames say", async ({ browser }) => {
    const ctx = await browser.newContext({ reducedMotion: "reduce" });
    const page = await ctx.newPage();
    // Ann's page talks to the real server through this route, which takes
    // 15 s off every clock the server tells and says a bot plays Bob's seat
    // when the server says he is away: a page that counted the clock or the
    // status itself (a turn's 40 s from the table's options; "away" from the
    // news) would show 0:3x or 0:40, and "away".
    let clocks = 0;
    await page.routeWebSocket(/\/ws/, (ws) => {
        const server = ws.connectToServer();
        server.onMessage((text) => {
            const m = JSON.parse(String(text));
            if (typeof m.turn_ms_left === "number") {
                m.turn_ms_left = Math.max(0, m.turn_ms_left - 15000);
                clocks++;
            }
            if (m.kind === "seat" && m.news === "away" && Array.isArray(m.seats)) m.seats[m.seat].status = "bot";
            ws.send(JSON.stringify(m));
        });
    });
    await page.goto(srv.url);
    await page.fill("#name", "Ann");
    await openForm(page);
    await page.selectOption("#players", "3");
    await page.selectOption("#seat-1", "person");
    await page.selectOption("#seat-2", "bot:random");
    await page.fill("#move-time", "40");
    await page.click("form.create button[type=submit]");
    await expect(page.locator(".seat.you")).toHaveCount(1);
    const code = (await page.locator(".table-title .code").textContent()) || "";
    const bctx = await browser.newContext();
    const bob = await bctx.newPage();
    await joinTable(bob, srv.url, code, "Bob");
    const clock = page.locator(".table-head .clock");
    await expect(clock).toBeVisible({ timeout: 20000 });
    expect(clocks).toBeGreaterThan(0);
    const secs = Number(((await clock.textContent()) || "9:99").replace(":", ""));
    expect(secs).toBeLessThanOrEqual(25);
    // Bob goes: the server says away, the route says a bot plays; the page says what it was told.
    await bctx.close();
    const bseat = page.locator(".seat", { hasText: "Bob" });
    await expect(bseat).toContainText("a bot plays");
    await expect(bseat).not.toContainText("away");
    await ctx.close();
});

test("a second tab takes the seat: the first says so, keeps the table's way round, and can take it back", async ({ browser }) => {
    const ctx = await browser.newContext({ reducedMotion: "reduce" });
    const p1 = await ctx.newPage();
    await createTable(p1, srv.url, "Ann", ["person", "bot:random", "bot:random"]);
    const code = (await p1.locator(".table-head .code").textContent()) || "";
    const bottom = async (/** @type {import("@playwright/test").Page} */ p) =>
        p.locator(".ring .seat").evaluateAll((els) => els.filter((e) =>
            /** @type {HTMLElement} */ (e).style.getPropertyValue("--row") === "3")
            .map((e) => /** @type {HTMLElement} */ (e).dataset.seat));
    // Bob sits at seat 2 (index 1): the first tab then watches with Ann's seat still at the bottom.
    const b = await browser.newContext();
    const pb = await b.newPage();
    await pb.goto(srv.url + "#/t/" + code);
    await pb.fill("#join-name", "Bob");
    await pb.click("form.join button[type=submit]");
    await expect(pb.locator(".seat.you")).toHaveCount(1);
    expect(await bottom(p1)).toEqual(["0"]);
    const p2 = await ctx.newPage();
    await p2.goto(srv.url + "#/t/" + code);
    await expect(p2.locator(".seat.you .seat-name")).toHaveText(/Ann/);
    await expect(p1.locator(".yielded")).toContainText("Your seat is played from another tab or device");
    await expect(p1.locator(".seat.you")).toHaveCount(0);
    expect(await bottom(p1)).toEqual(["0"]);
    await p1.click("[data-focus=take-back]");
    await expect(p1.locator(".seat.you .seat-name")).toHaveText(/Ann/);
    await expect(p2.locator(".yielded")).toBeVisible();
    await ctx.close();
    await b.close();
});

test("said once, and one Tab stop: open seats, empty piles, the round, the hand; no ring around the page", async ({ browser }) => {
    const ctx = await browser.newContext({ reducedMotion: "reduce" });
    const page = await ctx.newPage();
    await createTable(page, srv.url, "Ann", ["person", "person", "bot:random"]);
    // Waiting for two friends: each open seat says so once; no lone dot.
    const ring = page.locator(".ring");
    const text = (await ring.innerText()).toLowerCase();
    expect(text.match(/open seat/g)?.length).toBe(2);
    expect(text).not.toContain("·");
    expect(await page.evaluate(() => getComputedStyle(/** @type {Element} */ (document.querySelector("main"))).outlineStyle))
        .toBe("none");
    await ctx.close();

    const c2 = await browser.newContext({ reducedMotion: "reduce" });
    const p = await c2.newPage();
    await createTable(p, srv.url, "Ann", ["bot:random", "bot:random"]);
    await expect(p.locator(".hand.mine")).toBeVisible({ timeout: 20000 });
    expect((await p.locator("body").innerText()).match(/Round 1 of 3/g)?.length).toBe(1);
    // The hand: a toolbar, one Tab stop, arrows within.
    await expect(p.locator(".hand[role=toolbar] [tabindex='0']")).toHaveCount(1);
    const cards = p.locator(".hand button.card");
    const n = await cards.count();
    expect(n).toBeGreaterThan(3);
    await p.locator(".hand [tabindex='0']").focus();
    const at = () => p.evaluate(() => /** @type {HTMLElement} */ (document.activeElement).dataset.card || "");
    const start = await at();
    await p.keyboard.press("ArrowRight");
    const second = await at();
    expect(second).not.toBe(start);
    expect(second).not.toBe("");
    await p.keyboard.press("End");
    expect(await at()).toBe(await cards.last().getAttribute("data-card"));
    await p.keyboard.press("Home");
    expect(await at()).toBe(await cards.first().getAttribute("data-card"));
    await p.keyboard.press("Tab");
    expect(await p.evaluate(() => !!document.activeElement?.closest(".hand"))).toBe(false);
    await p.keyboard.press("Shift+Tab");
    expect(await at()).toBe(await cards.first().getAttribute("data-card"));   // back to where it was
    await c2.close();
});

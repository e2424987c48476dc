// SPDX-License-Identifier: MIT
// The lobby with two browsers: Ann makes a listed table with an open seat;
// Bob's home page, open on a phone before, shows it without a reload (who
// sits, the bot's level, the settings); one tap seats him with the name he
// typed; the game starts for both; the table leaves the lobby of a home page
// that watches it, and Bob's home no longer lists it. Every lobby frame is
// checked: no hand, no token (R14). The home page stops following the
// lobby when it is left.
import { test, expect } from "@playwright/test";
import { startServer } from "./server.js";
import { openForm } from "./helpers.js";

/** @type {Awaited<ReturnType<typeof startServer>>} */
let srv;
test.beforeAll(async () => { srv = await startServer(); });
test.afterAll(async () => { await srv.stop(); });

/** Keeps every lobby frame a page receives and every message it sends.
 * @param {import("@playwright/test").Page} page */
function record(page) {
    const got = /** @type {string[]} */ ([]);
    const sent = /** @type {any[]} */ ([]);
    page.on("websocket", (ws) => {
        ws.on("framereceived", (f) => {
            const text = String(f.payload);
            if (JSON.parse(text).type === "lobby") got.push(text);
        });
        ws.on("framesent", (f) => sent.push(JSON.parse(String(f.payload))));
    });
    return { got, sent };
}

test("a listed table in the lobby of another browser, joined with one tap", async ({ browser }) => {
    const phone = { viewport: { width: 360, height: 640 }, reducedMotion: /** @type {"reduce"} */ ("reduce") };
    const a = await browser.newContext({ reducedMotion: "reduce" });
    const b = await browser.newContext(phone);
    const c = await browser.newContext(phone);
    const pa = await a.newPage();
    const pb = await b.newPage();
    const pc = await c.newPage();
    const rb = record(pb);
    const rc = record(pc);
    await pb.goto(srv.url);
    await pc.goto(srv.url);
    await expect(pb.locator(".lobby-empty")).toHaveText("No table waits for players.");

    // Ann makes a listed table: herself, an open seat, a hard bot, 45 s a move.
    await pa.goto(srv.url);
    await pa.fill("#name", "Ann");
    await openForm(pa);
    await pa.selectOption("#players", "3");
    await pa.selectOption("#seat-1", "person");
    await pa.selectOption("#seat-2", "bot:hard");
    await pa.fill("#move-time", "45");
    await pa.check("#listed");
    await pa.click("form.create button[type=submit]");
    await expect(pa.locator(".seat.you")).toHaveCount(1);
    const code = (await pa.locator(".table-title .code").textContent()) || "";
    expect(code).toMatch(/^[A-Z0-9]{6}$/);

    // Live on Bob's phone: the code, the free seat, Ann, the bot's level, the settings.
    const entry = pb.locator(`.lobby-table[data-table="${code}"]`);
    await expect(entry).toBeVisible();
    await expect(entry.locator(".lobby-free")).toHaveText("1 free seat of 3");
    await expect(entry.locator(".lobby-seats")).toHaveText("Ann, open seat, bot: hard");
    await expect(entry.locator(".lobby-settings")).toContainText("45 s per move");
    await expect(pb.locator(".lobby-table")).toHaveCount(1);
    // The list is in sight on the phone's home screen, without scrolling.
    const box = await entry.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(640);
    await expect(pc.locator(`.lobby-table[data-table="${code}"]`)).toBeVisible();

    // One tap, with the name typed on the home page: both seated, the game on.
    await pb.fill("#name", "Bob");
    await entry.click();
    await expect(pb.locator(".seat.you .seat-name")).toHaveText(/Bob/);
    await expect(pa.locator(".seat[data-seat='1'] .seat-name")).toHaveText(/Bob/);
    await expect(pa.locator(".hand .card").first()).toBeVisible();
    await expect(pb.locator(".hand .card").first()).toBeVisible();
    expect(rb.sent.some((m) => m.type === "lobby" && m.on === false)).toBe(true);   // left home: stopped

    // Gone from the lobby: live on the page that watches, and on Bob's home.
    await expect(pc.locator(`.lobby-table[data-table="${code}"]`)).toHaveCount(0);
    await expect(pc.locator(".lobby-empty")).toBeVisible();
    await pb.goto(srv.url + "#/");
    await expect(pb.locator(".lobby-empty")).toBeVisible();
    await expect(pb.locator(".lobby-table")).toHaveCount(0);

    // R14: no lobby frame holds a hand or a token (Ann's and Bob's among them).
    const tokens = await Promise.all([pa, pb].map((p) => p.evaluate(() =>
        Object.values(JSON.parse(localStorage.getItem("figaro.seats") || "{}")).map((s) => s.token))));
    expect(tokens.flat().length).toBe(2);
    const frames = [...rb.got, ...rc.got];
    expect(frames.length).toBeGreaterThan(2);
    for (const f of frames) {
        expect(f).not.toMatch(/token|hand/);
        for (const t of tokens.flat()) expect(f).not.toContain(t);
    }
    await a.close();
    await b.close();
    await c.close();
});

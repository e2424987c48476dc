// SPDX-License-Identifier: MIT
// A whole game on a phone: at 360x640, with a touch screen, a person plays
// against bots by tapping (a card, then a lit seat; Take), for 3, 4 and 6
// players. On every one of their turns the page must not scroll (its height
// is the window's) and the turn line, every lit seat, Take and the hand are
// in sight, at least 44 px and under nothing else; at no moment does anything
// leave the window's width; a preview never cuts what a move would do; the
// round's end and the ranking come into view by themselves. The numbers go to
// build/test/web-artifacts/phone-measures.json (docs/browser.md's measures).
import { test, expect } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import fs from "node:fs";
import path from "node:path";
import { startServer, ARTIFACTS } from "./server.js";
import { createTable, tapTurn, measure, rng } from "./helpers.js";

/** @type {Awaited<ReturnType<typeof startServer>>} */
let srv;
test.beforeAll(async () => { srv = await startServer(); });
test.afterAll(async () => { await srv.stop(); });

/** @type {Object<string, any>} */
const measures = {};
test.afterAll(() => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, "phone-measures.json"), JSON.stringify(measures, null, 1));
});

for (const players of [3, 4, 6]) {
    test(`a whole game by tapping at 360x640, ${players} players`, async ({ browser }) => {
        test.setTimeout(240000);
        const ctx = await browser.newContext({ viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true,
                                               reducedMotion: "reduce" });
        const page = await ctx.newPage();
        /** @type {string[]} */
        const errors = [];
        page.on("pageerror", (e) => errors.push(e.message));
        // A long name: the previews must still say what a move does.
        await createTable(page, srv.url, "Annabella Longname", Array.from({ length: players - 1 }, () => "bot:random"));
        const m = { players, turns: 0, checks: 0, maxScrollHeight: 0, height: 640, maxScrollWidth: 0, width: 360,
                    roundEnds: 0, problems: /** @type {string[]} */ ([]) };
        /** @param {string} what */
        const check = async (what) => {
            const x = await measure(page);
            m.checks++;
            m.maxScrollWidth = Math.max(m.maxScrollWidth, x.scrollWidth);
            if (x.scrollWidth > x.width) m.problems.push(what + ": page " + x.scrollWidth + " px wide");
            for (const w of x.wide) m.problems.push(what + ": beyond the width: " + w);
            if (what === "idle") return;
            m.maxScrollHeight = Math.max(m.maxScrollHeight, x.scrollHeight);
            if (what === "turn") m.turns++;
            if (what === "round-end") {
                m.roundEnds++;
                for (const t of await page.locator(".round-end th[scope=col]").allTextContents())
                    if (t[0] !== t[0].toUpperCase()) m.problems.push("round-end: a header in lower case: " + t);
            }
            if (x.scrollHeight > x.height) m.problems.push(what + ": page " + x.scrollHeight + " px high");
            for (const u of x.unseen) m.problems.push(what + ": out of sight: " + u);
            for (const s of x.small) m.problems.push(what + ": under 44 px: " + s);
            for (const c of x.covered) m.problems.push(what + ": covered: " + c);
            for (const c of x.cut) m.problems.push(what + ": preview cut: " + c);
            for (const c of x.crowded) m.problems.push(what + ": " + c);
            if (m.problems.length && !shot) {   // the first problem, as a person would have seen it
                shot = true;
                await page.screenshot({ path: path.join(ARTIFACTS, `phone-${players}p-problem.png`) });
            }
        };
        let shot = false;
        const rnd = rng(players * 7 + 1);
        const deadline = Date.now() + 200000;
        while (Date.now() < deadline && !(await page.locator(".ranking").count())) {
            if (!(await tapTurn(page, rnd, check))) {
                await check("idle");
                await page.waitForTimeout(30);
            }
        }
        // The ranking comes into view by itself, within the width.
        await expect(page.locator(".ranking")).toBeVisible();
        await check("ranking");
        const box = await page.locator(".ranking").boundingBox();
        expect(box && box.y >= 0 && box.y < 640 && box.x >= 0 && box.x + box.width <= 360).toBe(true);
        await page.screenshot({ path: path.join(ARTIFACTS, `phone-${players}p-over.png`) });
        measures[players + "p"] = { ...m, problems: m.problems.length };
        expect(m.problems.slice(0, 20)).toEqual([]);
        expect(m.turns).toBeGreaterThan(20);
        expect(m.roundEnds).toBeGreaterThan(0);   // a round's end was shown (and measured) on a turn
        expect(errors).toEqual([]);
        await ctx.close();
    });
}

test("landscape phone, tablet and desktop: one screen, nothing beyond the width", async ({ browser }) => {
    for (const [w, h] of [[640, 360], [768, 1024], [1280, 800], [1920, 1080]]) {
        const ctx = await browser.newContext({ viewport: { width: w, height: h }, reducedMotion: "reduce" });
        const page = await ctx.newPage();
        await createTable(page, srv.url, "Ann", ["bot:random", "bot:random", "bot:random", "bot:random", "bot:random"]);
        await expect(page.locator(".hand.mine")).toBeVisible({ timeout: 20000 });
        await page.locator(".hand button.card.playable").first().click();
        await expect(page.locator(".target-btn").first()).toBeVisible();
        const x = await measure(page);
        expect({ size: w + "x" + h, high: x.scrollHeight > x.height, wide: x.wide, unseen: x.unseen, cut: x.cut,
                 crowded: x.crowded })
            .toEqual({ size: w + "x" + h, high: false, wide: [], unseen: [], cut: [], crowded: [] });
        await page.screenshot({ path: path.join(ARTIFACTS, `table-6p-${w}x${h}.png`) });
        await ctx.close();
    }
});

test("the log and the chat open as a sheet with what is new; axe finds nothing serious", async ({ browser }) => {
    const ctx = await browser.newContext({ viewport: { width: 360, height: 640 }, hasTouch: true, reducedMotion: "reduce" });
    const page = await ctx.newPage();
    await createTable(page, srv.url, "Ann", ["bot:random", "bot:random", "bot:random"]);
    const rnd = rng(11);
    for (let i = 0; i < 3; i++) {
        await expect(page.locator(".hand.mine")).toBeVisible({ timeout: 20000 });
        await tapTurn(page, rnd);
    }
    // The log is out of sight, its button counts the lines not read yet.
    await expect(page.locator(".log")).not.toBeInViewport();
    const logBtn = page.locator(".drawer-btn").first();
    await expect(logBtn.locator(".unread")).toHaveText(/^[1-9]\d*$/);
    expect(await logBtn.getAttribute("aria-label")).toMatch(/^Log, \d+ new$/);
    let axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "))).toEqual([]);
    await logBtn.tap();
    await expect(page.locator(".log")).toBeInViewport();
    await expect(logBtn.locator(".unread")).toHaveCount(0);
    await expect(page.locator(".log p").last()).toBeInViewport();
    axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "))).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, "phone-log-sheet.png") });
    await page.locator(".drawer-close").tap();
    await expect(page.locator(".log")).not.toBeInViewport();
    // The chat button goes to the chat line; what is said counts as new for the closed sheet.
    await page.locator(".drawer-btn").nth(1).tap();
    await expect(page.locator("#chat-text")).toBeFocused();
    await page.fill("#chat-text", "hello table");
    await page.locator(".chat button[type=submit]").tap();
    await expect(page.locator(".log")).toContainText("Ann: hello table");
    await page.keyboard.press("Escape");
    await expect(page.locator(".log")).not.toBeInViewport();
    const x = await measure(page);
    expect(x.scrollHeight).toBeLessThanOrEqual(x.height);
    await ctx.close();
});

test("waiting for five friends at 360x640: the invite, the seats, joining; one screen", async ({ browser }) => {
    const opts = { viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true };
    const ctx = await browser.newContext(opts);
    const page = await ctx.newPage();
    const code = await createTable(page, srv.url, "Ann", ["person", "person", "person", "person", "person"]);
    const c2 = await browser.newContext(opts);
    const p2 = await c2.newPage();
    await p2.goto(srv.url + "#/t/" + code);
    await expect(p2.locator("#join-name")).toBeVisible();
    for (const p of [page, p2]) {
        await expect(p.locator(".invite-url")).toBeVisible();
        await expect(p.locator(".ring .seat")).toHaveCount(6);
        await expect(p.locator(".ring .pile")).toHaveCount(0);   // no cards before the first game
        const x = await measure(p);
        expect({ high: x.scrollHeight > x.height, wide: x.wide, small: x.small, crowded: x.crowded })
            .toEqual({ high: false, wide: [], small: [], crowded: [] });
    }
    await p2.screenshot({ path: path.join(ARTIFACTS, "phone-joining.png") });
    await ctx.close();
    await c2.close();
});

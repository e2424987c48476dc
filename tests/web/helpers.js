// SPDX-License-Identifier: MIT
// helpers.js - what the browser tests do through the page, as a person would.
import { expect } from "@playwright/test";

/** Creates a table from the home page and sits at seat 1 (index 0).
 * @param {import("@playwright/test").Page} page @param {string} url
 * @param {string} name @param {string[]} others each other seat: "person" or "bot:LEVEL"
 * @returns {Promise<string>} the table's code */
export async function createTable(page, url, name, others) {
    await page.goto(url);
    await page.fill("#name", name);
    await openForm(page);
    await page.selectOption("#players", String(others.length + 1));
    for (let i = 0; i < others.length; i++) await page.selectOption("#seat-" + (i + 1), others[i]);
    await page.click("form.create button[type=submit]");
    await expect(page.locator(".table-title .code")).toHaveText(/^[A-Z0-9]{6}$/);
    await expect(page.locator(".seat.you")).toHaveCount(1);
    return (await page.locator(".table-title .code").textContent()) || "";
}

/** Unfolds the home page's form with every option (folded under "Play now").
 * @param {import("@playwright/test").Page} page */
export async function openForm(page) {
    const d = page.locator("details.full-form");
    if (!(await d.evaluate((e) => /** @type {HTMLDetailsElement} */ (e).open))) await d.locator("summary").click();
    await expect(page.locator("form.create")).toBeVisible();
}

/** Joins a table by its link. @param {import("@playwright/test").Page} page
 * @param {string} url @param {string} code @param {string} name */
export async function joinTable(page, url, code, name) {
    await page.goto(url + "#/t/" + code);
    await page.fill("#join-name", name);
    await page.click("form.join button[type=submit]");
    await expect(page.locator(".seat.you")).toHaveCount(1);
}

/** Previews of lit seats that did not say what the move would do (the
 * server's `outcomes`), seen by playTurn: a test expects it empty.
 * @type {string[]} */
export const badPreviews = [];

/** Plays one turn if it is this page's, by clicking: a card then a lit seat,
 * or now and then Take (confirmed); a round's end over the seats is closed first. @param {import("@playwright/test").Page} page
 * @param {() => number} rnd @returns {Promise<boolean>} whether it played */
export async function playTurn(page, rnd) {
    if (!(await page.locator(".hand.mine").count())) return false;
    const take = page.locator(".action-bar button.take");
    const cards = page.locator(".hand button.card.playable");
    try {
        // The round's end lies over the seats until it is closed, as a person would.
        const close = page.locator(".panels .round-end .panel-close");
        if (await close.count()) await close.click({ timeout: 3000 });
        if ((await take.count()) && rnd() < 0.15) {
            await take.click({ timeout: 3000 });
            await page.click(".action-bar [data-focus=take-yes]", { timeout: 3000 });
        } else {
            const n = await cards.count();
            if (!n) return false;
            await cards.nth(Math.floor(rnd() * n)).click({ timeout: 3000 });
            const targets = page.locator(".target-btn");
            await expect(targets.first()).toBeVisible({ timeout: 3000 });
            const t = await targets.count();
            for (const text of await targets.allTextContents())
                if (!/\d|\S{4}/.test(text) || /undefined|NaN/.test(text)) badPreviews.push(text);
            await targets.nth(Math.floor(rnd() * t)).click({ timeout: 3000 });
        }
    } catch (e) {
        if (process.env.WEB_DEBUG) console.log("playTurn:", String(e).slice(0, 300));
        return false;   // the page changed under the click: the loop comes back
    }
    return true;
}

/** A seeded random number generator (xorshift), so a failing run can be replayed.
 * @param {number} seed */
export function rng(seed) {
    let x = seed >>> 0 || 1;
    return () => {
        x ^= x << 13; x >>>= 0;
        x ^= x >>> 17;
        x ^= x << 5; x >>>= 0;
        return x / 4294967296;
    };
}

/** The seats' boxes on the page, and whether any two overlap or one leaves
 * the window's width. @param {import("@playwright/test").Page} page */
export async function layoutProblems(page) {
    return page.evaluate(() => {
        const problems = [];
        const w = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth > w) problems.push("horizontal overflow: " +
            document.documentElement.scrollWidth + " > " + w);
        const boxes = [...document.querySelectorAll(".seat")].map((e) => e.getBoundingClientRect());
        boxes.forEach((a, i) => {
            if (a.left < 0 || a.right > w) problems.push("seat " + i + " leaves the window");
            boxes.forEach((b, j) => {
                if (j <= i) return;
                if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
                    problems.push("seats " + i + " and " + j + " overlap");
            });
        });
        return { problems, seats: boxes.length };
    });
}

/** Plays one turn if it is this page's, by tapping as on a phone: a card,
 * then a lit seat, or now and then Take (confirmed). A panel over the seats
 * (the round's end) is closed first, as a person would. Before each tap,
 * `check` measures the page. @param {import("@playwright/test").Page} page
 * @param {() => number} rnd @param {(what: string) => Promise<void>} [check]
 * @returns {Promise<boolean>} whether it played */
export async function tapTurn(page, rnd, check) {
    if (!(await page.locator(".hand.mine").count())) return false;
    try {
        const close = page.locator(".panels .round-end .panel-close");
        if (await close.count()) {
            if (check) await check("round-end");
            await close.tap({ timeout: 3000 });
        }
        if (check) await check("turn");
        const take = page.locator(".action-bar button.take");
        if ((await take.count()) && rnd() < 0.15) {
            await take.tap({ timeout: 3000 });
            await page.locator(".action-bar [data-focus=take-yes]").tap({ timeout: 3000 });
            return true;
        }
        const cards = page.locator(".hand button.card.playable");
        const n = await cards.count();
        if (!n) return false;
        await cards.nth(Math.floor(rnd() * n)).tap({ timeout: 3000 });
        const targets = page.locator(".target-btn");
        await expect(targets.first()).toBeVisible({ timeout: 3000 });
        if (check) await check("lit");
        await targets.nth(Math.floor(rnd() * (await targets.count()))).tap({ timeout: 3000 });
    } catch (e) {
        if (process.env.WEB_DEBUG) console.log("tapTurn:", String(e).slice(0, 300));
        return false;   // the page changed under the tap: the loop comes back
    }
    return true;
}

/** What a person on a small screen would meet now: the page's height and
 * width against the window's, every element that leaves the window's width,
 * the parts of a turn that are out of sight or smaller than a finger
 * (44 px) or under something else (covered), seats that spill or overlap
 * (crowded), and seats or piles out of the window or under something else
 * (hidden). @param {import("@playwright/test").Page} page */
export async function measure(page) {
    return page.evaluate(() => {
        const W = window.innerWidth;
        const H = window.innerHeight;
        const doc = document.documentElement;
        /** @param {Element} e */
        const name = (e) => e.tagName.toLowerCase() + (e.className && typeof e.className === "string"
            ? "." + e.className.trim().split(/\s+/).join(".") : "");
        const wide = [];
        for (const e of document.body.querySelectorAll("*")) {
            const r = e.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) continue;
            if (r.left < -0.5 || r.right > W + 0.5) wide.push(name(e) + " " + Math.round(r.left) + ".." + Math.round(r.right));
        }
        const unseen = [];
        const small = [];
        const covered = [];
        const parts = [".action-bar .prompt", ".action-bar button", ".hand button.card", ".target-btn", ".drawer-btn",
                       ".panels > section"];
        for (const sel of parts) for (const e of document.querySelectorAll(sel)) {
            const r = e.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) continue;   // not drawn (hidden): nothing to reach
            // a panel may scroll within its place over the seats: its top is in sight
            const bottom = sel === ".panels > section" ? r.top + 40 : r.bottom;
            if (r.top < -0.5 || bottom > H + 0.5 || r.left < -0.5 || r.right > W + 0.5)
                unseen.push(name(e) + " " + Math.round(r.top) + ".." + Math.round(r.bottom));
            if (e.tagName === "BUTTON" && (r.width < 43.5 || r.height < 43.5))
                small.push(name(e) + " " + Math.round(r.width) + "x" + Math.round(r.height));
            // under something else (a seat grown over the hand): looked at in the middle of what is in the window
            const x = (Math.max(r.left, 0) + Math.min(r.right, W)) / 2;
            const y = (Math.max(r.top, 0) + Math.min(r.bottom, H)) / 2;
            const at = document.elementFromPoint(x, y);
            if (at && !e.contains(at)) covered.push(name(e) + " under " + name(at));
        }
        // What a preview says but the name is never cut: nothing overflows it.
        const cut = [...document.querySelectorAll(".target-btn .preview")]
            .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right >
                           /** @type {Element} */ (e.parentElement).getBoundingClientRect().right + 0.5)
            .map((e) => e.textContent || "");
        // Seats that overlap, or whose content spills out of their box.
        const crowded = [];
        const ring = document.querySelector(".stage .ring");
        if (ring && ring.scrollHeight > ring.clientHeight + 1)
            crowded.push("the seats need " + (ring.scrollHeight - ring.clientHeight) + " px more than the table has");
        const seats = [...document.querySelectorAll(".ring .seat")];
        seats.forEach((a, i) => {
            const r = a.getBoundingClientRect();
            // (a lit seat's button covers the 2 px border too: not a spill)
            if (a.scrollHeight > a.clientHeight + 3) crowded.push("seat " + i + " spills " + (a.scrollHeight - a.clientHeight) + " px");
            seats.forEach((b, j) => {
                const q = b.getBoundingClientRect();
                if (j > i && r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom)
                    crowded.push("seats " + i + " and " + j + " overlap");
            });
        });
        // Seats and their piles out of the window, or with something else on
        // top (a panel, the hand): looked at in the middle and near each
        // corner (inside the rounded border), as a finger or an eye would.
        const hidden = [];
        for (const seat of seats) {
            const tag = "seat " + (/** @type {HTMLElement} */ (seat).dataset.seat || "?");
            for (const [e, what, d] of [[seat, tag, 6], [seat.querySelector(".pile"), tag + " pile", 3]]) {
                if (!e) continue;
                const r = /** @type {Element} */ (e).getBoundingClientRect();
                if (r.top < -0.5 || r.bottom > H + 0.5 || r.left < -0.5 || r.right > W + 0.5) {
                    hidden.push(what + " out of the window " + Math.round(r.top) + ".." + Math.round(r.bottom));
                    continue;
                }
                const dd = /** @type {number} */ (d);
                for (const [x, y] of [[r.left + r.width / 2, r.top + r.height / 2], [r.left + dd, r.top + dd],
                                      [r.right - dd, r.top + dd], [r.left + dd, r.bottom - dd], [r.right - dd, r.bottom - dd]]) {
                    const at = document.elementFromPoint(x, y);
                    if (!at || !seat.contains(at)) {
                        hidden.push(what + " under " + (at ? name(at) : "nothing") + " at " + Math.round(x) + "," + Math.round(y));
                        break;
                    }
                }
            }
        }
        return { scrollHeight: doc.scrollHeight, height: H, scrollWidth: doc.scrollWidth, width: doc.clientWidth,
                 wide, unseen, small, cut, crowded, hidden, covered };
    });
}

/** How many cards the page's hand holds (a button per kind, "×2" on those
 * held twice). @param {import("@playwright/test").Page} page @returns {Promise<number>} */
export async function handSize(page) {
    return page.locator(".hand button.card").evaluateAll((els) => els.reduce((n, e) =>
        n + Number((e.querySelector(".count")?.textContent || "×1").slice(1)), 0));
}

/** Lets the loaded page's service worker install, reloads the page under it,
 * and waits until its cache holds every one of `files` (fetched by the page,
 * or by the worker, once the page asks): what a page read offline needs.
 * @param {import("@playwright/test").Page} page @param {string[]} files */
export async function underWorker(page, ...files) {
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await page.reload();   // now under the worker, which keeps what the page fetches
    await page.waitForFunction(async (fs) => {
        const held = async (/** @type {string} */ f) => {
            for (const k of await caches.keys())
                if (await (await caches.open(k)).match(f)) return true;
            return false;
        };
        for (const f of fs) if (!await held(f)) return false;
        return true;
    }, files);
}

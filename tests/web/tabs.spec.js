// SPDX-License-Identifier: MIT
// Every tab of a browser is the same person, at 360x640 on a touch screen:
// two pages of ONE browser context (one local storage). B is opened first,
// nobody yet; A makes the person on #/me: B's header and home card say who
// you are without a reload, its connection says hello again with the key,
// and the table B then starts with "Play now" is the person's (a new
// connection's `person` lists it). A renames: B's header follows. A signs
// out: B (and a third tab on #/me, which stays there) shows nobody within a
// second or two, B's connection is told
// `signed_out` (the key ends there too) and B keeps playing its seat by its
// token. The key reached A alone, once, in the answer that made the person;
// no frame to B ever held it; no page error.
//
// Then B plays at a table as nobody when A makes a person: B's table says
// hello again with the key and keeps its seat (its token), playing on; A
// forgets the person: B is told `forgotten` and is nobody; a key the server
// refuses (bad_key) in one tab leaves every tab nobody.
//
// Two tabs make a person at once: B's answer (held back on its way) comes
// after A's key is in: B's wish waited on its own connection (no reconnect
// mid-wait), B's key is the browser's in the end, A follows it, and the
// table B made is that person's.
import { test, expect } from "@playwright/test";
import { startServer } from "./server.js";
import { playTurn, rng } from "./helpers.js";

/** @type {Awaited<ReturnType<typeof startServer>>} */
let srv;
test.beforeAll(async () => { srv = await startServer(); });
test.afterAll(async () => { await srv.stop(); });

const PHONE = { viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true, reducedMotion: /** @type {const} */ ("reduce") };

/** @typedef {{got: any[], sent: any[]}} Frames */

/** Every WebSocket frame a page receives and sends, parsed.
 * @param {import("@playwright/test").Page} page @returns {Frames} */
function sniff(page) {
    /** @type {Frames} */
    const f = { got: [], sent: [] };
    const parse = (/** @type {string|Buffer} */ p) => { try { return JSON.parse(String(p)); } catch { return { raw: String(p) }; } };
    page.on("websocket", (ws) => {
        ws.on("framereceived", (x) => f.got.push(parse(x.payload)));
        ws.on("framesent", (x) => f.sent.push(parse(x.payload)));
    });
    return f;
}

/** A new tab of ctx, its page errors said into `errors` under its label,
 * its frames sniffed. @param {import("@playwright/test").BrowserContext} ctx
 * @param {string} label @param {string[]} errors */
async function openTab(ctx, label, errors) {
    const page = await ctx.newPage();
    page.on("pageerror", (e) => errors.push(label + ": " + e.message));
    return { page, frames: sniff(page) };
}

test("every tab of a browser is the same person: made, seated, renamed, signed out", async ({ browser }) => {
    test.setTimeout(120000);
    const ctx = await browser.newContext(PHONE);
    /** @type {string[]} */
    const errors = [];
    const { page: pb, frames: fb } = await openTab(ctx, "B", errors);
    await pb.goto(srv.url);
    await expect(pb.locator(".person-card")).toContainText("Keep your games and a rating");
    await expect(pb.locator(".top .me-badge")).toHaveCount(0);

    // A makes the person on #/me.
    const { page: pa, frames: fa } = await openTab(ctx, "A", errors);
    await pa.goto(srv.url + "#/me");
    await pa.fill("#person-new-name", "Ann");
    await pa.locator(".people-page form[aria-labelledby=new-title] button[type=submit]").click();
    await expect(pa.locator(".person-tools")).toBeVisible();
    const key = await pa.evaluate(() => localStorage.getItem("figaro.person-key")) || "";
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    const id = fa.got.find((m) => m.type === "person" && m.key).id;

    // (a) B follows without a reload, and says hello again with the key.
    await expect(pb.locator(".top .me-badge")).toContainText("Ann", { timeout: 2000 });
    await expect(pb.locator(".person-card")).toContainText("You: Ann");
    await expect.poll(() => fb.sent.some((m) => m.type === "hello" && m.key === key), { timeout: 5000 }).toBe(true);
    await expect.poll(() => fb.got.some((m) => m.type === "person" && m.id === id)).toBe(true);

    // ... and the seat B takes now is the person's.
    await pb.fill("#name", "Ann");
    await pb.locator("button.play-now").click();
    await expect(pb.locator(".seat.you")).toHaveCount(1);
    const code = (await pb.locator(".table-title .code").textContent()) || "";
    expect(code).toMatch(/^[A-Z0-9]{6}$/);
    await pa.reload();   // a new connection: its `person` lists the person's seats
    await expect.poll(() => fa.got.some((m) => m.type === "person" && m.id === id &&
        (m.seats || []).some((/** @type {any} */ s) => s.table === code))).toBe(true);
    await expect(pa.locator(".person-tools")).toBeVisible();

    // (c) A renames: B follows (its header, and what it keeps).
    await pa.fill("#person-name", "Ann B");
    await pa.locator(".person-tools form.rename button").click();
    await expect(pb.locator(".top .me-badge")).toContainText("Ann B", { timeout: 2000 });
    await expect.poll(() => pb.evaluate(() => JSON.parse(localStorage.getItem("figaro.person") || "{}").name)).toBe("Ann B");

    // (b) A signs out: B is nobody within a second or two, its connection is told so;
    // a third tab on #/me stays there, offering to make a person.
    const { page: pc } = await openTab(ctx, "C", errors);
    await pc.goto(srv.url + "#/me");
    await expect(pc.locator(".people-page h1")).toHaveText("Ann B");
    const seenB = fb.got.length, sentB = fb.sent.length;
    await pa.locator("[data-focus=sign-out]").click();
    await expect(pc.locator("#person-new-name")).toBeVisible({ timeout: 2000 });
    await expect(pa).toHaveURL(/#\/$/);   // the tab that asked goes home
    expect(new URL(pc.url()).hash).toBe("#/me");
    await expect(pb.locator(".top .me-badge")).toHaveCount(0, { timeout: 2000 });
    await expect.poll(() => fb.got.slice(seenB).some((m) => m.type === "signed_out"), { timeout: 2000 }).toBe(true);
    expect(await pb.evaluate(() => localStorage.getItem("figaro.person-key"))).toBeNull();
    // B's hellos since, if any, carry no key; B still plays its seat.
    expect(fb.sent.slice(sentB).filter((m) => m.type === "hello" && m.key)).toEqual([]);
    await expect(pb.locator(".seat.you")).toHaveCount(1);
    const rnd = rng(7);
    const acts = () => fb.sent.slice(sentB).filter((m) => m.type === "act").length;
    for (let i = 0; i < 80 && !acts(); i++) if (!(await playTurn(pb, rnd))) await pb.waitForTimeout(250);
    expect(acts()).toBeGreaterThan(0);
    await pb.waitForTimeout(500);
    expect(fb.got.slice(seenB).filter((m) => m.type === "error")).toEqual([]);
    await pb.goto(srv.url);
    await expect(pb.locator(".person-card")).toContainText("Keep your games and a rating");

    // The key went to A once, in person_new's answer; never to B.
    const withKey = (/** @type {any[]} */ fs) => fs.filter((m) => JSON.stringify(m).includes(key));
    expect(withKey(fa.got).map((m) => m.type)).toEqual(["person"]);
    expect(withKey(fb.got)).toEqual([]);
    expect(withKey(fb.sent).every((m) => m.type === "hello")).toBe(true);
    expect(errors).toEqual([]);
    await ctx.close();
});

/** Plays at least one move of B's seat after frame `from` of B's sent frames.
 * @param {import("@playwright/test").Page} pb @param {Frames} fb @param {number} from */
async function playsOn(pb, fb, from) {
    const rnd = rng(from);
    const acts = () => fb.sent.slice(from).filter((m) => m.type === "act").length;
    for (let i = 0; i < 80 && !acts(); i++) if (!(await playTurn(pb, rnd))) await pb.waitForTimeout(250);
    expect(acts()).toBeGreaterThan(0);
}

test("a tab at a table follows a person made, forgotten, refused elsewhere, and keeps its seat", async ({ browser }) => {
    test.setTimeout(120000);
    const ctx = await browser.newContext(PHONE);
    /** @type {string[]} */
    const errors = [];
    const { page: pb, frames: fb } = await openTab(ctx, "B", errors);
    await pb.goto(srv.url);
    await pb.locator("button.play-now").click();   // no name given: nobody, sitting as "Player"
    await expect(pb.locator(".seat.you")).toHaveCount(1);
    expect(fb.sent.some((m) => m.type === "person_new")).toBe(false);
    const code = (await pb.locator(".table-title .code").textContent()) || "";

    const { page: pa, frames: fa } = await openTab(ctx, "A", errors);
    await pa.goto(srv.url + "#/me");
    await pa.fill("#person-new-name", "Bea");
    const sentB = fb.sent.length;
    await pa.locator(".people-page form[aria-labelledby=new-title] button[type=submit]").click();
    await expect(pa.locator(".person-tools")).toBeVisible();
    const key = await pa.evaluate(() => localStorage.getItem("figaro.person-key")) || "";
    await expect(pb.locator(".top .me-badge")).toContainText("Bea", { timeout: 2000 });
    // B's table said hello again with the key and its seat's token: the seat is still its own.
    await expect.poll(() => fb.sent.slice(sentB).some((m) => m.type === "hello" && m.key === key &&
        (m.seats || []).some((/** @type {any} */ s) => s.table === code && s.token))).toBe(true);
    await expect.poll(() => fb.got.some((m) => m.type === "person" && m.name === "Bea")).toBe(true);
    await expect(pb.locator(".seat.you")).toHaveCount(1);
    await playsOn(pb, fb, sentB);

    // A forgets the person: B is told so, and is nobody.
    const seenB = fb.got.length;
    await pa.locator("button[data-focus=forget]").click();
    await pa.locator("button[data-focus=forget-yes]").click();
    await expect(pa.locator(".people-page h1")).toHaveText("Forgotten");
    await expect(pb.locator(".top .me-badge")).toHaveCount(0, { timeout: 2000 });
    await expect.poll(() => fb.got.slice(seenB).some((m) => m.type === "forgotten"), { timeout: 2000 }).toBe(true);
    await expect(pb.locator(".seat.you")).toHaveCount(1);
    await playsOn(pb, fb, fb.sent.length);

    // A key the server does not know, put in A's storage: B says hello with it,
    // is refused, and every tab is nobody again.
    await pa.goto(srv.url);
    const bogus = "0123456789abcdef0123456789abcdef";
    const helloB = fb.sent.length;
    await pa.evaluate((k) => {
        localStorage.setItem("figaro.person", JSON.stringify({ id: "ZZZZZZZZZZ", name: "Nobody", mu: 25, sigma: 8,
            shown: 0, between: ["", "beginner"], rated: 0, hidden: false, seats: [] }));
        localStorage.setItem("figaro.person-key", k);
    }, bogus);
    await expect.poll(() => fb.sent.slice(helloB).some((m) => m.type === "hello" && m.key === bogus)).toBe(true);
    await expect.poll(() => fb.got.some((m) => m.type === "error" && m.code === "bad_key")).toBe(true);
    await expect.poll(() => pa.evaluate(() => localStorage.getItem("figaro.person-key"))).toBeNull();
    await expect(pa.locator(".person-card")).toContainText("Keep your games and a rating");
    await expect(pb.locator(".top .me-badge")).toHaveCount(0);
    await expect(pb.locator(".seat.you")).toHaveCount(1);
    // No loop: B said hello with the bogus key once, and once more without.
    await pb.waitForTimeout(1500);
    const hellos = fb.sent.slice(helloB).filter((m) => m.type === "hello");
    expect(hellos.filter((m) => m.key === bogus).length).toBe(1);
    expect(hellos.length).toBeLessThanOrEqual(2);
    const withKey = (/** @type {any[]} */ fs) => fs.filter((m) => JSON.stringify(m).includes(key));
    expect(withKey(fb.got)).toEqual([]);
    expect(withKey(fa.got).map((m) => m.type)).toEqual(["person"]);
    expect(errors).toEqual([]);
    await ctx.close();
});

test("two tabs making a person at once: the one still waiting keeps its own, the other follows", async ({ browser }) => {
    test.setTimeout(120000);
    const ctx = await browser.newContext(PHONE);
    /** @type {string[]} */
    const errors = [];
    const { page: pb, frames: fb } = await openTab(ctx, "B", errors);
    /** @type {(() => void)|null} */
    let release = null;
    // B's connection, with the answer to its person_new held back until released.
    await pb.routeWebSocket(/\/ws/, (ws) => {
        const server = ws.connectToServer();
        ws.onMessage((text) => server.send(String(text)));
        server.onMessage((text) => {
            const m = JSON.parse(String(text));
            if (m.type === "person" && m.key && !release) release = () => ws.send(String(text));
            else ws.send(String(text));
        });
    });
    await pb.goto(srv.url);
    await pb.fill("#name", "Cy");
    await pb.locator("button.play-now").click();
    await expect.poll(() => release !== null).toBe(true);   // B waits for its person

    const { page: pa, frames: fa } = await openTab(ctx, "A", errors);
    await pa.goto(srv.url + "#/me");
    await pa.fill("#person-new-name", "Dee");
    await pa.locator(".people-page form[aria-labelledby=new-title] button[type=submit]").click();
    await expect(pa.locator(".person-tools")).toBeVisible();
    await expect(pb.locator(".top .me-badge")).toContainText("Dee", { timeout: 2000 });   // said at once
    await pb.waitForTimeout(1500);
    expect(fb.sent.filter((m) => m.type === "hello").length).toBe(1);   // B's wait was not cut off
    expect(fb.sent.some((m) => m.type === "create")).toBe(false);

    /** @type {() => void} */ (/** @type {unknown} */ (release))();
    await expect(pb.locator(".seat.you")).toHaveCount(1);
    const code = (await pb.locator(".table-title .code").textContent()) || "";
    const made = fb.got.find((m) => m.type === "person" && m.key);
    expect(made.name).toBe("Cy");
    expect(await pb.evaluate(() => localStorage.getItem("figaro.person-key"))).toBe(made.key);
    // B's create went on the connection its person was made on: once.
    const home = fb.sent.slice(0, fb.sent.findIndex((m) => m.type === "create") + 1);
    expect(home.map((m) => m.type).filter((t) => t !== "lobby")).toEqual(["hello", "person_new", "create"]);
    // A follows B's person: its header, and its connection signed in as Cy.
    await expect(pa.locator(".top .me-badge")).toContainText("Cy", { timeout: 3000 });
    await expect.poll(() => fa.sent.some((m) => m.type === "hello" && m.key === made.key)).toBe(true);
    await pa.reload();
    await expect.poll(() => fa.got.some((m) => m.type === "person" && m.id === made.id &&
        (m.seats || []).some((/** @type {any} */ s) => s.table === code))).toBe(true);
    expect(errors).toEqual([]);
    await ctx.close();
});

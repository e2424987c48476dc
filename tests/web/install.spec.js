// SPDX-License-Identifier: MIT
// Installable: the web app manifest and its icons, the service
// worker that keeps the page's own files (never the protocol) and opens the
// page without the network, served with the security headers of every file;
// the invitation shared with the share sheet where there is one, else copied.
import { test, expect } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { startServer, ROOT } from "./server.js";
import { createTable } from "./helpers.js";

/** @type {Awaited<ReturnType<typeof startServer>>} */
let srv;
test.beforeAll(async () => { srv = await startServer(); });
test.afterAll(async () => { await srv.stop(); });

/** @param {Record<string, string>} h */
function secured(h) {
    expect(h["content-security-policy"]).toMatch(/^default-src 'self'/);
    expect(h["content-security-policy"]).toContain("worker-src 'self'");
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["x-frame-options"]).toBe("DENY");
    expect(h["referrer-policy"]).toBe("no-referrer");
}

test("the manifest, its icons and the service worker are served as they should", async ({ request }) => {
    const man = await request.get(srv.url + "manifest.webmanifest");
    expect(man.status()).toBe(200);
    expect(man.headers()["content-type"]).toBe("application/manifest+json");
    secured(man.headers());
    const m = await man.json();
    expect(m.name).toBe("Figaro");
    expect(m.display).toBe("standalone");
    expect(m.start_url).toBe("./");
    const sizes = [];
    for (const icon of m.icons) {
        const r = await request.get(srv.url + icon.src);
        expect(r.status()).toBe(200);
        expect(r.headers()["content-type"]).toBe(icon.type);
        secured(r.headers());
        if (icon.type === "image/png") {
            const b = await r.body();
            expect(b.subarray(1, 4).toString()).toBe("PNG");
            const w = b.readUInt32BE(16), h = b.readUInt32BE(20);
            expect(icon.sizes).toBe(w + "x" + h);
            sizes.push(w);
        }
    }
    expect(sizes.sort((a, b) => a - b)).toEqual([192, 512]);
    const sw = await request.get(srv.url + "sw.js");
    expect(sw.headers()["content-type"]).toBe("text/javascript; charset=utf-8");
    secured(sw.headers());
});

test("the service worker caches the page's files, never the protocol, and the page opens offline", async ({ browser }) => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(srv.url);
    await expect(page.locator(".play-now")).toBeVisible();
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    // The protocol through the page (the worker sees these requests).
    await page.evaluate(async () => {
        for (const p of ["/healthz", "/metrics", "/tables/ABCDEF/games/1.json", "/tables/ABCDEF/games/1.fgn"])
            await fetch(p).catch(() => null);
    });
    await page.reload();   // now under the worker
    await expect(page.locator(".play-now")).toBeVisible();
    const cached = await page.evaluate(async () => {
        const out = [];
        for (const k of await caches.keys())
            for (const r of await (await caches.open(k)).keys()) out.push(new URL(r.url).pathname);
        return out;
    });
    // Every file of the page (web/, the worker itself and the build's gzip
    // copies aside: the server sends a copy as its file) is kept ...
    const files = fs.readdirSync(path.join(ROOT, "web"), { withFileTypes: true })
        .filter((e) => e.isFile() && e.name !== "sw.js" && !e.name.endsWith(".gz")).map((e) => "/" + e.name);
    for (const f of files) expect(cached).toContain(f);
    expect(cached).toContain("/");
    // ... and nothing of the protocol.
    for (const p of cached) expect(p).not.toMatch(/^\/(ws|tables|replay|metrics|healthz)(\/|$)/);
    // Without the network, the page still opens.
    await ctx.setOffline(true);
    await page.reload();
    await expect(page.locator(".play-now")).toBeVisible();
    await expect(page.locator(".brand")).toHaveText("Figaro");
    await ctx.setOffline(false);
    await ctx.close();
});

test("the invitation goes to the share sheet where there is one, else to the clipboard", async ({ browser }) => {
    // A phone: navigator.share exists (stubbed here, to see what it was given).
    const phone = await browser.newContext();
    await phone.addInitScript(() => {
        /** @type {any} */ (window).shared = [];
        Object.defineProperty(navigator, "share", { configurable: true, value: (/** @type {any} */ data) => {
            /** @type {any} */ (window).shared.push(data);
            return Promise.resolve();
        } });
    });
    const p = await phone.newPage();
    const code = await createTable(p, srv.url, "Ann", ["person", "bot:random"]);
    const button = p.locator(".invite button[data-focus=copy]");
    await expect(button).toHaveText("Share");
    await button.click();
    await expect.poll(() => p.evaluate(() => /** @type {any} */ (window).shared.length)).toBe(1);
    const data = await p.evaluate(() => /** @type {any} */ (window).shared[0]);
    expect(data.url).toMatch(new RegExp("#/t/" + code + "$"));
    expect(data.url).toBe(await p.locator(".invite-url").inputValue());
    await phone.close();

    // A desktop without a share sheet: copied.
    const desk = await browser.newContext();
    await desk.grantPermissions(["clipboard-read", "clipboard-write"], { origin: srv.url.replace(/\/$/, "") });
    await desk.addInitScript(() => { delete (/** @type {any} */ (Navigator.prototype)).share; });
    const d = await desk.newPage();
    const code2 = await createTable(d, srv.url, "Bob", ["person", "bot:random"]);
    const copy = d.locator(".invite button[data-focus=copy]");
    await expect(copy).toHaveText("Copy");
    await copy.click();
    await expect(copy).toHaveText("Copied");
    expect(await d.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp("#/t/" + code2 + "$"));
    await desk.close();
});

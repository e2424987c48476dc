// SPDX-License-Identifier: MIT
// failover.spec.js - a table outlives the server that drove it, as a person
// in the page meets it: three `figaro serve` on one throwaway PostgreSQL
// behind HAProxy with the shipped deploy/haproxy.cfg (tests/net/cluster.py,
// which starts them as tests/net/test_pg.py does), a person plays in the page,
// the server that drives her table is killed with SIGKILL, and the page comes
// back by itself -- following `moved` with &node= as web/table.js does
// (docs/protocol.md) -- to the server that took the table over, with her hand
// and the game's log as they were, and the game goes on there.
import { test, expect } from "@playwright/test";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { ROOT, figaro } from "./server.js";
import { joinTable, playTurn, rng } from "./helpers.js";

/** The cluster: one JSON line answers each command (cluster.py's list). */
function startCluster() {
    const py = fs.existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
    const proc = spawn(py, [path.join(ROOT, "tests", "net", "cluster.py"), "3"], {
        env: { ...process.env, FIGARO: figaro(), PYTHONDONTWRITEBYTECODE: "1" },
        stdio: ["pipe", "pipe", "inherit"],
    });
    /** @type {any[]} */
    const got = [];
    /** @type {((v: any) => void)[]} */
    const waiting = [];
    let exited = false;
    readline.createInterface({ input: proc.stdout }).on("line", (line) => {
        const v = JSON.parse(line);
        const w = waiting.shift();
        if (w) w(v); else got.push(v);
    });
    proc.on("exit", () => {
        exited = true;
        for (const w of waiting.splice(0)) w({ error: "cluster.py exited" });
    });
    /** The next answer. @returns {Promise<any>} */
    const next = () => {
        if (got.length) return Promise.resolve(got.shift());
        if (exited) return Promise.resolve({ error: "cluster.py exited" });
        return new Promise((resolve) => waiting.push(resolve));
    };
    return {
        next,
        /** @param {string} line */
        async ask(line) {
            proc.stdin.write(line + "\n");
            const v = await next();
            if (v.error) throw new Error(line + ": " + v.error);
            return v;
        },
    };
}

/** @type {ReturnType<typeof startCluster>} */
let cluster;
/** @type {string} */
let url;
test.beforeAll(async () => {
    test.setTimeout(120000);
    cluster = startCluster();
    const up = await cluster.next();
    if (!up.url) throw new Error("cluster.py did not start: " + JSON.stringify(up));
    url = up.url;
});
test.afterAll(async () => {
    const done = await cluster.ask("stop");
    expect(done.failures).toEqual([]);   // every server exited cleanly, no sanitizer report
});

/** The game's lines of the page's log (not the page's own notes, not chat).
 * @param {import("@playwright/test").Page} page */
async function gameLog(page) {
    return page.locator(".log p:not(.log-me):not(.log-chat)").allTextContents();
}

test("the server driving the table is killed: the page comes back by itself, hand and log intact", async ({ browser }) => {
    test.setTimeout(150000);
    const ctx = await browser.newContext({ reducedMotion: "reduce" });
    const page = await ctx.newPage();
    /** @type {string[]} */
    const urls = [];
    let table = "", node = "";
    /** @type {string[]} */
    const moved = [];
    /** @type {number[]} the connections (indexes in urls) told the table's state */
    const caught = [];
    page.on("websocket", (ws) => {
        const i = urls.length;
        urls.push(ws.url());
        ws.on("framereceived", (f) => {
            const m = JSON.parse(String(f.payload));
            if (m.type === "error" && m.code === "moved") moved.push(m.node);
            if ((m.type === "snapshot" || m.type === "caught_up") && m.table === table) caught.push(i);
        });
    });
    // A table made on a server HAProxy's hash of its code does not pick: the
    // page is told `moved` and follows it to that server.
    ({ table, node } = await cluster.ask("table"));
    await joinTable(page, url, table, "Ann");
    expect(moved).toContain(node);
    expect(urls.some((u) => u.includes("table=" + table + "&node=" + node))).toBe(true);

    const rnd = rng(26);
    const turn = page.locator(".hand.mine button.card.playable").first();
    for (let moves = 0; moves < 3;) {
        await expect(turn).toBeVisible({ timeout: 30000 });
        if (await playTurn(page, rnd)) moves++;
        await page.waitForTimeout(100);
    }
    // Her turn (the bots wait for her): the hand and the log as they are.
    await expect(turn).toBeVisible({ timeout: 30000 });
    const hand = await page.locator(".hand.mine .card").allTextContents();
    const log = await gameLog(page);
    expect(hand.length).toBeGreaterThan(0);
    expect(log.length).toBeGreaterThan(3);
    expect((await cluster.ask("owner " + table)).owner).toBe(node);
    const before = urls.length;

    // The page says the connection is lost, and comes back by itself. The
    // notice may last less than a second (the lease here is 2 s), shorter than
    // a poll of expect() may see: the page itself watches for it.
    await page.evaluate(() => {
        const w = /** @type {any} */ (window);
        w.sawDown = false;
        const look = () => {
            const down = document.querySelector(".table-status .down");
            if (down && down.getClientRects().length > 0) w.sawDown = true;
        };
        new MutationObserver(look).observe(document.body,
            { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await cluster.ask("kill " + node);
    await expect.poll(() => page.evaluate(() => /** @type {any} */ (window).sawDown),
        { timeout: 15000 }).toBe(true);
    // Back at the table: a connection made after the kill is told its state
    // (a snapshot: another server, another epoch), which only the server that
    // took the table over can do. (The notice alone
    // says too little: it goes as soon as a connection opens, and one opened
    // before the lease ran out is told `moved` and closed again.)
    await expect.poll(() => caught.some((i) => i >= before), { timeout: 40000 }).toBe(true);
    await expect(page.locator(".table-status .down")).toHaveCount(0, { timeout: 40000 });
    await expect(turn).toBeVisible({ timeout: 30000 });
    expect(await page.locator(".hand.mine .card").allTextContents()).toEqual(hand);
    expect((await gameLog(page)).slice(0, log.length)).toEqual(log);   // then "Ann is back."
    expect(urls.length).toBeGreaterThan(before);
    const now = (await cluster.ask("owner " + table)).owner;
    expect(now).not.toBe(node);

    // The game goes on at the new server: her moves and the bots' are told.
    for (let moves = 0; moves < 3;) {
        await expect(turn).toBeVisible({ timeout: 30000 });
        if (await playTurn(page, rnd)) moves++;
        await page.waitForTimeout(100);
    }
    await expect.poll(async () => (await gameLog(page)).length).toBeGreaterThan(log.length + 3);
    expect((await gameLog(page)).slice(0, log.length)).toEqual(log);
    expect((await cluster.ask("owner " + table)).owner).toBe(now);
    await ctx.close();
});

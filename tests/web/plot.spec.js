// SPDX-License-Identifier: MIT
// plot.spec.js - the rating plot's scale (web/plot.js), in Node: round ticks
// (1, 2 or 5 times a power of ten) that cover every value, a span around a
// single value, and points placed inside the plot, the higher rating higher.
// The drawing itself is checked in a browser against the server's numbers
// (people.spec.js).
import { test, expect } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./server.js";

// web/ has no package.json: loaded as the module it is, from its text.
const src = fs.readFileSync(path.join(ROOT, "web", "plot.js"), "utf8");
const { niceTicks, layout, WIDTH, HEIGHT } = await import("data:text/javascript;base64," + Buffer.from(src).toString("base64"));

test("ticks are round, evenly spaced and cover the values", () => {
    for (const [lo, hi] of [[-2.6, 19.84], [0, 1], [12.3, 12.9], [-40, -3], [0.01, 0.07], [3, 250]]) {
        const t = niceTicks(lo, hi);
        expect(t.lo).toBeLessThanOrEqual(lo);
        expect(t.hi).toBeGreaterThanOrEqual(hi);
        expect(t.ticks[0]).toBeCloseTo(t.lo, 9);
        expect(t.ticks[t.ticks.length - 1]).toBeCloseTo(t.hi, 9);
        expect(t.ticks.length).toBeGreaterThanOrEqual(3);
        expect(t.ticks.length).toBeLessThanOrEqual(7);
        const step = t.ticks[1] - t.ticks[0];
        const mant = step / Math.pow(10, Math.floor(Math.log10(step) + 1e-9));
        expect([1, 2, 5].some((m) => Math.abs(mant - m) < 1e-6)).toBe(true);
        for (let i = 1; i < t.ticks.length; i++) expect(t.ticks[i] - t.ticks[i - 1]).toBeCloseTo(step, 9);
    }
    expect(niceTicks(-2.6, 19.84).ticks).toEqual([-10, 0, 10, 20]);
    expect(niceTicks(5, 5).ticks).toEqual([4, 4.5, 5, 5.5, 6]);   // one value: a span around it
});

test("points fall inside the plot, the higher rating higher, the first left of the last", () => {
    const pts = [{ shown: -2.6, mu: 19.8 }, { shown: 1.4, mu: 21.0 }, { shown: 0.2, mu: 20.5 }];
    const { xOf, yOf } = layout(pts);
    for (let i = 0; i < pts.length; i++) for (const v of [pts[i].shown, pts[i].mu]) {
        expect(xOf(i)).toBeGreaterThan(0);
        expect(xOf(i)).toBeLessThan(WIDTH);
        expect(yOf(v)).toBeGreaterThanOrEqual(0);
        expect(yOf(v)).toBeLessThanOrEqual(HEIGHT);
    }
    expect(xOf(0)).toBeLessThan(xOf(2));
    expect(yOf(1.4)).toBeLessThan(yOf(0.2));
    expect(layout([pts[0]]).xOf(0)).toBeCloseTo((layout(pts).xOf(0) + layout(pts).xOf(2)) / 2, 6);   // one game: in the middle
});

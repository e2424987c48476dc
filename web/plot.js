// SPDX-License-Identifier: MIT
// plot.js - a person's rating over their rated games, as an SVG the page
// draws (no library, nothing from outside): the shown rating (mu - 3 sigma)
// as a line with a dot a game, mu dashed above it, the band between them
// shaded (it narrows as the server grows sure). It scales to the width it is
// given (a phone's 360 px and up) and keeps its text at a size a phone reads.
// For screen readers the SVG has a title and a description saying where the
// rating went; the page gives the numbers themselves in a table beside it
// (people_page.js).

/** @typedef {{shown: number, mu: number}} RatingPoint */

const NS = "http://www.w3.org/2000/svg";
export const WIDTH = 320, HEIGHT = 180;
const M = { left: 34, right: 10, top: 10, bottom: 24 };

/** Round ticks covering lo..hi, about `want` of them: steps of 1, 2 or 5
 * times a power of ten. @param {number} lo @param {number} hi @param {number} [want]
 * @returns {{lo: number, hi: number, ticks: number[]}} */
export function niceTicks(lo, hi, want = 4) {
    if (!(hi > lo)) {   // one value (or none): a span around it
        lo = (Number.isFinite(lo) ? lo : 0) - 1;
        hi = lo + 2;
    }
    const raw = (hi - lo) / want;
    const pow = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((k) => k * pow).find((s) => s >= raw) || 10 * pow;
    const a = Math.floor(lo / step) * step, b = Math.ceil(hi / step) * step;
    const ticks = [];
    for (let t = a; t <= b + step / 2; t += step) ticks.push(Math.round(t / step) * step);
    return { lo: a, hi: b, ticks };
}

/** Where each point goes in the plot's box: x by game (evenly), y by value.
 * @param {RatingPoint[]} pts */
export function layout(pts) {
    const values = pts.flatMap((p) => [p.shown, p.mu]).filter(Number.isFinite);
    const y = niceTicks(Math.min(...values), Math.max(...values));
    const w = WIDTH - M.left - M.right, hgt = HEIGHT - M.top - M.bottom;
    const xOf = (/** @type {number} */ i) => M.left + (pts.length > 1 ? (i * w) / (pts.length - 1) : w / 2);
    const yOf = (/** @type {number} */ v) => M.top + hgt - ((v - y.lo) * hgt) / (y.hi - y.lo);
    return { y, xOf, yOf };
}

/** @param {string} tag @param {Object<string, string|number>} attrs @param {string} [text] */
function el(tag, attrs, text) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
}

/** @param {number} v */
const fix = (v) => v.toFixed(1);

/** The plot. @param {RatingPoint[]} pts oldest first (at least one)
 * @param {{id: string, title: string, desc: string, first: string, last: string}} text
 * the title and the description said to screen readers, the x axis's two ends
 * @returns {SVGSVGElement} */
export function ratingPlot(pts, text) {
    const { y, xOf, yOf } = layout(pts);
    const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (el("svg", {
        viewBox: "0 0 " + WIDTH + " " + HEIGHT, class: "rating-plot", role: "img",
        "aria-labelledby": text.id + "-title " + text.id + "-desc" })));
    svg.append(el("title", { id: text.id + "-title" }, text.title), el("desc", { id: text.id + "-desc" }, text.desc));
    const grid = el("g", { class: "plot-grid", "aria-hidden": "true" });
    for (const t of y.ticks) {
        grid.append(el("line", { x1: M.left, x2: WIDTH - M.right, y1: yOf(t), y2: yOf(t) }));
        grid.append(el("text", { x: M.left - 4, y: yOf(t) + 4, "text-anchor": "end" }, String(Number(t.toPrecision(12)))));
    }
    grid.append(el("text", { x: M.left, y: HEIGHT - 6, "text-anchor": "start" }, text.first));
    if (pts.length > 1) grid.append(el("text", { x: WIDTH - M.right, y: HEIGHT - 6, "text-anchor": "end" }, text.last));
    svg.append(grid);
    const line = (/** @type {(p: RatingPoint) => number} */ f) =>
        pts.map((p, i) => (i ? "L" : "M") + fix(xOf(i)) + " " + fix(yOf(f(p)))).join("");
    const back = pts.map((p, i) => "L" + fix(xOf(i)) + " " + fix(yOf(p.mu))).reverse().join("");
    svg.append(el("path", { class: "plot-band", d: line((p) => p.shown) + back + "Z", "aria-hidden": "true" }));
    svg.append(el("path", { class: "plot-mu", d: line((p) => p.mu), "aria-hidden": "true" }));
    svg.append(el("path", { class: "plot-shown", d: line((p) => p.shown), "aria-hidden": "true" }));
    const dots = el("g", { class: "plot-dots", "aria-hidden": "true" });
    pts.forEach((p, i) => dots.append(el("circle", { cx: fix(xOf(i)), cy: fix(yOf(p.shown)), r: pts.length > 40 ? 1.5 : 3 })));
    svg.append(dots);
    return svg;
}

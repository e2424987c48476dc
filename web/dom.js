// SPDX-License-Identifier: MIT
// dom.js - small helpers to build the page's elements without a framework.

/** An element with attributes and children. Attributes: "class", "text"
 * (its text), "on<event>" (a listener), anything else set as an attribute
 * (null or false: not set, true: set empty).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Object<string, any>} [attrs] @param {(Node|string|null|undefined|false)[]} [kids]
 * @returns {HTMLElementTagNameMap[K]} */
export function h(tag, attrs = {}, kids = []) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
        if (v === null || v === undefined || v === false) continue;
        if (k === "class") el.className = v;
        else if (k === "text") el.textContent = v;
        else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
        else el.setAttribute(k, v === true ? "" : String(v));
    }
    for (const kid of kids) if (kid !== null && kid !== undefined && kid !== false) el.append(kid);
    return el;
}

/** Replaces an element's children. @param {Element} el @param {(Node|string)[]} kids */
export function fill(el, kids) {
    el.replaceChildren(...kids);
}

/** Whether the person asked for less motion. */
export function reducedMotion() {
    return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The King's crown, drawn (no font needed). @param {string} label */
export function crown(label) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 24 18");
    svg.setAttribute("class", "crown");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    const title = document.createElementNS(ns, "title");
    title.textContent = label;
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", "M2 16 L1 4 L7 9 L12 1 L17 9 L23 4 L22 16 Z");
    svg.append(title, path);
    return svg;
}

/** Arrows, Home and End move the focus among the buttons of `sel` in `box`
 * (a roving tab stop: only the focused one is in the tab order), as in the
 * hand of the table and of the lessons.
 * @param {HTMLElement} box @param {string} sel @param {KeyboardEvent} e */
export function rovingKey(box, sel, e) {
    const all = /** @type {HTMLElement[]} */ ([...box.querySelectorAll(sel)]);
    const i = all.indexOf(/** @type {HTMLElement} */ (e.target));
    if (i < 0) return;
    const j = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0,
                End: all.length - 1 }[e.key];
    if (j === undefined) return;
    e.preventDefault();
    const next = all[(j + all.length) % all.length];
    for (const b of all) b.tabIndex = b === next ? 0 : -1;
    next.focus();
}

/** Adds the style sheet `href` to the page once, and resolves when it is in
 * (or failed: the page still works, plainer). A page loaded when asked for
 * (the lessons, the replays, the people's pages) brings its own sheet, which
 * a table's page does not carry; it is drawn once its sheet is in, so that
 * nothing is laid out or measured without it. @param {string} href
 * @returns {Promise<void>} */
export function addStyle(href) {
    const old = /** @type {HTMLLinkElement|null} */ (document.querySelector(`link[href='${href}']`));
    if (old && old.sheet) return Promise.resolve();
    const link = old || /** @type {HTMLLinkElement} */ (h("link", { rel: "stylesheet", href }));
    const done = new Promise((resolve) => {
        link.addEventListener("load", () => resolve(undefined), { once: true });
        link.addEventListener("error", () => resolve(undefined), { once: true });
    });
    if (!old) document.head.append(link);
    return /** @type {Promise<void>} */ (done);
}

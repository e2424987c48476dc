// SPDX-License-Identifier: MIT
// rules.js - "How to play": the rules in brief and the player aid, in a sheet
// over the page (the table stays as it is beneath it: the game goes on and
// the turn waits), or as a page of its own (#/rules, #/rules/R13).
//
// The text is the terminal's (`figaro rules`, src/host/rules_text.c, in the
// catalogues of po/): the build writes it to rules/LANG.json with
// `figaro rules --json` (the Makefile's WEBRULES), so the page never holds a
// copy of its own. Each paragraph says which rules (R1-R14) it tells: the
// first to tell Rk carries the anchor "rule-Rk", and every "(R13)" the page
// shows links there (ruleLinks). Card codes in the text ("R2", "Vi3", "RONDE")
// are drawn as the table draws cards (cards.js). The service worker keeps the
// files once fetched, so the rules read offline once the page is installed.

import { _, fmt, lang, perLanguage } from "./i18n.js";
import { h, fill } from "./dom.js";
import { cardEl, cardText, COLOURS } from "./cards.js";

/** @typedef {{kind: string, text: string, rules: number[]}} Para */
/** @typedef {{rules: Para[], aid: Para[]}} RulesText */

/** The rules in the page's language (English if the build wrote none for it). */
export const loadRules = /** @type {() => Promise<RulesText>} */ (perLanguage("rules"));

/** Every card code as the language writes it, longest first (a regular
 * expression's alternatives), with its FGN code. @returns {[string, string][]} */
function codes() {
    /** @type {[string, string][]} */
    const all = [["RING", "RING"], ["J1", "J1"], ["J2", "J2"]];
    for (const c of COLOURS) for (const v of [1, 2, 3]) all.push([c + v, c + v]);
    return all.map(([fgn]) => /** @type {[string, string]} */ ([cardText(fgn), fgn]))
        .sort((a, b) => b[0].length - a[0].length);
}

/** A paragraph's text with its card codes drawn as cards.
 * @param {string} text @returns {(string|Node)[]} */
function withCards(text) {
    const list = codes();
    const esc = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const re = new RegExp("(?<![\\p{L}\\p{N}])(" + list.map(([t]) => esc(t)).join("|") + ")(?![\\p{L}\\p{N}])", "gu");
    /** @type {(string|Node)[]} */
    const out = [];
    let at = 0;
    for (const m of text.matchAll(re)) {
        const fgn = list.find(([t]) => t === m[0]);
        if (!fgn || m.index === undefined) continue;
        out.push(text.slice(at, m.index));
        const card = cardEl(fgn[1]);
        card.classList.add("inline-card");
        out.push(card, h("span", { class: "sr-only", text: " (" + m[0] + ")" }));
        at = m.index + m[0].length;
    }
    out.push(text.slice(at));
    return out;
}

/** The cards a section shows beside its heading, by the rules it tells: all
 * the kinds for the cards (R1), the jesters and the ring for the special
 * cards (R6 and R7 together), the ring for the ring (R7).
 * @param {number[]} rules @returns {string[]} */
function sectionCards(rules) {
    if (rules.includes(1)) return ["R1", "B2", "G3", "Y1", "P2", "J1", "J2", "RING"];
    if (rules.includes(7) && rules.includes(6)) return ["J1", "J2", "RING"];
    if (rules.includes(7)) return ["RING"];
    return [];
}

/** A part's paragraphs as nodes; the first paragraph telling a rule gets
 * its anchor (prefix + "R" + k), once per page. @param {Para[]} paras
 * @param {string} prefix @param {Set<number>} anchored @returns {HTMLElement[]} */
function drawPart(paras, prefix, anchored) {
    /** @type {HTMLElement[]} */
    const out = [];
    /** @type {HTMLElement|null} */
    let list = null;
    for (const p of paras) {
        let el;
        if (p.kind === "title") el = h("h2", { class: "rules-title", text: p.text });
        else if (p.kind === "heading") {
            const tags = p.rules.map((k) => h("span", { class: "rule-no", text: "R" + k }));
            const cards = sectionCards(p.rules);
            el = h("h3", {}, [h("span", { text: p.text }), ...tags,
                cards.length ? h("span", { class: "rule-cards", "aria-hidden": "true" }, cards.map((c) => cardEl(c))) : null]);
        } else if (p.kind === "item") el = h("li", {}, withCards(p.text));
        else el = h("p", {}, withCards(p.text));
        for (const k of p.rules) {
            if (anchored.has(k)) continue;
            anchored.add(k);
            if (!el.id) el.id = prefix + "R" + k;
            else el.prepend(h("span", { class: "rule-anchor", id: prefix + "R" + k }));
        }
        if (p.kind === "item") {
            if (!list) {
                list = h("ul", {});
                out.push(list);
            }
            list.append(el);
            continue;
        }
        list = null;
        out.push(el);
    }
    return out;
}

/** The rules' text: the player aid or the rules in brief, anchored.
 * @param {RulesText} text @param {"aid"|"rules"} which @param {string} prefix */
function drawText(text, which, prefix) {
    const anchored = new Set();
    return which === "aid" ? drawPart(text.aid, prefix + "aid-", anchored)
                           : drawPart(text.rules, prefix, anchored);
}

/** Text with each "R13" (a rule's number, R1-R14) as a link to that rule.
 * @param {string} text @returns {(string|Node)[]} */
export function ruleLinks(text) {
    /** @type {(string|Node)[]} */
    const out = [];
    let at = 0;
    for (const m of text.matchAll(/\bR(1[0-4]|[1-9])\b/g)) {
        if (m.index === undefined) continue;
        out.push(text.slice(at, m.index));
        out.push(h("a", { href: "#/rules/R" + m[1], class: "rule-link",
                          "aria-label": fmt(_("rule %s"), "R" + m[1]), text: m[0],
                          onclick: (/** @type {Event} */ e) => {
                              e.preventDefault();
                              openRules("rules", Number(m[1]));
                          } }));
        at = m.index + m[0].length;
    }
    out.push(text.slice(at));
    return out;
}

/** The sheet over the page, made once. @type {RulesSheet|null} */
let sheet = null;

/** Opens "How to play" over the page: the player aid, or the rules at rule k.
 * @param {"aid"|"rules"} which @param {number} [k] */
export function openRules(which, k) {
    if (sheet && sheet.lang !== lang()) {   // made in another language
        sheet.dialog.remove();
        sheet = null;
    }
    if (!sheet) sheet = new RulesSheet();
    sheet.open(which, k);
}

/** What the header's button opens on (the table: the player aid), and the
 * line the sheet shows above the text then (the table: that the turn waits).
 * @type {{which: "aid"|"rules", line: () => string|null}} */
let place = { which: "rules", line: () => null };

/** @param {"aid"|"rules"} which @param {() => string|null} line */
export function rulesAt(which, line) {
    place = { which, line };
    if (sheet) sheet.status(line());
}

/** "How to play" from the header: over whatever page is open. */
export function openRulesHere() {
    openRules(place.which);
}

/** The line above the text changed (the table re-drew). @param {string|null} line */
export function rulesStatus(line) {
    if (sheet) sheet.status(line);
}

class RulesSheet {
    constructor() {
        this.lang = lang();
        this.which = /** @type {"aid"|"rules"} */ ("rules");
        // scrolls: a Tab stop, so that the keyboard scrolls it too
        this.body = h("div", { class: "rules-body", tabindex: "0", role: "region", "aria-labelledby": "rules-sheet-title" });
        // Said to screen readers; on the screen the close button says it
        // (the player aid keeps the whole sheet below the tabs).
        this.line = h("p", { class: "rules-status sr-only", role: "status" });
        this.tabs = h("div", { class: "rules-tabs", role: "group", "aria-label": _("How to play") });
        this.close = h("button", { type: "button", class: "rules-close", "data-focus": "close-rules",
                                   onclick: () => this.dialog.close() });
        this.dialog = /** @type {HTMLDialogElement} */ (h("dialog", { class: "rules-sheet", "aria-labelledby": "rules-sheet-title" }, [
            // the title for screen readers: the tabs say it on the screen
            h("h2", { id: "rules-sheet-title", class: "sr-only", text: _("How to play") }),
            h("div", { class: "rules-head" }, [
                this.tabs,
                this.close]),
            this.line, this.body]));
        // a tap on the backdrop closes it, as the log's sheet does
        this.dialog.addEventListener("click", (e) => { if (e.target === this.dialog) this.dialog.close(); });
        document.body.append(this.dialog);
        this.status(null);
    }

    /** @param {string|null} line */
    status(line) {
        this.line.textContent = line || "";
        this.line.hidden = !line;
        // "×", or, when the turn waits, the way back to it.
        this.close.textContent = line ? _("Your turn!") : "×";
        this.close.setAttribute("aria-label", line ? _("Your turn: close this to play.") : _("Close"));
        this.close.classList.toggle("primary", !!line);
    }

    /** @param {"aid"|"rules"} which @param {number} [k] */
    open(which, k) {
        this.which = which;
        this.status(place.line());
        if (!this.dialog.open) this.dialog.showModal();
        this.draw(k);
    }

    /** @param {number} [k] */
    draw(k) {
        const tab = (/** @type {"aid"|"rules"} */ w, /** @type {string} */ label) =>
            h("button", { type: "button", "data-rules": w, "aria-pressed": String(this.which === w), text: label,
                          onclick: () => { this.which = w; this.draw(); } });
        fill(this.tabs, [tab("aid", _("Player aid")), tab("rules", _("The rules"))]);
        fill(this.body, [h("p", { text: _("Loading...") })]);
        loadRules().then((text) => {
            fill(this.body, drawText(text, this.which, "sheet-rule-"));
            this.body.classList.toggle("aid", this.which === "aid");
            const at = k ? this.body.querySelector("#sheet-rule-R" + k) : null;
            if (at) at.scrollIntoView({ block: "start" });
            else this.body.scrollTop = 0;
        }).catch(() => fill(this.body, [h("p", { class: "notice", text: _("The rules could not be loaded.") })]));
    }
}

/** "How to play" as a page: #/rules (the rules), #/rules/aid, #/rules/R13. */
export class RulesView {
    /** @param {HTMLElement} root @param {string} where */
    constructor(root, where) {
        const which = where === "aid" ? "aid" : "rules";
        const k = /^R(\d+)$/.test(where) ? Number(where.slice(1)) : 0;
        const body = h("div", { class: "rules-body rules-page-body" }, [h("p", { text: _("Loading...") })]);
        fill(root, [h("div", { class: "rules-page" }, [
            h("h1", { text: _("How to play") }),
            h("p", { class: "rules-tabs" }, [
                h("a", { href: "#/rules/aid", "aria-current": which === "aid" ? "page" : "false", text: _("Player aid") }),
                h("a", { href: "#/rules", "aria-current": which === "rules" ? "page" : "false", text: _("The rules") })]),
            body])]);
        loadRules().then((text) => {
            fill(body, drawText(text, which, "rule-"));
            body.classList.toggle("aid", which === "aid");
            const at = k ? body.querySelector("#rule-R" + k) : null;
            if (at) at.scrollIntoView({ block: "start" });
        }).catch(() => fill(body, [h("p", { class: "notice", text: _("The rules could not be loaded.") })]));
    }

    destroy() {}
}

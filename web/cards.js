// SPDX-License-Identifier: MIT
// cards.js - how a card looks: its colour AND its letter, so that it reads
// without colour (the terminal game's codes, translated: "R B G Y P J RING"
// becomes "R B Ve Ja Vi Jo RONDE" in French), and a name for screen readers.

import { _, fmt } from "./i18n.js";

export const COLOURS = ["R", "B", "G", "Y", "P"];

/** @param {string} code an FGN card: R1..P3, J1, J2, RING */
export function cardValue(code) {
    return code === "RING" ? 0 : Number(code.slice(1));
}

/** The FGN colour letter of a colour card, else null. @param {string} code */
export function cardColour(code) {
    return code !== "RING" && COLOURS.includes(code[0]) ? code[0] : null;
}

/** The 7 codes in the current language (English if the translation is unusable). */
function codes() {
    const t = _("R B G Y P J RING").trim().split(/\s+/);
    return t.length === 7 ? t : ["R", "B", "G", "Y", "P", "J", "RING"];
}

/** A card as the person's language writes it ("Ve2" for a green 2 in French).
 * @param {string} code */
export function cardText(code) {
    const c = codes();
    if (code === "RING") return c[6];
    const i = COLOURS.indexOf(code[0]);
    return (i >= 0 ? c[i] : c[5]) + code.slice(1);
}

/** A card's name for screen readers ("red 2", "jester 1", "ring"). @param {string} code */
export function cardName(code) {
    if (code === "RING") return _("ring");
    const names = [_("red"), _("blue"), _("green"), _("yellow"), _("purple")];
    const i = COLOURS.indexOf(code[0]);
    return fmt("%s %d", i >= 0 ? names[i] : _("jester"), cardValue(code));
}

/** The colour's name of a colour letter. @param {string} letter */
export function colourName(letter) {
    const names = [_("red"), _("blue"), _("green"), _("yellow"), _("purple")];
    return names[COLOURS.indexOf(letter)] || letter;
}

/** A card: a coloured chip with its letter and value.
 * @param {string} code @param {string} [tag] @returns {HTMLElement} */
export function cardEl(code, tag = "span") {
    const el = document.createElement(tag);
    const colour = cardColour(code);
    el.className = "card " + (colour ? "c-" + colour : code === "RING" ? "c-ring" : "c-jester");
    el.dataset.card = code;
    const text = cardText(code);
    const letters = document.createElement("span");
    letters.className = "card-code";
    letters.textContent = code === "RING" ? "◯" : text.replace(/\d+$/, "");
    letters.setAttribute("aria-hidden", "true");
    el.append(letters);
    if (code !== "RING") {
        const v = document.createElement("span");
        v.className = "card-value";
        v.textContent = String(cardValue(code));
        v.setAttribute("aria-hidden", "true");
        el.append(v);
    } else {
        const v = document.createElement("span");
        v.className = "card-value ring-code";
        v.textContent = text;
        v.setAttribute("aria-hidden", "true");
        el.append(v);
    }
    el.title = cardName(code) + " (" + text + ")";
    if (tag === "span") {
        el.setAttribute("role", "img");
        el.setAttribute("aria-label", cardName(code));
    }
    return el;
}

/** The order a hand is shown in: by colour, then jesters, rings; by value.
 * @param {string} a @param {string} b */
export function cardOrder(a, b) {
    const rank = (/** @type {string} */ c) =>
        c === "RING" ? 70 : c[0] === "J" ? 60 + cardValue(c) : COLOURS.indexOf(c[0]) * 10 + cardValue(c);
    return rank(a) - rank(b);
}

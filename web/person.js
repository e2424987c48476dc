// SPDX-License-Identifier: MIT
// person.js - who this browser is (docs/protocol.md, "People"): a person,
// without password or email, is a key the server made (person_new, or
// redeem on another device) and this browser keeps in local storage for all
// its tabs; every connection's hello carries it (proto.js) and the server
// answers `person` (the name, the rating, the seats). The last `person` is
// kept too, so that the page says who you are before any connection.
//
// A person is made the first time someone gives a name (Play now, a new
// table, joining one, the person's page): the wish waits for the `person`
// answer (PersonGate), so that the seat it takes is tied to the person.

import { _, fmt, levelName } from "./i18n.js";
import { h } from "./dom.js";

/** @typedef {{type: string, [k: string]: any}} Msg */
/** @typedef {{id: string, name: string, mu: number, sigma: number, shown: number, between: string[],
 *   rated: number, hidden: boolean, seats: {table: string, seat: number}[]}} Person */

const KEY = "figaro.person-key";
const PERSON = "figaro.person";
/** Said on window when who this browser is changed (made, renamed, signed out). */
export const PERSON_EVENT = "figaro:person";

/** The key this browser keeps, "" if it is nobody yet. */
export function personKey() {
    const k = localStorage.getItem(KEY) || "";
    return /^[0-9a-f]{32}$/.test(k) ? k : "";
}

/** The person of the last `person` message, while the key is kept. @returns {Person|null} */
export function myPerson() {
    if (!personKey()) return null;
    try {
        const p = JSON.parse(localStorage.getItem(PERSON) || "null");
        return p && typeof p.id === "string" && typeof p.name === "string" ? p : null;
    } catch {
        return null;
    }
}

/** Forgets the person in this browser (signed out, forgotten, a key refused). */
export function dropPerson() {
    localStorage.removeItem(KEY);
    localStorage.removeItem(PERSON);
    window.dispatchEvent(new Event(PERSON_EVENT));
}

// Another tab's change is said here, never written back: no loop.
window.addEventListener("storage", (e) => {
    if (e.storageArea === localStorage && (e.key === null || e.key === KEY || e.key === PERSON))
        window.dispatchEvent(new Event(PERSON_EVENT));
});

/** Takes what the server says of the person, from any connection (net.js
 * hands every message here first): its word counts while its key is the
 * browser's (another tab may have changed it). @param {Msg} m @param {{key: string}} c */
export function takePersonMessage(m, c) {
    const ck = c.key;
    if (m.type === "person") {
        if (typeof m.key === "string" && /^[0-9a-f]{32}$/.test(m.key)) localStorage.setItem(KEY, c.key = m.key);
        if (!c.key || personKey() !== c.key) return;
        // the key is kept once, under its own name
        const { key: _k, type: _t, ...p } = m;
        localStorage.setItem(PERSON, JSON.stringify(p));
        window.dispatchEvent(new Event(PERSON_EVENT));
    } else if (m.type === "signed_out" || m.type === "forgotten" ||
               (m.type === "error" && m.code === "bad_key")) {
        c.key = "";
        if (ck && personKey() === ck) dropPerson();
    }
}

/** A rating as shown: mu - 3 sigma, one decimal. @param {number} shown */
export function ratingNumber(shown) {
    return Number.isFinite(shown) ? shown.toFixed(1) : "-";
}

/** Where a rating stands among the bots' levels: "between normal and hard".
 * @param {any} between the server's pair of levels */
export function betweenText(between) {
    if (!Array.isArray(between) || between.length !== 2) return "";
    const [lo, hi] = between.map((l) => typeof l === "string" ? l : "");
    if (!lo && hi) return fmt(_("below %s"), levelName(hi));
    if (lo && !hi) return fmt(_("above %s"), levelName(lo));
    if (lo && lo === hi) return fmt(_("as %s"), levelName(lo));
    if (lo && hi) return fmt(_("between %s and %s"), levelName(lo), levelName(hi));
    return "";
}

/** "9.3, between normal and hard" or, before a rated game, that there is none yet.
 * @param {{shown: number, between: any, rated: number}} p */
export function ratingText(p) {
    if (!p.rated) return _("no rated game yet");
    const b = betweenText(p.between);
    return b ? fmt(_("rating %s, %s"), ratingNumber(p.shown), b) : fmt(_("rating %s"), ratingNumber(p.shown));
}

/** What a rated game did to the person's rating: "Your rating: 9.3 (+1.2), between easy and normal".
 * @param {Msg} m the server's `rated` */
export function ratedLine(m) {
    const shown = Number(m.shown);
    const before = m.before ? Number(m.before.mu) - 3 * Number(m.before.sigma) : NaN;
    const diff = shown - before;
    const delta = Number.isFinite(diff) ? " (" + (diff >= 0 ? "+" : "-") + Math.abs(diff).toFixed(1) + ")" : "";
    const b = betweenText(m.between);
    return fmt(_("Your rating: %s"), ratingNumber(shown) + delta) + (b ? ", " + b : "");
}

/** Who you are, for the page's header: a link to your page. */
export function personBadge() {
    const p = myPerson();
    if (!p) return null;
    const rating = p.rated ? ratingNumber(p.shown) : "";
    return h("a", { href: "#/me", class: "me-badge", title: p.name + (p.rated ? " · " + ratingText(p) : ""),
                    "aria-label": fmt(_("You: %s"), p.name) + (p.rated ? ", " + ratingText(p) : "") }, [
        h("span", { class: "me-name", text: p.name }),
        rating ? h("span", { class: "me-rating", text: rating }) : null]);
}

/** How long a wish waits for the server to say who the person is; an older
 * server that never answers does not keep it forever. */
const WAIT_MS = 5000;

/**
 * The wishes (create, join) of a page's connection that must wait until it
 * is signed in: if the browser keeps a key, until the server's `person` (or
 * its refusal of the key); if not and a name was given, a person is made
 * first (person_new). Without a key and a name, a wish goes at once.
 * A wish not sent yet goes on the next connection; while a person is made
 * here, another tab's new key waits (hold).
 */
export class PersonGate {
    /** @param {import("./net.js").Conn} conn */
    constructor(conn) {
        this.conn = conn;
        /** Whether this connection's person is known (signed in, or known to be nobody). */
        this.settled = !personKey();
        /** @type {Msg[]} */
        this.queue = [];
        this.asked = false;
        this.name = "";
        /** @type {number|undefined} */
        this.timer = undefined;
        conn.hold = () => this.asked && !this.settled;
    }

    /** A new connection (its `welcome`): its hello carried the key, if any. */
    welcome() {
        const q = this.queue;
        this.settled = !personKey();
        this.asked = false;
        this.queue = [];
        for (const m of q) this.send(m, this.name);
        this.arm();
    }

    /** Sends m once the person is known; makes the person first if the browser
     * has none and `name` is given. @param {Msg} m @param {string} [name] */
    send(m, name) {
        if (name) this.name = name;
        if (!personKey() && name && !this.asked) {
            this.asked = this.conn.send({ type: "person_new", name });
            if (this.asked) this.settled = false;
        }
        if (this.settled) return this.conn.send(m);
        const t = JSON.stringify(m);   // a wish carried over, asked again by the page: once
        if (!this.queue.some((q) => JSON.stringify(q) === t)) this.queue.push(m);
        this.arm();
        return true;
    }

    /** @param {Msg} m @returns {boolean} whether it was about the person */
    onMessage(m) {
        const about = m.type === "person" ||
            (m.type === "error" && (m.re === "person_new" || m.code === "bad_key"));
        if (about) this.flush();
        return about;
    }

    arm() {
        window.clearTimeout(this.timer);
        if (!this.settled) this.timer = window.setTimeout(() => this.flush(), WAIT_MS);
    }

    flush() {
        window.clearTimeout(this.timer);
        this.settled = true;
        if (this.conn.reidentify()) return;   // another tab's key: after the next hello
        const q = this.queue;
        this.queue = [];
        for (const m of q) this.conn.send(m);
    }

    close() {
        window.clearTimeout(this.timer);
    }
}

/** On the home page: who you are, with your page and the leaderboard; the
 * tables where you hold a seat from another device (not among `held()`, this
 * browser's own). It follows the server's word (the hello's `person` brings
 * the rating and the seats as they are now) while it is on the page.
 * @param {() => Object<string, any>} held */
export function personCard(held) {
    const box = h("div", { class: "person-card" });
    const draw = () => {
        if (!box.isConnected && box.childNodes.length) {   // the page moved on
            window.removeEventListener(PERSON_EVENT, draw);
            return;
        }
        box.replaceChildren(cardText(held()));
    };
    draw();
    window.addEventListener(PERSON_EVENT, draw);
    return box;
}

/** @param {Object<string, any>} held */
function cardText(held) {
    const p = myPerson();
    if (!p) return h("p", {}, [
        h("a", { href: "#/me", text: _("Keep your games and a rating") }), " · ",
        h("a", { href: "#/leaderboard", text: _("Leaderboard") })]);
    const elsewhere = p.seats.filter((s) => !held[s.table]);
    return h("section", { "aria-label": _("You") }, [
        h("p", {}, [fmt(_("You: %s"), p.name) + " · " + ratingText(p) + " · ",
            h("a", { href: "#/me", text: _("Your page") }), " · ", h("a", { href: "#/leaderboard", text: _("Leaderboard") })]),
        elsewhere.length ? h("p", {}, [_("Your seats:") + " ", ...elsewhere.flatMap((s, i) => [
            i ? ", " : "", h("a", { href: "#/t/" + s.table, class: "person-seat", text: s.table })])]) : null]);
}

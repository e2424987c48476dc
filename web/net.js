// SPDX-License-Identifier: MIT
// net.js - the one WebSocket to the table server (docs/protocol.md, v1), and
// what this browser remembers: the seats it holds (a token per table, kept in
// local storage so that a reload or another day puts the person back in the
// seat), the name and the language.
//
// The connection comes back by itself after a drop, waiting 0.5 s, 1 s, 2 s...
// up to 15 s (with some jitter so a restarted server is not hit by every
// browser at once), and says `hello` again with the seat's token and the
// last event it saw, so it gets only what it missed. It says hello again too
// when another tab of the browser changes the person's key (person.js), so
// that every tab is the same person.
//
// A table's page connects to /ws?table=CODE, so that a front proxy in front of
// several servers (deploy/haproxy.cfg) sends it to the server that drives the
// table; when another server answers `moved`, the page adds &node=NAME, the
// server named, and connects again (docs/protocol.md).

import { setLanguages } from "./i18n.js";
import { takePersonMessage, personKey, PERSON_EVENT } from "./person.js";

/** @typedef {{token: string, seat: number, name: string, at: number}} SeatMemo */

const SEATS_KEY = "figaro.seats";

/** The seats this browser holds, by table code. @returns {Object<string, SeatMemo>} */
export function heldSeats() {
    try {
        const v = JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
        return v && typeof v === "object" ? v : {};
    } catch {
        return {};
    }
}

/** @param {string} table @param {SeatMemo|null} memo */
export function rememberSeat(table, memo) {
    const all = heldSeats();
    if (memo) all[table] = memo;
    else delete all[table];
    localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

export function savedName() {
    return localStorage.getItem("figaro.name") || "";
}

/** @param {string} name */
export function saveName(name) {
    localStorage.setItem("figaro.name", name);
}

/** How many games this browser has sat through to their end (a first game
 * says more on the turn line). */
export function gamesPlayed() {
    return Number(localStorage.getItem("figaro.games-played")) || 0;
}

export function countGame() {
    localStorage.setItem("figaro.games-played", String(gamesPlayed() + 1));
}

/** A name as the server takes it (spaces kept, 1-32 characters).
 * @param {string} name */
export function cleanName(name) {
    // The server's rule (docs/protocol.md, hello): runs of spaces become one,
    // none at the ends; control characters are refused there, dropped here.
    // It counts characters (code points), at most NAME_CHARS: nothing is cut
    // here, the form says the limit and the server refuses a longer name.
    return name.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").replace(/\s+/g, " ").trim();
}

/** The most characters (code points) a name may have. */
export const NAME_CHARS = 32;

/** @param {string} name @returns {number} its characters, as the server counts them */
export function nameChars(name) {
    return Array.from(name).length;
}

/** @typedef {{type: string, [k: string]: any}} Msg */

export class Conn {
    /** @param {() => Msg} hello builds the hello to send on each (re)connection
     * @param {(m: Msg) => void} onMessage @param {(up: boolean) => void} onState
     * @param {() => string} [route] the query of each connection's URL ("?table=K7M2QX") */
    constructor(hello, onMessage, onState, route) {
        this.hello = hello;
        this.route = route || (() => "");
        this.onMessage = onMessage;
        this.onState = onState;
        /** @type {WebSocket|null} */
        this.ws = null;
        this.delay = 500;
        this.atLeast = 0;   // again(wait)'s
        this.closed = false;
        /** @type {number|undefined} */
        this.timer = undefined;
        this.key = "";   // the person key it is signed in with
        this.hold = () => false;   // a new key waits (PersonGate)
        // a key dropped: the server tells its connections (signed_out...), this one maybe the asker
        this.follow = () => personKey() ? this.reidentify() : window.setTimeout(() => this.reidentify(), 1000);
        window.addEventListener(PERSON_EVENT, this.follow);
        this.open();
    }

    /** Connects anew if the browser's key is not this connection's. */
    reidentify() {
        if (!this.isOpen || this.key === personKey() || this.hold()) return false;
        this.restart();
        return true;
    }

    open() {
        if (this.closed) return;
        const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws" +
            this.route();
        const ws = new WebSocket(url, "figaro.v1");
        this.ws = ws;
        ws.onopen = () => {
            this.delay = 500;
            const hello = this.hello();
            this.key = typeof hello.key === "string" ? hello.key : "";
            ws.send(JSON.stringify(hello));
            this.onState(true);
        };
        ws.onmessage = (e) => {
            if (this.ws !== ws) return;   // replaced (restart)
            let m;
            try {
                m = JSON.parse(e.data);
            } catch {
                return;
            }
            if (!m || typeof m.type !== "string") return;
            if (m.type === "welcome") setLanguages(m.languages);
            takePersonMessage(m, this);   // who this browser is, whichever page asked
            this.onMessage(m);
            this.reidentify();
        };
        ws.onclose = () => {
            if (this.ws !== ws) return;
            this.ws = null;
            this.onState(false);
            if (this.closed) return;
            const wait = Math.max(this.delay, this.atLeast) * (0.75 + Math.random() / 2);
            this.atLeast = 0;
            this.delay = Math.min(this.delay * 2, 15000);
            this.timer = window.setTimeout(() => this.open(), wait);
        };
    }

    /** Whether the connection is open: a message sent now goes out. */
    get isOpen() {
        return !!this.ws && this.ws.readyState === WebSocket.OPEN;
    }

    /** @param {Msg} m @returns {boolean} whether it went out */
    send(m) {
        if (!this.ws || !this.isOpen) return false;
        this.ws.send(JSON.stringify(m));
        return true;
    }

    /** Drops the connection; the next one comes after the usual wait (e.g. the
     * table is at another server: `moved`), or after `wait` ms at least.
     * @param {number} [wait] */
    again(wait) {
        this.atLeast = wait || 0;
        if (this.ws) this.ws.close();
    }

    /** Drops the connection now and makes a new one (e.g. another language). */
    restart() {
        const ws = this.ws;
        this.ws = null;
        if (ws) ws.close();
        window.clearTimeout(this.timer);
        this.delay = 500;
        this.open();
    }

    close() {
        this.closed = true;
        window.removeEventListener(PERSON_EVENT, this.follow);
        window.clearTimeout(this.timer);
        if (this.ws) this.ws.close();
        this.ws = null;
    }
}

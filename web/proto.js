// SPDX-License-Identifier: MIT
// proto.js - every message the page sends to the table server
// (docs/protocol.md, "Client messages"), built in one place: the table, the
// replay's review and the home page say `hello` the same way, and a field the
// protocol adds is added here once.

import { lang } from "./i18n.js";
import { heldSeats, savedName, cleanName, nameChars, NAME_CHARS } from "./net.js";
import { personKey } from "./person.js";

/** @typedef {import("./net.js").Msg} Msg */
/** @typedef {{epoch: string, n: number}} Since */
/** @typedef {{table: string, token: string, since?: Since}} SeatClaim */

/** The hello of every connection: the page's language, the person's name if
 * they gave one, and the seats to take back (none: a spectator or the home
 * page). @param {SeatClaim[]} [seats] @returns {Msg} */
export function hello(seats) {
    /** @type {Msg} */
    const m = { type: "hello", v: 1, lang: lang() };
    // A name the server would refuse (bad_name) would cost the whole hello.
    const name = cleanName(savedName());
    if (name && nameChars(name) <= NAME_CHARS) m.name = name;
    if (seats && seats.length) m.seats = seats;
    // The person this browser is (person.js): the server answers `person`.
    const key = personKey();
    if (key) m.key = key;
    return m;
}

/** The claim of the seat this browser holds at table `code`, if it holds one
 * (its token, kept by net.js), with the last event seen. @param {string} code
 * @param {Since|null} [since] @returns {SeatClaim|null} */
export function seatClaim(code, since) {
    const memo = heldSeats()[code];
    if (!memo) return null;
    /** @type {SeatClaim} */
    const claim = { table: code, token: memo.token };
    if (since && since.epoch && since.n) claim.since = { epoch: since.epoch, n: since.n };
    return claim;
}

/** @typedef {{kind: "person"}|{kind: "bot", level: string}|{kind: "engine", engine: string}} SeatWish */

/** A new table. @param {SeatWish[]} seats
 * @param {{open?: boolean, fill?: string, hints?: boolean, moveSeconds?: number, listed?: boolean}} o @returns {Msg} */
export function create(seats, o) {
    /** @type {Msg} */
    const m = { type: "create", seats, open: !!o.open, hints: !!o.hints };
    if (o.listed) m.listed = true;
    if (o.fill) m.fill = o.fill;
    const secs = Math.round(o.moveSeconds || 0);
    if (secs > 0) m.move_seconds = Math.min(secs, 3600);
    return m;
}

/** @param {string} table @param {string} [name] @param {number} [seat] @returns {Msg} */
export function join(table, name, seat) {
    /** @type {Msg} */
    const m = { type: "join", table };
    if (name) m.name = name;
    if (seat !== undefined) m.seat = seat;
    return m;
}

/** @param {string} table @param {Since|null} [since] @returns {Msg} */
export function spectate(table, since) {
    /** @type {Msg} */
    const m = { type: "spectate", table };
    if (since && since.epoch && since.n) m.since = { epoch: since.epoch, n: since.n };
    return m;
}

/** An action answering event n. @param {string} table @param {number} n @param {string} action @returns {Msg} */
export function act(table, n, action) {
    return { type: "act", table, n, action };
}

/** @param {string} table @param {number} n @returns {Msg} */
export function hint(table, n) {
    return { type: "hint", table, n };
}

/** @param {string} table @param {number} game @returns {Msg} */
export function review(table, game) {
    return { type: "review", table, game };
}

/** @param {string} table @param {number} game @param {boolean} ready @returns {Msg} */
export function rematch(table, game, ready) {
    return { type: "rematch", table, game, ready };
}

/** @param {string} table @param {string} text @returns {Msg} */
export function chat(table, text) {
    return { type: "chat", table, text };
}

/** @param {string} table @returns {Msg} */
export function leave(table) {
    return { type: "leave", table };
}

/** Follows the lobby (on) or stops. @param {boolean} on @returns {Msg} */
export function lobby(on) {
    return { type: "lobby", on };
}

// A person (docs/protocol.md, "People"): made, signed in on another device,
// renamed or hidden, signed out, forgotten; and a seat taken back as that person.

/** @param {string} name @returns {Msg} */
export function personNew(name) {
    return { type: "person_new", name };
}

/** A one-time code for another device. @returns {Msg} */
export function deviceCode() {
    return { type: "device_code" };
}

/** @param {string} code @returns {Msg} */
export function redeem(code) {
    return { type: "redeem", code };
}

/** @param {{name?: string, hidden?: boolean}} o @returns {Msg} */
export function personSet(o) {
    /** @type {Msg} */
    const m = { type: "person_set" };
    if (o.name !== undefined) m.name = o.name;
    if (o.hidden !== undefined) m.hidden = o.hidden;
    return m;
}

/** @returns {Msg} */
export function signOut() {
    return { type: "sign_out" };
}

/** @returns {Msg} */
export function forgetMe() {
    return { type: "forget_me" };
}

/** The seat this person holds at table (no token: the person's). @param {string} table
 * @param {Since|null} [since] @returns {Msg} */
export function resume(table, since) {
    /** @type {Msg} */
    const m = { type: "resume", table };
    if (since && since.epoch && since.n) m.since = { epoch: since.epoch, n: since.n };
    return m;
}

// SPDX-License-Identifier: MIT
// table_state.js - a table as the server tells it (docs/protocol.md): a
// snapshot, then numbered events, hints and errors, folded into one state.
// No DOM, no storage, no connection: the view (table.js) hands each frame to
// `apply` and draws what it returns; what the person is doing with the page
// (a card chosen, a sheet open) is the view's own.
//
// The client plays no rule and counts nothing the server knows: what a move
// would do is the view's `outcomes`, the seats and their status are the
// frames' `seats`, the move clock is their `turn_ms_left` (docs/protocol.md,
// "The move clock"), the ranking is the game's end.

import { _ } from "./i18n.js";

/** @typedef {import("./net.js").Msg} Msg */
/** @typedef {{kind: string, name: string|null, status: string, level?: string, engine?: string}} SeatInfo */
/** @typedef {{game: number, votes: string[], ready: number, of: number}} Tally */

/** What a frame changed, for the view: null when the frame was not for this
 * table or told nothing new.
 * @typedef {{moved?: boolean, ring?: boolean, story?: any[], say?: string[], kind?: string,
 *   chat?: Msg, seated?: Msg, unseated?: boolean, left?: boolean, hint?: boolean}} Change */

export class TableState {
    /** @param {string} code */
    constructor(code) {
        this.code = code;
        this.epoch = "";
        this.n = 0;          // the last event seen
        this.gameN = 0;      // the event the game is at (an action answers it)
        this.game = 0;
        this.state = "";     // "", waiting, playing, over
        /** @type {number|null} */
        this.seat = null;
        /** The seat held before another window took it. @type {number|null} */
        this.lastSeat = null;
        /** @type {any} */
        this.options = null;
        /** @type {SeatInfo[]} */
        this.seats = [];
        /** The receiver's view (docs/protocol.md, "The view"). @type {any} */
        this.view = null;
        /** @type {string|null} */
        this.record = null;
        /** @type {{card: string, target: number}|null} */
        this.lastPlay = null;
        /** @type {{seat: number, count: number}|null} */
        this.lastCollect = null;
        /** The events of the last round's end, until the next one. @type {any[]|null} */
        this.roundEvents = null;
        /** @type {any} */
        this.gameOver = null;
        /** The vote for the next game, once a game is over. @type {Tally|null} */
        this.rematch = null;
        this.sent = -1;          // the game_n an action was sent for
        this.hintAsked = -1;     // the game_n a hint was asked for
        /** The hint for this turn. @type {Msg|null} */
        this.hint = null;
        this.yielded = false;    // another window took our seat: do not take it back
        this.noTable = false;
        /** The server that drives the table, when one said `moved`. @type {string|null} */
        this.node = null;
        /** When the turn's time runs out (ms, the clock `now` counts in), as
         * the server's last word on it said. @type {number|null} */
        this.deadline = null;
    }

    /** Where the page is, for a hello or a spectate: the events since then. */
    since() {
        return this.epoch && this.n ? { epoch: this.epoch, n: this.n } : null;
    }

    /** Takes one frame of the server. @param {Msg} m @param {number} now the clock (Date.now())
     * @returns {Change|null} */
    apply(m, now) {
        switch (m.type) {
        case "seated":
            if (m.table !== this.code) return null;
            this.seat = m.seat;
            this.lastSeat = null;
            return { seated: m };
        case "unseated":
            if (m.table !== this.code) return null;
            this.lastSeat = this.seat;
            this.seat = null;
            this.yielded = true;
            return { unseated: true };
        case "left":
            this.seat = null;
            return { left: true };
        case "snapshot":
            return this.snapshot(m, now);
        case "event":
            return this.event(m, now);
        case "hint":
            // For this turn only: one that comes after the game moved on is dropped.
            if (m.table !== this.code || m.n !== this.gameN || this.hintAsked !== this.gameN) return null;
            this.hint = m;
            return { hint: true };
        }
        return null;
    }

    /** @param {Msg} m @param {number} now @returns {Change|null} */
    snapshot(m, now) {
        if (m.table !== this.code) return null;
        this.epoch = m.epoch;
        this.n = m.n;
        this.gameN = m.game_n;
        this.game = m.game;
        this.state = m.state;
        this.seat = m.seat;
        this.options = m.options;
        this.seats = m.seats;
        this.view = m.view || null;
        this.record = m.record || null;
        this.gameOver = null;
        this.roundEvents = null;
        this.rematch = m.rematch || null;
        this.sent = -1;
        this.hint = null;
        this.hintAsked = -1;
        this.clock(m, now);
        return { moved: true, story: Array.isArray(m.log) ? m.log : undefined };
    }

    /** @param {Msg} m @param {number} now @returns {Change|null} */
    event(m, now) {
        if (m.table !== this.code || m.n <= this.n) return null;
        this.n = m.n;
        if (m.rematch) this.rematch = m.rematch;
        /** @type {Change} */
        const change = { say: m.say && m.say.length ? m.say : undefined, kind: m.kind };
        switch (m.kind) {
        case "start":
            this.rematch = null;
            if (Array.isArray(m.seats)) this.seats = m.seats;
            this.game = m.game;
            this.gameN = m.n;
            this.state = "playing";
            this.gameOver = null;
            this.record = null;
            this.roundEvents = null;
            this.lastPlay = this.lastCollect = null;
            break;
        case "deal":
        case "action": {
            this.gameN = m.n;
            this.game = m.game;
            this.state = "playing";
            const events = m.events || [];
            change.ring = events.some((/** @type {any} */ e) => e.type === "ring");
            this.actionEvents(events, m.kind === "deal");
            this.view = m.view;
            if (m.record) this.record = m.record;
            this.hint = null;   // a hint is for one turn
            change.moved = true;
            break;
        }
        case "seat":
            if (Array.isArray(m.seats)) this.seats = m.seats;
            break;
        case "chat":
            return { chat: m };
        }
        this.clock(m, now);
        return change;
    }

    /** @param {any[]} events @param {boolean} deal */
    actionEvents(events, deal) {
        if (deal) {
            this.lastPlay = this.lastCollect = null;
            return;
        }
        const n = this.seats.length;
        this.lastCollect = null;
        let roundEnd = false;
        for (const e of events) {
            if (e.type === "play") this.lastPlay = { card: e.card, target: e.target };
            else if (e.type === "ring") this.lastPlay = { card: "RING", target: (e.seat + 1) % n };
            else if (e.type === "collect") this.lastCollect = { seat: e.seat, count: e.count };
            else if (e.type === "round_end") roundEnd = true;
            else if (e.type === "game_over") {
                this.gameOver = e;
                this.state = "over";
            }
        }
        // The round's end stays until the next one (the view shows it until
        // the person closes it; the bots may play on meanwhile).
        if (roundEnd) this.roundEvents = events;
        if (this.lastCollect) this.lastPlay = null;
    }

    /** The server's error answers, as they change the state: what the view
     * must do (connect again elsewhere or later, spectate, say it).
     * @param {Msg} m @returns {{again?: number, spectate?: boolean, forget?: boolean, say: string|null}} */
    error(m) {
        if (m.code === "moved" && m.table === this.code && typeof m.node === "string") {
            this.node = m.node;   // connect again, to that server
            return { again: 0, say: null };
        }
        if ((m.code === "tables_full" || m.code === "busy") && m.table === this.code && m.re !== "review")
            // Several servers: this one cannot take the table now (full, or
            // busy); another takes it soon, and then this one says `moved`.
            return { again: 2000, say: m.text || m.code };
        /** @type {{again?: number, spectate?: boolean, forget?: boolean, say: string|null}} */
        const r = { say: m.text || m.code };
        if (m.code === "bad_token" && m.table === this.code) r.forget = r.spectate = true;
        if (m.code === "no_table") this.noTable = true;
        if (m.code === "stale") return { say: null };   // the newer event is on its way
        if (m.re === "act") this.sent = -1;
        if (m.re === "hint") this.hintAsked = -1;
        return r;
    }

    /** The move clock, as the server counts it: a frame that carries
     * `turn_ms_left` (a snapshot; a start, deal, action or seat's news) sets
     * it, null stops it (docs/protocol.md, "The move clock").
     * @param {Msg} m @param {number} now */
    clock(m, now) {
        if (!("turn_ms_left" in m)) return;
        this.deadline = typeof m.turn_ms_left === "number" ? now + m.turn_ms_left : null;
    }

    /** The seconds left to move, or null. @param {number} now */
    secondsLeft(now) {
        return this.deadline === null ? null : Math.max(0, Math.ceil((this.deadline - now) / 1000));
    }

    /** Seat s's name. @param {number} s */
    name(s) {
        const seat = this.seats[s];
        return (seat && seat.name) || _("(open seat)");
    }

    /** Whether the person is to move and has not moved yet. */
    myTurn() {
        const v = this.view;
        return !!v && this.seat !== null && v.turn === this.seat && Array.isArray(v.legal) &&
               v.legal.length > 0 && this.sent !== this.gameN;
    }

    /** The server's legal actions (only on the person's turn). @returns {string[]} */
    legal() {
        return (this.view && this.view.legal) || [];
    }

    /** Whether card may be played anywhere now. @param {string} card */
    playable(card) {
        return this.myTurn() && this.legal().some((a) => a === card || a.startsWith(card + ">"));
    }

    /** The action the card makes in front of seat t, if legal.
     * @param {string} card @param {number} t @returns {string|null} */
    actionFor(card, t) {
        const legal = this.legal();
        if (card === "RING") return t === this.seat && legal.includes("RING") ? "RING" : null;
        const a = card + ">" + t;
        return legal.includes(a) ? a : null;
    }

    /** What a legal action would do, as the server's engine computed it
     * (the view's `outcomes`, parallel to `legal`). @param {string} action
     * @returns {{reach?: number, collector?: number, count?: number, ring?: boolean}} */
    outcome(action) {
        const v = this.view;
        return (v && v.outcomes && v.outcomes[this.legal().indexOf(action)]) || {};
    }

    /** The face-up cards on the table (a take collects them, R5). */
    faceUp() {
        const v = this.view;
        return v ? v.piles.reduce((/** @type {number} */ k, /** @type {any} */ p) => k + p.cards.length, 0) : 0;
    }
}

// SPDX-License-Identifier: MIT
// home.js - the first page: your name, "Play now" (one tap: a game against
// gentle bots, hints on), "How to play" (rules.js), "Learn by playing"
// (learn.js), a new table with every
// option, folded (players 3-6, each other seat open for a friend, a bot of a
// level or an engine the operator registered; time per move; the open
// option), joining by code or link, the tables this browser holds a seat at,
// and replaying a game record (a file, replayed by the server: replay.js);
// above them, who you are (person.js), with your page and the leaderboard.

import { h, fill } from "./dom.js";
import { Conn, heldSeats, rememberSeat, savedName, saveName, cleanName, NAME_CHARS, nameChars } from "./net.js";
import { _, fmt, levelName } from "./i18n.js";
import * as proto from "./proto.js";
import { openRules } from "./rules.js";
import { LobbyList, LOBBY_JOIN_KEY } from "./lobby.js";
import { PersonGate, personCard } from "./person.js";

/** "Play now": four players, you and three bots of this level (a level a
 * newcomer can beat, docs/play.md), hints on. */
const QUICK_PLAYERS = 4;
const QUICK_LEVEL = "beginner";
const FULL_FORM_KEY = "figaro.full-form";
/** Where learn.js leaves the first game the lessons lead to, for the home page to start. */
export const FIRST_GAME_KEY = "figaro.first-game";

/** @typedef {import("./net.js").Msg} Msg */

export class HomeView {
    /** @param {HTMLElement} root */
    constructor(root) {
        this.root = root;
        /** @type {string[]} */
        this.engines = [];
        /** The bots' levels, weakest first, as the server's welcome lists them.
         * @type {string[]} */
        this.levels = [];
        /** The level a menu starts on, as the welcome names it. */
        this.defaultLevelName = "";
        this.players = 3;
        this.fillLevel = h("select", { id: "fill" });
        this.notice = h("p", { class: "notice", role: "alert" });
        this.seatsBox = h("div", { class: "seat-choices" });
        this.hints = h("input", { type: "checkbox", id: "hints" });
        this.hintsChosen = false;
        /** What a tap asked for before the server's welcome was in: sent with it.
         * @type {Msg | null} */
        this.pending = null;
        this.lobby = new LobbyList((code) => this.joinListed(code));
        /** render's takeName. @type {(required: boolean) => boolean} */
        this.takeName = () => false;
        this.conn = new Conn(() => proto.hello(), (m) => this.onMessage(m), () => {});
        /** A table made waits for the person (made first, from the name given): person.js. */
        this.gate = new PersonGate(this.conn);
        this.render();
    }

    destroy() {
        this.conn.send(proto.lobby(false));
        this.conn.close();
        this.gate.close();
    }

    /** A tap in the lobby, with the name typed here. @param {string} code */
    joinListed(code) {
        if (heldSeats()[code] || this.takeName(true)) {
            sessionStorage.setItem(LOBBY_JOIN_KEY, code);   // table.js: no second seat
            location.hash = "#/t/" + code;
        }
    }

    /** @param {Msg} m */
    onMessage(m) {
        if (this.gate.onMessage(m)) return;
        if (m.type === "welcome") {
            this.gate.welcome();
            this.engines = Array.isArray(m.engines) ? m.engines : [];
            this.levels = Array.isArray(m.levels) ? m.levels.filter((/** @type {any} */ l) => typeof l === "string") : [];
            this.defaultLevelName = typeof m.default_level === "string" ? m.default_level : "";
            this.renderFill();
            this.renderSeats();
            this.conn.send(proto.lobby(true));
            if (this.pending) {
                const m = this.pending;
                this.pending = null;
                this.notice.textContent = "";
                // The wish was made before the levels were known: a quick game's level is chosen now.
                this.sendOrWait(m.quick ? this.quickGame() : m);
            }
            // The first game the lessons end on (learn.js): as "Play now", once.
            const first = sessionStorage.getItem(FIRST_GAME_KEY);
            if (first) {
                sessionStorage.removeItem(FIRST_GAME_KEY);
                try {
                    const g = JSON.parse(first);
                    const level = this.levels.includes(g.level) ? g.level : this.defaultLevel();
                    /** @type {proto.SeatWish[]} */
                    const seats = [{ kind: "person" }];
                    for (let s = 1; s < (Number(g.players) || QUICK_PLAYERS); s++) seats.push({ kind: "bot", level });
                    if (level) this.gate.send(proto.create(seats, { fill: level, hints: !!g.hints }), cleanName(savedName()));
                } catch { /* a damaged wish is dropped */ }
            }
        } else if (m.type === "created") {
            sessionStorage.setItem("figaro.autojoin", m.table);
            location.hash = "#/t/" + m.table;
        } else if (m.type === "lobby") {
            this.lobby.update(m);
        } else if (m.type === "error") {
            this.notice.textContent = m.text || m.code;
        }
    }

    /** "Play now"'s table: the person and three bots of a gentle level. */
    quickGame() {
        const level = this.levels.includes(QUICK_LEVEL) ? QUICK_LEVEL : this.defaultLevel();
        /** @type {proto.SeatWish[]} */
        const seats = [{ kind: "person" }];
        for (let s = 1; s < QUICK_PLAYERS; s++) seats.push({ kind: "bot", level });
        return proto.create(seats, { fill: level, hints: true });
    }

    /** Sends m, or keeps it until the server's welcome is in (a tap on a slow
     * connection is not lost, and the person need not tap again).
     * @param {Msg} m */
    sendOrWait(m) {
        if (this.levels.length && this.conn.isOpen && this.gate.send(m, cleanName(savedName()))) return;
        this.pending = m;
        this.notice.textContent = _("Connecting to the server…");
    }

    render() {
        this.notice = h("p", { class: "notice", role: "alert" });
        // maxlength counts UTF-16 units, not characters: room for 32 emoji;
        // the 32 characters are checked on submit (nameOk).
        const name = h("input", { type: "text", id: "name", maxlength: String(4 * NAME_CHARS),
                                  autocomplete: "nickname", value: savedName(), required: true,
                                  "aria-describedby": "name-hint" });
        name.addEventListener("change", () => saveName(cleanName(name.value)));

        const players = h("select", { id: "players" },
            [3, 4, 5, 6].map((k) => h("option", { value: k, selected: k === this.players, text: String(k) })));
        players.addEventListener("change", () => {
            this.players = Number(players.value);
            this.renderSeats();
        });
        this.seatsBox = h("div", { class: "seat-choices" });
        const moveTime = h("input", { type: "number", id: "move-time", min: "0", max: "3600", value: "0",
                                      inputmode: "numeric" });
        const open = h("input", { type: "checkbox", id: "open" });
        const listed = h("input", { type: "checkbox", id: "listed" });
        // Hints: the server's default until the person chooses (docs/protocol.md,
        // create): on with one person and bots, off with several people.
        const hints = this.hints = h("input", { type: "checkbox", id: "hints", checked: this.hints.checked });
        hints.addEventListener("change", () => { this.hintsChosen = true; });
        const fillLevel = this.fillLevel = h("select", { id: "fill" });
        this.renderFill();

        /** The name typed, saved; false (and said) if it will not do.
         * @param {boolean} required */
        const takeName = (required) => {
            const me = cleanName(name.value);
            if (!me && required) {
                this.notice.textContent = _("Please type your name.");
                name.focus();
                return false;
            }
            if (nameChars(me) > NAME_CHARS) {
                this.notice.textContent = fmt(_("A name has at most %s characters."), String(NAME_CHARS));
                name.focus();
                return false;
            }
            if (me) saveName(me);
            return true;
        };
        this.takeName = takeName;
        const playNow = h("button", { type: "button", class: "primary play-now", "data-focus": "play-now",
                                      text: _("Play now"), onclick: () => {
            if (!takeName(false)) return;
            this.sendOrWait(this.levels.length ? this.quickGame() : { type: "create", quick: true });
        } });
        const quick = h("section", { class: "quick", "aria-label": _("Play now") }, [
            h("div", { class: "quick-buttons" }, [
                playNow,
                h("button", { type: "button", class: "how-to-play", "data-focus": "how-to-play",
                              text: _("How to play"), onclick: () => openRules("rules") }),
                h("a", { class: "button learn-btn", href: "#/learn", "data-focus": "learn", text: _("Learn by playing") })]),
            h("p", { class: "hint", text: _("A game against three gentle bots, with hints.") }),
        ]);

        const create = h("form", { class: "card-panel create", "aria-labelledby": "create-title",
                                   onsubmit: (/** @type {Event} */ e) => {
            e.preventDefault();
            if (!takeName(true)) return;
            /** @type {proto.SeatWish[]} */
            const seats = [{ kind: "person" }];
            for (const sel of this.seatsBox.querySelectorAll("select")) {
                const v = /** @type {HTMLSelectElement} */ (sel).value;
                if (v === "person") seats.push({ kind: "person" });
                else if (v.startsWith("bot:")) seats.push({ kind: "bot", level: v.slice(4) });
                else seats.push({ kind: "engine", engine: v.slice(7) });
            }
            const m = proto.create(seats, { open: open.checked, fill: fillLevel.value, hints: hints.checked,
                                            moveSeconds: Number(moveTime.value) || 0, listed: listed.checked });
            this.sendOrWait(m);
        } }, [
            h("h2", { id: "create-title", text: _("A new table") }),
            h("div", { class: "field" }, [h("label", { for: "players", text: _("Players") }), players]),
            this.seatsBox,
            h("div", { class: "field" }, [h("label", { for: "move-time", text: _("Time per move in seconds (0: no limit)") }), moveTime]),
            h("div", { class: "field" }, [h("label", { for: "fill", text: _("A bot of this level plays for someone away") }), fillLevel]),
            h("div", { class: "field check" }, [open, h("label", { for: "open", text: _("Open game: show stack counts and every road during play") })]),
            h("div", { class: "field check" }, [hints, h("label", { for: "hints",
                text: _("Hints: anyone may ask for the best move on their turn (everyone sees this option)") })]),
            h("div", { class: "field check" }, [listed, h("label", { for: "listed",
                text: _("List it in the lobby: anyone may join") })]),
            h("button", { type: "submit", class: "primary", text: _("Create the table") }),
        ]);

        const code = h("input", { type: "text", id: "code", maxlength: "64", autocomplete: "off",
                                  autocapitalize: "characters", spellcheck: "false" });
        const go = (/** @type {string} */ where) => {
            const c = code.value.trim().replace(/^.*#\/[tw]\//, "").toUpperCase();
            if (!/^[A-Z0-9]{6}$/.test(c)) {
                this.notice.textContent = _("A table code has six letters and digits.");
                code.focus();
                return;
            }
            const me = cleanName(name.value);
            if (me) saveName(me);
            location.hash = "#/" + where + "/" + c;
        };
        const join = h("form", { class: "card-panel join-panel", "aria-labelledby": "join-title",
                                 onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); go("t"); } }, [
            h("h2", { id: "join-title", text: _("Join a table") }),
            h("div", { class: "field" }, [h("label", { for: "code", text: _("Table code or link") }), code]),
            h("div", { class: "buttons" }, [
                h("button", { type: "submit", class: "primary", text: _("Join") }),
                h("button", { type: "button", text: _("Watch"), onclick: () => go("w") })]),
        ]);

        const held = heldSeats();
        const mine = Object.entries(held).sort((a, b) => b[1].at - a[1].at);
        const tables = h("section", { class: "card-panel mine", "aria-labelledby": "mine-title" }, [
            h("h2", { id: "mine-title", text: _("Your tables") }),
            mine.length ? h("ul", {}, mine.map(([c, m]) => h("li", {}, [
                h("a", { href: "#/t/" + c, text: fmt(_("Table %s, as %s"), c, m.name) }), " ",
                h("button", { type: "button", class: "quiet", text: _("Forget"),
                              "aria-label": fmt(_("Forget table %s"), c),
                              onclick: () => { rememberSeat(c, null); this.render(); } })])))
                : h("p", { text: _("None yet: the tables you sit at are listed here.") }),
        ]);

        const file = h("input", { type: "file", id: "fgn-file", accept: ".fgn,text/plain" });
        file.addEventListener("change", async () => {
            const f = file.files && file.files[0];
            if (!f) return;
            if (f.size > 64 * 1024) {   // the server replays records of up to 64 KiB
                this.notice.textContent = _("This file is too large to be a game record.");
                file.value = "";
                return;
            }
            sessionStorage.setItem("figaro.replay", await f.text());
            sessionStorage.setItem("figaro.replay-name", f.name);
            location.hash = "#/r/file";
        });
        const replay = h("section", { class: "card-panel", "aria-labelledby": "replay-title" }, [
            h("h2", { id: "replay-title", text: _("Replay a game") }),
            h("label", { for: "fgn-file", text: _("A game record (.fgn file)") }), file,
        ]);

        fill(this.root, [h("div", { class: "home" }, [
            h("h1", { text: "Figaro" }),
            h("p", { class: "lead", text: _("Reiner Knizia's card game, around a table with your friends.") }),
            personCard(heldSeats),
            h("div", { class: "field name-field" }, [h("label", { for: "name", text: _("Your name") }), name,
                h("small", { id: "name-hint", text: fmt(_("Up to %s characters, spaces included."), String(NAME_CHARS)) })]),
            this.notice,
            quick,
            this.lobby.root,
            this.fullForm(create),
            h("div", { class: "home-grid" }, [join, tables, replay]),
        ])]);
        this.renderSeats();
    }

    /** The form with every option, folded until opened (and then open
     * again next time). @param {HTMLElement} form */
    fullForm(form) {
        const d = h("details", { class: "full-form", open: localStorage.getItem(FULL_FORM_KEY) === "1" }, [
            h("summary", { text: _("A table with friends, or other settings") }), form]);
        d.addEventListener("toggle", () => localStorage.setItem(FULL_FORM_KEY, d.open ? "1" : "0"));
        return d;
    }

    /** A level to start a menu on: the server's default, if it lists it. */
    defaultLevel() {
        return this.levels.includes(this.defaultLevelName) ? this.defaultLevelName : this.levels[0] || "";
    }

    /** The menu of the level that plays for someone away, keeping its choice. */
    renderFill() {
        const sel = /** @type {HTMLSelectElement} */ (this.fillLevel);
        const value = this.levels.includes(sel.value) ? sel.value : this.defaultLevel();
        fill(sel, this.levels.map((l) => h("option", { value: l, text: levelName(l) })));
        sel.value = value;
    }

    renderSeats() {
        const rows = [];
        for (let s = 1; s < this.players; s++) {
            const prev = /** @type {HTMLSelectElement|null} */ (this.seatsBox.querySelector("#seat-" + s));
            const first = "bot:" + this.defaultLevel();
            const value = prev && prev.value ? prev.value : s === 1 ? "person" : first;
            const opts = [h("option", { value: "person", text: _("a friend (open seat)") })];
            for (const l of this.levels) opts.push(h("option", { value: "bot:" + l, text: fmt(_("bot: %s"), levelName(l)) }));
            for (const e of this.engines) opts.push(h("option", { value: "engine:" + e, text: fmt(_("engine: %s"), e) }));
            const sel = h("select", { id: "seat-" + s, onchange: () => this.defaultHints() }, opts);
            sel.value = [...sel.options].some((o) => o.value === value) ? value : first;
            rows.push(h("div", { class: "field" }, [h("label", { for: "seat-" + s, text: fmt(_("Seat %d"), s + 1) }), sel]));
        }
        fill(this.seatsBox, [h("p", { class: "hint", text: _("Seat 1 is yours.") }), ...rows]);
        this.defaultHints();
    }

    /** The hints box follows the seats (the server's default) until the person ticks it. */
    defaultHints() {
        if (this.hintsChosen) return;
        this.hints.checked = ![...this.seatsBox.querySelectorAll("select")]
            .some((sel) => /** @type {HTMLSelectElement} */ (sel).value === "person");
    }
}

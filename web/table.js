// SPDX-License-Identifier: MIT
// table.js - a table, live: seated (playing) or watching.
//
// It keeps the table as the server tells it (a snapshot, then numbered
// events, docs/protocol.md) and draws it: the seats around the table, your
// hand at the bottom, what a card would do before you commit it, the round
// ends, the final roads, the narration (an ARIA live log) and the chat, the
// vote for a rematch. Only the server's view is drawn: a spectator's has no
// hand, and nobody's has another seat's (R14). A snapshot (a reload, a
// reconnection, a spectator arriving) brings the current game's story, which
// replaces the log.
//
// Phones first: the page is one screen that never scrolls (the status line,
// the seats in a grid around the felt, the turn line, the hand); the log and
// the chat open as a sheet (a drawer beside the table on a wide screen), the
// round's end, the ranking and a hint come over the seats. On your turn the
// tab's title and icon change, with a chime and a vibration if asked for
// (notify.js); a table with a time per move shows everyone the clock.
//
// What the server said lives in table_state.js (no DOM); what the person is
// doing with the page (a card chosen, a panel closed) lives here; the log and
// the chat are drawer.js's; every message sent is built by proto.js.

import { _, fmt, fmtNodes, ngettext, lang, levelName } from "./i18n.js";
import { cardEl, cardOrder, cardText, cardName, colourName } from "./cards.js";
import { h, fill, rovingKey } from "./dom.js";
import { showTurn, alertTurn, soundOn, setSound, vibrateOn, setVibrate, canVibrate, wakeAudio } from "./notify.js";
import { Conn, heldSeats, rememberSeat, savedName, saveName, cleanName, NAME_CHARS, gamesPlayed, countGame } from "./net.js";
import * as proto from "./proto.js";
import { TableState } from "./table_state.js";
import { drawSeats, drawRanking, drawRoundEnd, animateRing, pilePlaces } from "./board.js";
import { shareInvite, shareLabel } from "./share.js";
import { rulesAt, rulesStatus, ruleLinks } from "./rules.js";
import { Drawer } from "./drawer.js";

/** @typedef {import("./net.js").Msg} Msg */
/** @typedef {import("./board.js").SeatShow} SeatShow */
/** @typedef {{kind: string, name: string|null, status: string, level?: string, engine?: string}} SeatInfo */
/** @typedef {{game: number, votes: string[], ready: number, of: number}} Tally */

export class TableView {
    /** @param {HTMLElement} root @param {string} code @param {boolean} watch */
    constructor(root, code, watch) {
        this.root = root;
        this.code = code;
        this.watch = watch;
        /** The table as the server told it. */
        this.s = new TableState(code);
        /** @type {string|null} the card chosen, before a seat */
        this.selected = null;
        this.confirmTake = false;
        /** @type {string|null} */
        this.dragCard = null;
        /** Whether the hint's panel is open (it closes while a card is chosen: the seats show then). */
        this.hintShown = false;
        /** Why a card tapped cannot be played: the engine's refusal of it in
         * front of each seat (the server's `illegal` answers, asked with acts
         * it refuses), for that turn. @type {{card: string, n: number, waiting: number, reasons: string[]}|null} */
        this.why = null;
        /** Whether this browser had sat through no game to its end when this table opened. */
        this.firstGame = gamesPlayed() === 0;
        /** The panel the person closed (the round's end, or the ranking) */
        this.closedPanel = "";
        this.wasMyTurn = false;

        // The page's parts that live as long as the table: the log and chat keep
        // their nodes (a live region must not be rebuilt).
        this.link = h("p", { class: "link-state", role: "status", text: _("Connecting...") });
        this.notice = h("p", { class: "notice", role: "alert" });
        this.head = h("div", { class: "table-head" });
        this.clock = h("span", { class: "clock", role: "timer", hidden: true });
        // How to play (the header's button) opens over the table on the
        // player aid, saying whether the turn waits: the game goes on beneath.
        rulesAt("aid", () => this.turnLine());
        this.top = h("div", { class: "table-top" });
        this.ring = h("div", { class: "ring" });
        this.bar = h("div", { class: "action-bar" });
        this.handEl = h("div", { class: "hand-area" });
        this.panels = h("div", { class: "panels" });
        this.chatInput = h("input", { type: "text", id: "chat-text", maxlength: "200", autocomplete: "off",
                                      placeholder: _("Say something to the table") });
        // A spectator chats under the name its hello gave (docs/protocol.md,
        // chat): one who never typed a name is asked for it here first.
        this.chatName = h("input", { type: "text", id: "chat-name", maxlength: String(4 * NAME_CHARS),
                                     autocomplete: "nickname", placeholder: _("Your name") });
        this.chatNameField = h("div", { class: "chat-name", hidden: true }, [
            h("label", { for: "chat-name", text: _("To chat, say who you are:") }), this.chatName]);
        /** @type {string|null} a line to say once the connection knows the name */
        this.pendingChat = null;
        const chatForm = h("form", { class: "chat", onsubmit: (/** @type {Event} */ e) => {
            e.preventDefault();
            const text = this.chatInput.value.trim();
            if (!text) return;
            if (this.needsChatName()) {
                const name = cleanName(this.chatName.value);
                if (!name) {
                    this.chatName.focus();
                    return;
                }
                saveName(name);   // the next hello carries it
                this.pendingChat = text;
                this.chatInput.value = "";
                this.chatNameField.hidden = true;
                this.conn.restart();
                return;
            }
            if (this.conn.send(proto.chat(this.code, text))) this.chatInput.value = "";
        } }, [
            this.chatNameField,
            h("label", { for: "chat-text", class: "sr-only", text: _("Chat") }),
            this.chatInput,
            h("button", { type: "submit", text: _("Send") }),
        ]);
        // The table's options, the person's wishes for their turn, the invite
        // during a game, leaving: beside the log (in its sheet on a phone).
        this.sideInfo = h("div", { class: "side-info" });
        this.tools = h("div", { class: "side-tools" }, [chatForm, this.sideInfo]);
        this.drawer = new Drawer(this.tools, this.chatInput);
        const stage = h("div", { class: "stage" }, [this.ring, this.panels]);
        const main = h("div", { class: "table-main" }, [this.top, stage, this.bar, this.handEl]);
        fill(this.root, [h("div", { class: "table-page" }, [
            this.head, h("div", { class: "table-status" }, [this.link, this.notice]), main, this.drawer.scrim, this.drawer.side])]);
        document.body.classList.add("at-table");
        this.conn = new Conn(() => this.hello(), (m) => this.onMessage(m), (up) => this.onLink(up),
            () => "?table=" + encodeURIComponent(this.code) +
                (this.s.node ? "&node=" + encodeURIComponent(this.s.node) : ""));
        this.wake = () => {
            if (document.visibilityState === "visible" && !this.conn.ws) this.conn.restart();
        };
        document.addEventListener("visibilitychange", this.wake);
        window.addEventListener("online", this.wake);
        this.keys = (/** @type {KeyboardEvent} */ e) => this.onKey(e);
        document.addEventListener("keydown", this.keys);
        this.gesture = () => wakeAudio();
        document.addEventListener("pointerdown", this.gesture);
        this.tick = window.setInterval(() => this.renderClock(), 250);
    }

    destroy() {
        rulesAt("rules", () => null);
        this.conn.close();
        document.removeEventListener("visibilitychange", this.wake);
        window.removeEventListener("online", this.wake);
        document.removeEventListener("keydown", this.keys);
        document.removeEventListener("pointerdown", this.gesture);
        this.drawer.destroy();
        window.clearInterval(this.tick);
        document.body.classList.remove("at-table");
        showTurn(false, "Figaro");
    }

    /** The hello: the seat this browser holds here, unless it watches. @returns {Msg} */
    hello() {
        const claim = this.watch || this.s.yielded ? null : proto.seatClaim(this.code, this.s.since());
        return proto.hello(claim ? [claim] : []);
    }

    /** @param {boolean} up */
    onLink(up) {
        this.link.textContent = up ? "" : _("Connection lost: trying again...");
        this.link.classList.toggle("down", !up);
    }

    spectate() {
        this.conn.send(proto.spectate(this.code, this.s.since()));
    }

    /** @param {Msg} m */
    onMessage(m) {
        if (m.type === "welcome") {
            const memo = heldSeats()[this.code];
            const auto = sessionStorage.getItem("figaro.autojoin");
            if (auto === this.code && !memo) {
                sessionStorage.removeItem("figaro.autojoin");
                this.conn.send(proto.join(this.code, cleanName(savedName()), 0));
            } else if (!memo || this.watch || this.s.yielded) {
                this.spectate();
            }
            if (this.pendingChat) {   // said after the spectate, on the connection that has the name
                this.conn.send(proto.chat(this.code, this.pendingChat));
                this.pendingChat = null;
            }
            return;
        }
        if (m.type === "error") {
            this.error(m);
            return;
        }
        const before = m.type === "event" && (m.kind === "deal" || m.kind === "action") &&
            (m.events || []).some((/** @type {any} */ e) => e.type === "ring") ? pilePlaces(this.ring) : null;
        const c = this.s.apply(m, Date.now());
        if (!c) return;
        if (c.seated) {
            const st = c.seated;
            if (st.token) rememberSeat(this.code, { token: st.token, seat: st.seat, name: st.name, at: Date.now() });
            this.drawer.say([fmt(_("You sit at seat %d as %s."), st.seat + 1, st.name)], "me");
            return;
        }
        if (c.unseated) this.drawer.say([_("Your seat is now played from another window or device.")], "me");
        if (c.left) rememberSeat(this.code, null);
        if (c.story) this.drawer.story(c.story);
        if (c.say) this.drawer.say(c.say, c.kind || "");
        if (c.chat) {
            this.drawer.chat(c.chat);
            return;
        }
        if (c.hint) {
            this.hintShown = true;
            this.selected = null;
        }
        if (c.moved && m.type === "event") {   // a new position: what was chosen for the old one goes
            this.selected = null;
            this.confirmTake = false;
            this.why = null;
            if (this.s.state === "over" && this.s.seat !== null && this.s.gameOver) countGame();
        }
        this.render();
        if (before) animateRing(this.ring, before);
    }

    /** @param {Msg} m */
    error(m) {
        if (m.re === "act" && this.why && this.why.waiting > 0) {   // a refusal asked for: why a card cannot go
            this.why.waiting--;
            if (m.code === "illegal" && m.text) this.why.reasons.push(m.text);
            this.render();
            return;
        }
        const r = this.s.error(m);
        if (r.again !== undefined) {
            if (r.say) this.notice.textContent = r.say;
            this.conn.again(r.again);
            return;
        }
        if (r.forget) rememberSeat(this.code, null);
        if (r.spectate) this.spectate();
        if (r.say === null) return;
        this.render();
        this.notice.textContent = r.say;
    }

    /** @param {number} s */
    name(s) {
        return this.s.name(s);
    }

    myTurn() {
        return this.s.myTurn();
    }

    /** @param {string} action */
    act(action) {
        if (!this.myTurn()) return;
        if (this.conn.send(proto.act(this.code, this.s.gameN, action))) {
            this.s.sent = this.s.gameN;
            this.notice.textContent = "";
        }
        this.selected = null;
        this.confirmTake = false;
        this.render();
    }

    /** @param {string} card @param {number} t */
    actionFor(card, t) {
        return this.s.actionFor(card, t);
    }

    /** What playing `action` would do, as a sentence and a short label.
     * @param {string} action @returns {{label: string, preview: (string|Node)[], collects: boolean}} */
    preview(action) {
        const v = this.s.view;
        const me = /** @type {number} */ (this.s.seat);
        if (action === "RING")
            return { label: _("play a ring: every pile moves one seat to the left"),
                     preview: [_("every pile moves left")], collects: false };
        const [card, t] = action.split(">");
        const target = Number(t);
        // What the move would do, as the server's engine computed it (the
        // view's `outcomes`, parallel to `legal`).
        const o = v.outcomes[v.legal.indexOf(action)];
        const c = cardText(card);
        // In the short text the name may be cut, never what happens.
        const who = h("span", { class: "who", text: this.name(target) });
        if (o.collector === undefined) {
            const label = target === me ? fmt(_("%s in front of yourself"), c)
                                        : fmt(_("%s in front of %s"), c, this.name(target));
            const preview = target === me ? fmtNodes(_("Your pile: %d"), o.reach)
                                          : fmtNodes(_("%s's pile: %d"), who, o.reach);
            return { label, preview, collects: false };
        }
        const label = target === me
            ? fmt(_("%s in front of yourself: your pile reaches %d and you collect %d cards"), c, o.reach, o.count)
            : fmt(_("%s in front of %s: that pile reaches %d and %s collects %d cards"), c, this.name(target),
                  o.reach, this.name(target), o.count);
        const preview = target === me ? [fmt(_("you collect %d cards"), o.count)]
                                      : fmtNodes(_("%s collects %d cards"), who, o.count);
        return { label, preview, collects: true };
    }

    /** Whether chatting needs a name first: a spectator who never gave one. */
    needsChatName() {
        return this.s.seat === null && !cleanName(savedName());
    }

    render() {
        this.chatNameField.hidden = !this.needsChatName();
        const focusKey = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.focus : undefined;
        this.renderHead();
        this.renderTop();
        this.renderRing();
        this.renderBar();
        this.renderHand();
        this.renderPanels();
        this.renderSide();
        this.renderTurn();
        if (focusKey) {
            const el = this.root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
            if (el instanceof HTMLElement && el !== document.activeElement) el.focus({ preventScroll: true });
        }
    }

    /** The status line: the table's code, the round (said once on the page),
     * what everyone should know (watching, hints on, an open game), the move
     * clock, and the buttons of the log's sheet. */
    renderHead() {
        const v = this.s.view;
        const tags = [];
        if (this.watch || (this.s.seat === null && this.s.state)) tags.push(h("span", { class: "tag", text: _("watching") }));
        if (this.s.options && this.s.options.hints)
            tags.push(h("span", { class: "tag tag-hints", title: _("Everyone at this table may ask for hints on their turn."),
                                  text: _("hints on") }));
        if (this.s.options && this.s.options.open) tags.push(h("span", { class: "tag", text: _("open game") }));
        const round = [];
        if (v) {
            if (this.s.game > 1) round.push(fmt(_("Game %d"), this.s.game));
            round.push(fmt(_("Round %d of 3"), v.round));
        }
        fill(this.head, [
            h("h1", { class: "table-title" }, [h("span", { class: "sr-only", text: _("Table") + " " }),
                                                h("span", { class: "code", text: this.code })]),
            round.length ? h("p", { class: "round-line", text: round.join(" · ") }) : null,
            ...tags, this.clock,
            h("span", { class: "head-buttons" }, [this.drawer.logBtn, this.drawer.chatBtn]),
        ].filter((x) => x !== null));
    }

    /** The move clock, shown to everyone (the state counts it: table_state.js). */
    renderClock() {
        const el = this.clock;
        const left = this.s.secondsLeft(Date.now());
        if (left === null) {
            el.hidden = true;
            return;
        }
        const text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
        el.hidden = false;
        if (el.textContent !== text) el.textContent = text;
        const who = this.s.view ? this.s.view.turn : -1;
        el.setAttribute("aria-label", who === this.s.seat ? fmt(_("Your time to move: %s"), text)
                                                         : fmt(_("%s's time to move: %s"), this.name(who), text));
        el.classList.toggle("mine", who === this.s.seat);
        el.classList.toggle("short", left <= 10);
    }

    /** What the rules' sheet says over the table: that the turn waits. */
    turnLine() {
        return this.myTurn() ? _("Your turn: close this to play.") : null;
    }

    /** The tab's title and icon say it is your turn; the turn's start chimes. */
    renderTurn() {
        this.renderClock();
        const mine = !!this.myTurn();
        rulesStatus(this.turnLine());
        showTurn(mine, (mine ? _("Your turn!") + " · " : "") + "Figaro · " + this.code);
        if (mine && !this.wasMyTurn) alertTurn();
        this.wasMyTurn = mine;
    }

    renderTop() {
        const kids = [];
        if (this.s.noTable) kids.push(h("p", { text: _("No table has this code.") }));
        if (this.s.yielded && this.s.seat === null && !this.watch) {
            // Said on the page, not only in the log: this window only watches now.
            kids.push(h("div", { class: "yielded", role: "status" }, [
                h("p", { text: _("Your seat is played from another tab or device: this page only watches.") }),
                h("button", { type: "button", "data-focus": "take-back", text: _("Play here"), onclick: () => {
                    this.s.yielded = false;
                    this.s.epoch = "";   // a snapshot, not the events since: the view watched has no hand
                    this.conn.restart();
                } })]));
        }
        if (this.s.state === "waiting") {
            kids.push(this.invite());
            kids.push(h("p", { class: "waiting", text: _("The game starts when every open seat is taken.") }));
        }
        if (!this.watch && this.s.seat === null && this.s.state && this.s.seats.some((s) => s.status === "open") &&
            !this.s.yielded) {
            // maxlength counts UTF-16 units: room for NAME_CHARS characters of any kind
            const input = h("input", { type: "text", id: "join-name", maxlength: String(4 * NAME_CHARS), value: savedName(),
                                       autocomplete: "nickname", required: true });
            kids.push(h("form", { class: "join", onsubmit: (/** @type {Event} */ e) => {
                e.preventDefault();
                const name = cleanName(input.value);
                if (!name) return;
                saveName(name);
                this.conn.send(proto.join(this.code, name));
            } }, [h("label", { for: "join-name", text: _("Your name") }), input,
                  h("button", { type: "submit", class: "primary", text: _("Take a seat") })]));
        }
        fill(this.top, kids);
    }

    /** The link friends join with: on the page while the table waits for
     * them, beside the log once the game runs (a bot plays an open seat). */
    invite() {
        const url = location.origin + location.pathname + "#/t/" + this.code;
        const link = h("input", { type: "text", readonly: true, value: url, id: "invite-link", class: "invite-url" });
        return h("div", { class: "invite" }, [
            h("label", { for: "invite-link", text: _("Invite friends with this link:") }),
            link,
            h("button", { type: "button", "data-focus": "copy", text: shareLabel(), onclick: (/** @type {Event} */ e) => {
                const b = /** @type {HTMLButtonElement} */ (e.currentTarget);
                shareInvite(url, link).then((how) => { if (how === "copied") b.textContent = _("Copied"); });
            } }),
        ]);
    }

    /** Beside the log: the table's options, the person's wishes for their
     * turn (remembered in this browser), the invite, leaving. */
    renderSide() {
        const o = this.s.options;
        // Rebuilt only when it changed: a checkbox being used keeps its node.
        const key = JSON.stringify([o, this.s.seat, this.s.state, this.s.seats.map((s) => s.status), lang()]);
        if (this.sideInfo.dataset.key === key) return;
        this.sideInfo.dataset.key = key;
        const kids = [];
        if (o) {
            const lines = [o.hints ? _("Hints are on at this table: everyone may ask for one on their turn.")
                                   : _("Hints are off at this table.")];
            if (o.move_seconds) lines.push(fmt(_("Time per move: %d s (then a bot plays)."), o.move_seconds));
            kids.push(h("div", { class: "table-options" }, lines.map((t) => h("p", { text: t }))));
        }
        if (this.s.seat !== null) {
            const box = (/** @type {string} */ id, /** @type {string} */ text, /** @type {boolean} */ on,
                         /** @type {(on: boolean) => void} */ set) => {
                const input = h("input", { type: "checkbox", id, checked: on });
                input.addEventListener("change", () => set(input.checked));
                return h("div", { class: "field check" }, [input, h("label", { for: id, text })]);
            };
            kids.push(box("turn-sound", _("A sound on my turn"), soundOn(), setSound));
            if (canVibrate()) kids.push(box("turn-vibrate", _("Vibrate on my turn"), vibrateOn(), setVibrate));
        }
        if (this.s.state && this.s.state !== "waiting" && this.s.seats.some((s) => s.status === "open")) kids.push(this.invite());
        if (this.s.seat !== null && this.s.state) {
            kids.push(h("p", { class: "leave" }, [h("button", { type: "button", class: "quiet", "data-focus": "leave",
                text: _("Leave the table"), onclick: () => {
                    if (confirm(_("Leave the table? A bot takes your seat until someone joins."))) {
                        this.conn.send(proto.leave(this.code));
                    }
                } })]));
        }
        fill(this.sideInfo, kids);
    }

    renderRing() {
        const v = this.s.view;
        const n = this.s.seats.length;
        if (!n) {
            this.ring.replaceChildren();
            return;
        }
        const me = this.s.seat ?? this.s.lastSeat ?? 0;
        const canPick = this.myTurn() && this.selected;
        /** @type {SeatShow[]} */
        const shows = this.s.seats.map((s, i) => {
            const tags = [];
            const pile = v ? v.piles[i] : { colour: null, total: 0, cards: [] };
            const handSize = v ? v.hand_sizes[i] : 0;
            if (v && v.turn === i && v.phase === "play" && this.s.state === "playing") tags.push(_("to play"));
            if (handSize === 1 && v && v.phase === "play") tags.push(_("last card!"));
            if (s.status === "away") tags.push(_("away"));
            if (s.status === "bot" && s.kind === "person") tags.push(_("a bot plays"));
            // A seat nobody took is named "(open seat)": no tag to say it again.
            if (s.status === "open" && (s.name || this.s.state !== "waiting"))
                tags.push(this.s.state === "waiting" ? _("open seat") : _("a bot plays"));
            if (s.kind === "bot" && s.level) tags.push(fmt(_("bot: %s"), levelName(s.level)));
            if (s.kind === "engine") tags.push(fmt(_("engine: %s"), s.engine || ""));
            if (this.s.lastCollect && this.s.lastCollect.seat === i)
                tags.push(fmt(ngettext("collected %d card", "collected %d cards", this.s.lastCollect.count), this.s.lastCollect.count));
            let target = null;
            const action = canPick ? this.actionFor(/** @type {string} */ (this.selected), i) : null;
            if (action) {
                const p = this.preview(action);
                target = { ...p, hinted: !!this.s.hint && this.s.hint.action === action, act: () => this.act(action) };
            }
            return {
                name: this.name(i), you: i === this.s.seat, king: !!v && v.king === i,
                turn: !!v && v.turn === i && this.s.state === "playing", pile, handSize, hand: null,
                pieces: v ? v.road_pieces[i] : 0, roads: v && v.roads ? v.roads[i] : null,
                stack: v && v.stacks && this.s.state !== "over" ? v.stacks[i] : null, tags,
                lastCard: this.s.lastPlay && this.s.lastPlay.target === i ? this.s.lastPlay.card : null,
                collected: this.s.lastCollect && this.s.lastCollect.seat === i ? this.s.lastCollect.count : 0,
                target, status: s.status, bare: !v,
            };
        });
        const centre = [];
        if (v) {
            const faceUp = v.piles.reduce((/** @type {number} */ k, /** @type {any} */ p) => k + p.cards.length, 0);
            const group = v.road_groups[v.round - 1];
            if (group) centre.push(h("p", { class: "centre-pieces",
                text: fmt(_("Pieces this round: %s"), group.join(" "))}));
            centre.push(h("p", { text: fmt(ngettext("%d face-up card on the table.", "%d face-up cards on the table.", faceUp), faceUp) }));
            if (v.removed) centre.push(h("p", { class: "removed",
                text: fmt(_("With three players the %s cards are left out."), colourName(v.removed)) }));
        } else if (this.s.state === "waiting") {
            centre.push(h("p", { text: _("Waiting for players") }));
        }
        drawSeats(this.ring, shows, me, centre);
        // Drag and drop: a card of the hand onto a seat it may go to.
        for (const el of this.ring.querySelectorAll(".seat")) {
            const s = Number(/** @type {HTMLElement} */ (el).dataset.seat);
            el.addEventListener("dragover", (e) => {
                const a = this.dragCard && this.actionFor(this.dragCard, s);
                if (a) { e.preventDefault(); el.classList.add("drop"); }
            });
            el.addEventListener("dragleave", () => el.classList.remove("drop"));
            el.addEventListener("drop", (e) => {
                e.preventDefault();
                const a = this.dragCard && this.actionFor(this.dragCard, s);
                this.dragCard = null;
                if (a) this.act(a);
            });
        }
    }

    renderBar() {
        const v = this.s.view;
        const kids = [];
        if (!v || this.s.state !== "playing") {
            fill(this.bar, []);
            return;
        }
        if (this.myTurn()) {
            const legal = v.legal || [];
            const faceUp = v.piles.reduce((/** @type {number} */ k, /** @type {any} */ p) => k + p.cards.length, 0);
            if (this.confirmTake) {
                kids.push(h("p", { class: "prompt", text: fmt(ngettext("Take the %d face-up card into your stack?",
                                                                     "Take the %d face-up cards into your stack?", faceUp), faceUp) }),
                          h("button", { type: "button", class: "primary", "data-focus": "take-yes",
                                        text: _("Take them"), onclick: () => this.act("take") }),
                          h("button", { type: "button", "data-focus": "take-no", text: _("Cancel"),
                                        onclick: () => { this.confirmTake = false; this.render(); } }));
            } else {
                const cards = legal.some((/** @type {string} */ a) => a !== "take");
                // In a first game the line says what is allowed; a forced take says why, always.
                const prompt = this.selected ? fmt(_("%s: now a lit seat."), cardText(this.selected))
                    : !cards ? _("No card of yours can be played: you must take (R5).")
                    : !this.firstGame ? _("Your turn: a card, then a lit seat.")
                    : legal.includes("take") ? _("Your turn: play one of the bright cards, or take.")
                    : _("Your turn: play one of the bright cards.");
                kids.push(h("p", { class: "prompt your-turn" + (cards ? "" : " must-take") }, ruleLinks(prompt)));
                if (this.selected)
                    kids.push(h("button", { type: "button", "data-focus": "unselect", text: _("Cancel"),
                                            onclick: () => { this.selected = null; this.render(); } }));
                if (legal.includes("take"))
                    kids.push(h("button", { type: "button", class: "take", "data-focus": "take",
                                            text: fmt(ngettext("Take %d card", "Take %d cards", faceUp), faceUp),
                                            onclick: () => { this.confirmTake = true; this.selected = null;
                                                             this.render(); } }));
                if (this.s.options && this.s.options.hints && !this.selected)   // one line on a phone
                    kids.push(h("button", { type: "button", class: "hint-btn", "data-focus": "hint",
                                            disabled: this.s.hintAsked === this.s.gameN && !this.s.hint,
                                            text: this.s.hintAsked === this.s.gameN && !this.s.hint ? _("Thinking...") : _("Hint"),
                                            onclick: () => this.askHint() }));
            }
        } else if (v.phase === "play") {
            kids.push(h("p", { class: "prompt", text: this.s.seat !== null && this.s.sent === this.s.gameN ? _("Sent...")
                                                   : fmt(_("%s is to play."), this.name(v.turn)) }));
        }
        fill(this.bar, kids);
    }

    /** Why card cannot be played now, in the engine's words: the server
     * refuses it in front of each seat (`illegal`, with the rules' reason);
     * asked once a turn and card, answering this event (a later one is
     * `stale`, never played). The client plays no rule: it only asks.
     * @param {string} card */
    askWhy(card) {
        if (this.why && this.why.card === card && this.why.n === this.s.gameN) {
            this.render();
            return;
        }
        this.why = { card, n: this.s.gameN, waiting: 0, reasons: [] };
        this.selected = null;
        this.confirmTake = false;
        const seats = card === "RING" ? [/** @type {number} */ (this.s.seat)] : this.s.seats.map((_s, i) => i);
        for (const t of seats)
            if (!this.s.legal().includes(card + ">" + t) && this.conn.send(proto.act(this.code, this.s.gameN, card + ">" + t)))
                this.why.waiting++;
        this.render();
    }

    /** The engine's reasons a card tapped cannot be played, over the seats
     * (it gives way when a card is chosen, as the hint does). */
    whyPanel() {
        const w = /** @type {{card: string, n: number, waiting: number, reasons: string[]}} */ (this.why);
        return h("section", { class: "why-panel", role: "status", "aria-labelledby": "why-title" }, [
            h("button", { type: "button", class: "panel-close", "data-focus": "close-why", "aria-label": _("Close"),
                          text: "×", onclick: () => { this.why = null; this.render(); } }),
            h("h2", { id: "why-title", text: fmt(_("%s cannot be played now:"), cardText(w.card)) }),
            w.reasons.length ? h("ul", {}, w.reasons.map((t) => h("li", {}, ruleLinks(t))))
                             : h("p", { text: w.waiting ? _("Asking the rules...") : _("It cannot be played on this turn.") }),
        ]);
    }

    /** Asks the server for a hint, once a turn; then the button shows it again. */
    askHint() {
        if (this.s.hint) {
            this.hintShown = true;
            this.selected = null;
            this.render();
            return;
        }
        if (!this.myTurn() || this.s.hintAsked === this.s.gameN) return;
        if (this.conn.send(proto.hint(this.code, this.s.gameN))) this.s.hintAsked = this.s.gameN;
        this.render();
    }

    /** The hand: one Tab stop, the arrow keys move within it (a toolbar);
     * cards of one kind are one button with their count. */
    renderHand() {
        const v = this.s.view;
        if (!v || !v.hand || this.s.seat === null) {
            fill(this.handEl, []);
            return;
        }
        /** @type {string[]} */
        const hand = v.hand.slice().sort(cardOrder);
        /** @type {[string, number][]} */
        const kinds = [];
        for (const c of hand) {
            const last = kinds[kinds.length - 1];
            if (last && last[0] === c) last[1]++;
            else kinds.push([c, 1]);
        }
        const mine = this.myTurn();
        const legal = v.legal || [];
        const prev = document.activeElement instanceof HTMLElement && this.handEl.contains(document.activeElement)
            ? document.activeElement.dataset.card : undefined;
        const kids = kinds.map(([c, count]) => {
            const ok = mine && legal.some((/** @type {string} */ a) => a === c || a.startsWith(c + ">"));
            const el = cardEl(c, "button");
            el.setAttribute("type", "button");
            el.dataset.focus = "card-" + c;
            el.tabIndex = -1;
            const name = count > 1 ? fmt(_("%s, %d cards"), cardName(c), count) : cardName(c);
            el.setAttribute("aria-label", name + (ok ? "" : " " + _("(cannot be played now)")));
            if (count > 1) el.append(h("span", { class: "count", "aria-hidden": "true", text: "×" + count }));
            if (this.s.hint && this.s.hint.action && this.s.hint.action.split(">")[0] === c) el.classList.add("hinted");
            if (ok) {
                el.classList.add("playable");
                el.draggable = true;
                el.addEventListener("dragstart", (e) => {
                    this.dragCard = c;
                    e.dataTransfer?.setData("text/plain", c);
                    for (const s of this.ring.querySelectorAll(".seat"))
                        if (this.actionFor(c, Number(/** @type {HTMLElement} */ (s).dataset.seat)))
                            s.classList.add("droppable");
                });
                el.addEventListener("dragend", () => {
                    this.dragCard = null;
                    for (const s of this.ring.querySelectorAll(".droppable, .drop")) s.classList.remove("droppable", "drop");
                });
            } else {
                el.setAttribute("aria-disabled", "true");
            }
            el.setAttribute("aria-pressed", String(this.selected === c));
            el.addEventListener("click", () => {
                if (!ok) {
                    if (mine) this.askWhy(c);
                    return;
                }
                this.selected = this.selected === c ? null : c;
                this.confirmTake = false;
                this.why = null;
                this.render();
                const first = this.ring.querySelector(".target-btn");
                if (this.selected && first instanceof HTMLElement && !matchMedia("(pointer: coarse)").matches) first.focus();
            });
            return el;
        });
        // The one Tab stop: the card focused before, else the selected one, else the first playable.
        const stop = kids.find((k) => k.dataset.card === prev) || kids.find((k) => k.dataset.card === this.selected) ||
                     kids.find((k) => k.classList.contains("playable")) || kids[0];
        if (stop) stop.tabIndex = 0;
        const title = this.s.state === "playing" && v.phase === "play"
            ? fmt(ngettext("Your hand, %d card:", "Your hand, %d cards:", hand.length), hand.length) : _("Your hand");
        const bar = h("div", { class: "hand" + (mine ? " mine" : ""), role: "toolbar", "aria-labelledby": "hand-title",
                               onkeydown: (/** @type {KeyboardEvent} */ e) => this.handKey(e) }, kids);
        fill(this.handEl, [h("h2", { class: "hand-title", id: "hand-title", text: title }), bar]);
    }

    /** Arrows, Home and End within the hand. @param {KeyboardEvent} e */
    handKey(e) {
        rovingKey(this.handEl, "button.card", e);
    }

    /** What comes over the seats: the hint, the round's end, the ranking and
     * the vote, each until the person closes it. */
    renderPanels() {
        const kids = [];
        const names = this.s.seats.map((_s, i) => this.name(i));
        const v = this.s.view;
        if (this.s.hint && this.hintShown && !this.selected && this.myTurn()) kids.push(this.hintPanel(this.s.hint));
        if (this.why && this.why.n === this.s.gameN && !this.selected && this.myTurn()) kids.push(this.whyPanel());
        const over = this.s.state === "over" && v && v.roads;
        const ended = this.s.roundEvents && this.s.roundEvents.find((e) => e.type === "round_end");
        const key = over ? "over-" + this.s.game : ended ? "round-" + this.s.game + "-" + ended.round : "";
        if (key && key !== this.closedPanel) {
            const close = h("button", { type: "button", class: "panel-close", "data-focus": "close-panel",
                                        "aria-label": _("Close"), text: "×",
                                        onclick: () => { this.closedPanel = key; this.render(); } });
            const end = this.s.roundEvents ? drawRoundEnd(this.s.roundEvents, names) : null;
            if (end && !over && !(this.selected && this.myTurn())) {   // it gives way to the lit seats
                end.prepend(close);
                kids.push(end);
            }
            if (over) {
                const roads = v.roads.map((/** @type {number[]|null} */ r) => r || []);
                const order = this.s.gameOver ? this.s.gameOver.ranking : v.ranking;
                const panel = drawRanking(order, roads, names);
                panel.prepend(close);
                const vote = this.renderVote();
                if (vote) panel.append(vote);
                const acts = h("div", { class: "after-game" });
                const mine = this.s.seat !== null && !!this.s.rematch && this.s.rematch.votes[this.s.seat] === "ready";
                if (this.s.seat !== null)
                    acts.append(h("button", { type: "button", class: mine ? "" : "primary", "data-focus": "rematch",
                                              "aria-pressed": String(mine),
                                              text: mine ? _("Cancel my rematch request") : _("Rematch"),
                                              onclick: () => this.conn.send(proto.rematch(this.code, this.s.game, !mine)) }));
                if (this.s.seat !== null)
                    acts.append(h("a", { href: "#/r/" + this.code + "/" + this.s.game + "/review", class: "review-link",
                                         text: _("Review my moves") }));
                acts.append(h("a", { href: "#/r/" + this.code + "/" + this.s.game, text: _("Replay this game") }));
                if (this.s.record) acts.append(h("a", { href: this.s.record, download: this.code + "-" + this.s.game + ".fgn",
                                                      text: _("Game record (FGN)") }));
                panel.append(acts);
                if (end) panel.append(end);   // the last round's end, below the ranking
                kids.push(panel);
            }
        } else if (over) {
            kids.push(h("p", { class: "reopen" }, [h("button", { type: "button", "data-focus": "reopen",
                text: _("The game is over: the ranking"), onclick: () => { this.closedPanel = ""; this.render(); } })]));
        }
        const had = this.panels.dataset.key;
        fill(this.panels, kids);
        this.panels.hidden = !kids.length;

        // A panel that just appeared comes into view by itself.
        const now = kids.map((k) => k.className).join(" ");
        this.panels.dataset.key = now;
        if (now && now !== had) this.panels.scrollTop = 0;
    }

    /** The server's hint for this turn: the move, why, and the search's other
     * good moves. @param {Msg} m */
    hintPanel(m) {
        const top = Array.isArray(m.top) ? m.top.slice(0, 3) : [];
        const say = Array.isArray(m.say) ? m.say : [];
        return h("section", { class: "hint-panel", "aria-labelledby": "hint-title" }, [
            h("button", { type: "button", class: "panel-close", "data-focus": "close-hint", "aria-label": _("Close"),
                          text: "×", onclick: () => { this.hintShown = false; this.render(); } }),
            h("h2", { id: "hint-title", text: say[0] || _("Hint") }),
            ...say.slice(1).map((t) => h("p", { text: t })),
            // the search's other good moves, folded: the seats stay in sight
            top.length > 1 ? h("details", { class: "hint-more" }, [
                h("summary", { text: _("The search's best moves:") }),
                h("ol", { class: "hint-alts" }, top.map((/** @type {any} */ t) => h("li", { text: String(t.say || t.action) })))]) : null,
        ]);
    }

    /** Who wants the next game, once a game is over: "Ann wants a rematch —
     * 1 of 2 ready", and whom it waits for. @returns {HTMLElement|null} */
    renderVote() {
        const y = this.s.rematch;
        if (!y || !y.of) return null;
        const names = (/** @type {string} */ want) => y.votes.flatMap((v, i) => v === want ? [this.name(i)] : []);
        const ready = names("ready");
        const kids = [];
        if (ready.length)
            kids.push(h("p", { text: fmt(ngettext("%s wants a rematch — %d of %d ready",
                                                  "%s want a rematch — %d of %d ready", ready.length),
                                         ready.join(", "), y.ready, y.of) }));
        const waiting = y.votes.flatMap((v, i) => v !== "waiting" ? [] : i === this.s.seat ? [_("you")] : [this.name(i)]);
        if (ready.length && waiting.length)
            kids.push(h("p", { text: fmt(_("Waiting for %s."), waiting.join(", ")) }));
        if (!ready.length)
            kids.push(h("p", { text: _("A rematch starts when everyone seated asks for it.") }));
        return h("div", { class: "rematch-vote", role: "status" }, kids);
    }

    /** Keyboard play beyond Tab and Enter: t takes, Escape cancels.
     * @param {KeyboardEvent} e */
    onKey(e) {
        const t = e.target;
        if (e.key === "Escape" && this.drawer.open) {
            this.drawer.close();
            return;
        }
        if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement) return;
        if (e.key === "Escape" && (this.selected || this.confirmTake)) {
            this.selected = null;
            this.confirmTake = false;
            this.render();
            const first = this.handEl.querySelector("button.playable");
            if (first instanceof HTMLElement) first.focus();
        } else if ((e.key === "t" || e.key === "T") && this.myTurn() && this.s.view.legal.includes("take")) {
            this.confirmTake = true;
            this.selected = null;
            this.render();
            const yes = this.bar.querySelector("[data-focus=take-yes]");
            if (yes instanceof HTMLElement) yes.focus();
        }
    }
}

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
// A signed-in person (person.js) takes a seat as themselves: the join waits
// for the server to know them, a seat they hold from another device is taken
// back (resume); a rated table says so, and its end the new rating.
//
// What the server said lives in table_state.js (no DOM); what the person is
// doing with the page (a card chosen, a panel closed) lives here; the hand and
// the action bar are table_hand.js's, the panels over the seats
// table_panels.js's; the log and the chat are drawer.js's; every message sent
// is built by proto.js.

import { _, fmt, ngettext, lang, levelName } from "./i18n.js";
import { colourName } from "./cards.js";
import { h, fill } from "./dom.js";
import { showTurn, alertTurn, soundOn, setSound, vibrateOn, setVibrate, canVibrate, wakeAudio } from "./notify.js";
import { Conn, heldSeats, rememberSeat, savedName, saveName, cleanName, NAME_CHARS, gamesPlayed, countGame } from "./net.js";
import * as proto from "./proto.js";
import { TableState } from "./table_state.js";
import { drawSeats, animateRing, pilePlaces } from "./board.js";
import { shareInvite, shareLabel } from "./share.js";
import { rulesAt, rulesStatus } from "./rules.js";
import { Drawer } from "./drawer.js";
import { renderBar, renderHand, preview } from "./table_hand.js";
import { renderPanels } from "./table_panels.js";
import { LOBBY_JOIN_KEY } from "./lobby.js";
import { PersonGate, myPerson, ratedLine } from "./person.js";

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
        /** The card tapped that cannot be played, for that turn: its panel
         * shows the view's reasons. @type {{card: string, n: number}|null} */
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
        /** A join waits for the person (made first from the name given), so the seat is theirs. */
        this.gate = new PersonGate(this.conn);
        /** Whether this connection asked for the person's seat here (resume). */
        this.resumed = false;
        /** The server's `rated` after this table's last rated game. @type {Msg|null} */
        this.rated = null;
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
        this.gate.close();
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
        if (this.gate.onMessage(m)) {   // who the person is; a person not made (rate) leaves the seat unlinked
            if (m.type === "person") this.resume();
            return;
        }
        if (m.type === "rated" && m.table === this.code) {
            this.rated = m;
            this.drawer.say([ratedLine(m)], "me");
            this.render();
            return;
        }
        if (m.type === "welcome") {
            this.gate.welcome();
            this.resumed = false;
            const memo = heldSeats()[this.code];
            const auto = sessionStorage.getItem("figaro.autojoin");
            const listed = sessionStorage.getItem(LOBBY_JOIN_KEY);
            if (auto === this.code && !memo) {
                this.gate.send(proto.join(this.code, cleanName(savedName()), 0), cleanName(savedName()));
            } else if (listed === this.code && !memo && !this.watch) {
                this.spectate();
                this.gate.send(proto.join(this.code, cleanName(savedName())), cleanName(savedName()));
            } else if (!memo || this.watch || this.s.yielded) {
                this.spectate();
            }
            if (this.pendingChat) {   // said after the spectate, on the connection that has the name
                this.conn.send(proto.chat(this.code, this.pendingChat));
                this.pendingChat = null;
            }
            return;
        }
        // The join asked for on arrival (the creator's, the lobby's tap) is forgotten once
        // answered; not on `moved`: then it is asked again at the table's server.
        if (m.type === "seated" || m.re === "join" && m.code !== "moved") {
            sessionStorage.removeItem("figaro.autojoin");
            sessionStorage.removeItem(LOBBY_JOIN_KEY);
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

    /** The seat the person holds here from another device (the server's
     * `person` lists it), taken back without a token of this browser's. */
    resume() {
        const p = myPerson();
        if (this.watch || this.resumed || this.s.seat !== null || heldSeats()[this.code] || this.s.yielded) return;
        if (!p || !p.seats.some((st) => st.table === this.code)) return;
        this.resumed = this.conn.send(proto.resume(this.code, this.s.since()));
    }

    /** @param {Msg} m */
    error(m) {
        if (m.re === "resume") return;   // no seat of the person's here after all: the page watches
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
        renderBar(this);
        renderHand(this);
        renderPanels(this);
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
        if (this.s.options && this.s.options.rated)
            tags.push(h("span", { class: "tag tag-rated", title: _("This table's games count for the players' ratings."),
                                  text: _("rated") }));
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
                this.gate.send(proto.join(this.code, name), name);
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
            if (o.rated) lines.push(_("This table's games count for the players' ratings."));
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
                const p = preview(this, action);
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


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

import { _, fmt, ngettext, lang } from "./i18n.js";
import { cardEl, cardOrder, cardText, colourName } from "./cards.js";
import { h, fill } from "./dom.js";
import { Conn, heldSeats, rememberSeat, savedName, saveName, cleanName, NAME_CHARS } from "./net.js";
import { drawSeats, drawRanking, drawRoundEnd, animateRing, pilePlaces } from "./board.js";
import { shareInvite, shareLabel } from "./share.js";

/** @typedef {import("./net.js").Msg} Msg */
/** @typedef {import("./board.js").SeatShow} SeatShow */
/** @typedef {{kind: string, name: string|null, status: string, level?: string, engine?: string}} SeatInfo */
/** @typedef {{game: number, votes: string[], ready: number, of: number}} Tally */

const LOG_MAX = 400;

export class TableView {
    /** @param {HTMLElement} root @param {string} code @param {boolean} watch */
    constructor(root, code, watch) {
        this.root = root;
        this.code = code;
        this.watch = watch;
        this.epoch = "";
        this.n = 0;
        this.gameN = 0;
        this.game = 0;
        this.state = "";
        /** @type {number|null} */
        this.seat = null;
        /** @type {any} */
        this.options = null;
        /** @type {SeatInfo[]} */
        this.seats = [];
        /** @type {any} */
        this.view = null;
        /** @type {string|null} */
        this.record = null;
        /** @type {{card: string, target: number}|null} */
        this.lastPlay = null;
        /** @type {{seat: number, count: number}|null} */
        this.lastCollect = null;
        /** @type {any[]|null} */
        this.roundEvents = null;
        /** @type {any} */
        this.gameOver = null;
        /** The vote for the next game, once a game is over. @type {Tally|null} */
        this.rematch = null;
        /** @type {string|null} */
        this.selected = null;
        this.confirmTake = false;
        this.sent = -1;           // the game_n an action was sent for
        this.yielded = false;     // another window took our seat: do not take it back
        this.noTable = false;
        /** @type {string|null} */
        this.dragCard = null;

        // The page's parts that live as long as the table: the log and chat keep
        // their nodes (a live region must not be rebuilt).
        this.link = h("p", { class: "link-state", role: "status", text: _("Connecting...") });
        this.notice = h("p", { class: "notice", role: "alert" });
        this.top = h("div", { class: "table-top" });
        this.ring = h("div", { class: "ring" });
        this.bar = h("div", { class: "action-bar" });
        this.handEl = h("div", { class: "hand-area" });
        this.panels = h("div", { class: "panels" });
        this.log = h("div", { class: "log", role: "log", "aria-live": "polite", "aria-labelledby": "log-title",
                             tabindex: "0" });
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
            if (this.conn.send({ type: "chat", table: this.code, text })) this.chatInput.value = "";
        } }, [
            this.chatNameField,
            h("label", { for: "chat-text", class: "sr-only", text: _("Chat") }),
            this.chatInput,
            h("button", { type: "submit", text: _("Send") }),
        ]);
        const side = h("aside", { class: "side", "aria-label": _("What happened") }, [
            h("h2", { id: "log-title", text: _("What happened") }), this.log, chatForm,
        ]);
        const main = h("div", { class: "table-main" }, [this.top, this.ring, this.bar, this.handEl, this.panels]);
        fill(this.root, [h("div", { class: "table-page" }, [
            h("div", { class: "table-status" }, [this.link, this.notice]), main, side])]);
        /** The server that drives the table, when one said `moved` (several servers). @type {string|null} */
        this.node = null;
        this.conn = new Conn(() => this.hello(), (m) => this.onMessage(m), (up) => this.onLink(up),
            () => "?table=" + encodeURIComponent(this.code) +
                (this.node ? "&node=" + encodeURIComponent(this.node) : ""));
        this.wake = () => {
            if (document.visibilityState === "visible" && !this.conn.ws) this.conn.restart();
        };
        document.addEventListener("visibilitychange", this.wake);
        window.addEventListener("online", this.wake);
        this.keys = (/** @type {KeyboardEvent} */ e) => this.onKey(e);
        document.addEventListener("keydown", this.keys);
    }

    destroy() {
        this.conn.close();
        document.removeEventListener("visibilitychange", this.wake);
        window.removeEventListener("online", this.wake);
        document.removeEventListener("keydown", this.keys);
    }

    /** @returns {Msg} */
    hello() {
        /** @type {Msg} */
        const m = { type: "hello", v: 1, lang: lang() };
        const name = cleanName(savedName());
        if (name) m.name = name;
        const memo = heldSeats()[this.code];
        if (memo && !this.watch && !this.yielded) {
            /** @type {any} */
            const seat = { table: this.code, token: memo.token };
            if (this.epoch && this.n) seat.since = { epoch: this.epoch, n: this.n };
            m.seats = [seat];
        }
        return m;
    }

    /** @param {boolean} up */
    onLink(up) {
        this.link.textContent = up ? "" : _("Connection lost: trying again...");
        this.link.classList.toggle("down", !up);
    }

    spectate() {
        /** @type {Msg} */
        const m = { type: "spectate", table: this.code };
        if (this.epoch && this.n) m.since = { epoch: this.epoch, n: this.n };
        this.conn.send(m);
    }

    /** @param {Msg} m */
    onMessage(m) {
        switch (m.type) {
        case "welcome": {
            const memo = heldSeats()[this.code];
            const auto = sessionStorage.getItem("figaro.autojoin");
            if (auto === this.code && !memo) {
                sessionStorage.removeItem("figaro.autojoin");
                this.conn.send({ type: "join", table: this.code, seat: 0, name: cleanName(savedName()) || undefined });
            } else if (!memo || this.watch || this.yielded) {
                this.spectate();
            }
            if (this.pendingChat) {   // said after the spectate, on the connection that has the name
                this.conn.send({ type: "chat", table: this.code, text: this.pendingChat });
                this.pendingChat = null;
            }
            break;
        }
        case "seated":
            if (m.table !== this.code) return;
            this.seat = m.seat;
            if (m.token) rememberSeat(this.code, { token: m.token, seat: m.seat, name: m.name, at: Date.now() });
            this.say([fmt(_("You sit at seat %d as %s."), m.seat + 1, m.name)], "me");
            break;
        case "unseated":
            this.seat = null;
            this.yielded = true;
            this.say([_("Your seat is now played from another window or device.")], "me");
            this.render();
            break;
        case "left":
            this.seat = null;
            rememberSeat(this.code, null);
            this.render();
            break;
        case "snapshot":
            this.snapshot(m);
            break;
        case "event":
            this.event(m);
            break;
        case "error":
            this.error(m);
            break;
        }
    }

    /** @param {Msg} m */
    error(m) {
        if (m.code === "moved" && m.table === this.code && typeof m.node === "string") {
            this.node = m.node;   // connect again, to that server
            this.conn.again();
            return;
        }
        if (m.re === "hello" || m.code === "bad_token") {
            if (m.code === "bad_token" && m.table === this.code) {
                rememberSeat(this.code, null);
                this.spectate();
            }
        }
        if (m.code === "no_table") {
            this.noTable = true;
            this.render();
        }
        if (m.code === "stale") return;   // the newer event is on its way
        if (m.re === "act") this.sent = -1;
        this.notice.textContent = m.text || m.code;
    }

    /** @param {Msg} m */
    snapshot(m) {
        if (m.table !== this.code) return;
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
        if (Array.isArray(m.log)) this.story(m.log);
        this.render();
    }

    /** The current game's story from a snapshot: the log starts again with it.
     * @param {any[]} entries */
    story(entries) {
        this.log.replaceChildren();
        for (const e of entries) {
            if (e.kind === "chat") this.chat(e);
            else if (Array.isArray(e.say)) this.say(e.say, e.kind);
        }
    }

    /** @param {Msg} m */
    event(m) {
        if (m.table !== this.code || m.n <= this.n) return;
        this.n = m.n;
        if (m.say && m.say.length) this.say(m.say, m.kind);
        if (m.rematch) this.rematch = m.rematch;
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
            const before = (m.events || []).some((/** @type {any} */ e) => e.type === "ring")
                ? pilePlaces(this.ring) : null;
            this.actionEvents(m.events || [], m.kind === "deal");
            this.view = m.view;
            if (m.record) this.record = m.record;
            this.selected = null;
            this.confirmTake = false;
            this.render();
            if (before) animateRing(this.ring, before);
            return;
        }
        case "seat": {
            // The names from `seats`; the news says this seat's status (the
            // seats may be built before the returning connection counts).
            if (Array.isArray(m.seats)) this.seats = m.seats;
            const s = this.seats[m.seat];
            if (s) {
                const st = { taken: "present", away: "away", bot: "bot", timeout: "bot", back: "present",
                             left: "open" }[/** @type {string} */ (m.news)];
                if (st) s.status = st;
                if (m.name) s.name = m.name;
            }
            break;
        }
        case "chat":
            this.chat(m);
            return;
        }
        this.render();
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
        if (roundEnd) this.roundEvents = events;
        else if (this.roundEvents && events.some((e) => e.type === "play" || e.type === "ring" || e.type === "take"))
            this.roundEvents = null;   // the next round is under way
        if (this.lastCollect) this.lastPlay = null;
    }

    /** @param {string[]} lines @param {string} kind */
    say(lines, kind) {
        for (const line of lines)
            this.log.append(h("p", { class: "log-" + kind, text: line }));
        while (this.log.children.length > LOG_MAX) this.log.firstChild?.remove();
        this.log.scrollTop = this.log.scrollHeight;
    }

    /** @param {Msg} m */
    chat(m) {
        const who = m.name || _("a spectator");
        this.log.append(h("p", { class: "log-chat" }, [h("b", { text: who + ": " }), m.text]));
        this.log.scrollTop = this.log.scrollHeight;
    }

    /** @param {number} s */
    name(s) {
        const seat = this.seats[s];
        return (seat && seat.name) || _("(open seat)");
    }

    myTurn() {
        return this.view && this.seat !== null && this.view.turn === this.seat && this.view.legal &&
               this.view.legal.length > 0 && this.sent !== this.gameN;
    }

    /** @param {string} action */
    act(action) {
        if (!this.myTurn()) return;
        if (this.conn.send({ type: "act", table: this.code, n: this.gameN, action })) {
            this.sent = this.gameN;
            this.notice.textContent = "";
        }
        this.selected = null;
        this.confirmTake = false;
        this.render();
    }

    /** The action the selected card makes in front of seat t, if legal.
     * @param {string} card @param {number} t @returns {string|null} */
    actionFor(card, t) {
        const legal = (this.view && this.view.legal) || [];
        if (card === "RING") return t === this.seat && legal.includes("RING") ? "RING" : null;
        const a = card + ">" + t;
        return legal.includes(a) ? a : null;
    }

    /** What playing `action` would do, as a sentence and a short label.
     * @param {string} action @returns {{label: string, preview: string, collects: boolean}} */
    preview(action) {
        const v = this.view;
        const me = /** @type {number} */ (this.seat);
        if (action === "RING")
            return { label: _("play a ring: every pile moves one seat to the left"),
                     preview: _("every pile moves left"), collects: false };
        const [card, t] = action.split(">");
        const target = Number(t);
        // What the move would do, as the server's engine computed it (the
        // view's `outcomes`, parallel to `legal`).
        const o = v.outcomes[v.legal.indexOf(action)];
        const c = cardText(card);
        if (o.collector === undefined) {
            const label = target === me ? fmt(_("%s in front of yourself"), c)
                                        : fmt(_("%s in front of %s"), c, this.name(target));
            return { label, preview: fmt(_("pile %d"), o.reach), collects: false };
        }
        const label = target === me
            ? fmt(_("%s in front of yourself: your pile reaches %d and you collect %d cards"), c, o.reach, o.count)
            : fmt(_("%s in front of %s: that pile reaches %d and %s collects %d cards"), c, this.name(target),
                  o.reach, this.name(target), o.count);
        const preview = target === me ? fmt(_("you collect %d cards"), o.count)
                                      : fmt(_("%s collects %d cards"), this.name(target), o.count);
        return { label, preview, collects: true };
    }

    /** Whether chatting needs a name first: a spectator who never gave one. */
    needsChatName() {
        return this.seat === null && !cleanName(savedName());
    }

    render() {
        this.chatNameField.hidden = !this.needsChatName();
        const focusKey = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.focus : undefined;
        this.renderTop();
        this.renderRing();
        this.renderBar();
        this.renderHand();
        this.renderPanels();
        if (focusKey) {
            const el = this.root.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
            if (el instanceof HTMLElement) el.focus();
        }
    }

    renderTop() {
        const kids = [];
        const v = this.view;
        kids.push(h("h1", { class: "table-title" }, [
            _("Table") + " ", h("span", { class: "code", text: this.code }),
            this.watch || (this.seat === null && this.state) ? h("span", { class: "tag", text: _("watching") }) : null]));
        if (this.noTable) kids.push(h("p", { text: _("No table has this code.") }));
        if (v) {
            const parts = [fmt(_("Round %d of 3"), v.round)];
            if (this.game > 1) parts.unshift(fmt(_("Game %d"), this.game));
            kids.push(h("p", { class: "round-line", text: parts.join(" · ") }));
        }
        if (this.state === "waiting" || (this.state && this.seats.some((s) => s.status === "open"))) {
            const url = location.origin + location.pathname + "#/t/" + this.code;
            const link = h("input", { type: "text", readonly: true, value: url, id: "invite-link", class: "invite-url" });
            kids.push(h("div", { class: "invite" }, [
                h("label", { for: "invite-link", text: _("Invite friends with this link:") }),
                link,
                h("button", { type: "button", "data-focus": "copy", text: shareLabel(), onclick: (/** @type {Event} */ e) => {
                    const b = /** @type {HTMLButtonElement} */ (e.currentTarget);
                    shareInvite(url, link).then((how) => { if (how === "copied") b.textContent = _("Copied"); });
                } }),
            ]));
            if (this.state === "waiting")
                kids.push(h("p", { class: "waiting", text: _("The game starts when every open seat is taken.") }));
        }
        if (!this.watch && this.seat === null && this.state && this.seats.some((s) => s.status === "open") &&
            !this.yielded) {
            // maxlength counts UTF-16 units: room for NAME_CHARS characters of any kind
            const input = h("input", { type: "text", id: "join-name", maxlength: String(4 * NAME_CHARS), value: savedName(),
                                       autocomplete: "nickname", required: true });
            kids.push(h("form", { class: "join", onsubmit: (/** @type {Event} */ e) => {
                e.preventDefault();
                const name = cleanName(input.value);
                if (!name) return;
                saveName(name);
                this.conn.send({ type: "join", table: this.code, name });
            } }, [h("label", { for: "join-name", text: _("Your name") }), input,
                  h("button", { type: "submit", class: "primary", text: _("Take a seat") })]));
        }
        fill(this.top, kids);
    }

    renderRing() {
        const v = this.view;
        const n = this.seats.length;
        if (!n) {
            this.ring.replaceChildren();
            return;
        }
        const me = this.seat ?? 0;
        const canPick = this.myTurn() && this.selected;
        /** @type {SeatShow[]} */
        const shows = this.seats.map((s, i) => {
            const tags = [];
            const pile = v ? v.piles[i] : { colour: null, total: 0, cards: [] };
            const handSize = v ? v.hand_sizes[i] : 0;
            if (v && v.turn === i && v.phase === "play" && this.state === "playing") tags.push(_("to play"));
            if (handSize === 1 && v && v.phase === "play") tags.push(_("last card!"));
            if (s.status === "away") tags.push(_("away"));
            if (s.status === "bot" && s.kind === "person") tags.push(_("a bot plays"));
            if (s.status === "open") tags.push(this.state === "waiting" ? _("open seat") : _("a bot plays"));
            if (s.kind === "bot") tags.push(fmt(_("bot: %s"), levelName(s.level || "normal")));
            if (s.kind === "engine") tags.push(fmt(_("engine: %s"), s.engine || ""));
            if (this.lastCollect && this.lastCollect.seat === i)
                tags.push(fmt(ngettext("collected %d card", "collected %d cards", this.lastCollect.count), this.lastCollect.count));
            let target = null;
            const action = canPick ? this.actionFor(/** @type {string} */ (this.selected), i) : null;
            if (action) {
                const p = this.preview(action);
                target = { ...p, act: () => this.act(action) };
            }
            return {
                name: this.name(i), you: i === this.seat, king: !!v && v.king === i,
                turn: !!v && v.turn === i && this.state === "playing", pile, handSize, hand: null,
                pieces: v ? v.road_pieces[i] : 0, roads: v && v.roads ? v.roads[i] : null,
                stack: v && v.stacks && this.state !== "over" ? v.stacks[i] : null, tags,
                lastCard: this.lastPlay && this.lastPlay.target === i ? this.lastPlay.card : null,
                collected: this.lastCollect && this.lastCollect.seat === i ? this.lastCollect.count : 0,
                target, status: s.status,
            };
        });
        const centre = [];
        if (v) {
            const faceUp = v.piles.reduce((/** @type {number} */ k, /** @type {any} */ p) => k + p.cards.length, 0);
            centre.push(h("p", { class: "centre-round", text: fmt(_("Round %d of 3"), v.round) }));
            const group = v.road_groups[v.round - 1];
            if (group) centre.push(h("p", { class: "centre-pieces",
                text: fmt(_("Pieces this round: %s"), group.join(" "))}));
            centre.push(h("p", { text: fmt(ngettext("%d face-up card on the table.", "%d face-up cards on the table.", faceUp), faceUp) }));
            if (v.removed) centre.push(h("p", { class: "removed",
                text: fmt(_("With three players the %s cards are left out."), colourName(v.removed)) }));
            if (this.options && this.options.open) centre.push(h("p", { class: "tag", text: _("open game") }));
        } else if (this.state === "waiting") {
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
        const v = this.view;
        const kids = [];
        if (!v || this.state !== "playing") {
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
                const prompt = this.selected
                    ? fmt(_("%s: choose where it goes (the lit seats)."), cardText(this.selected))
                    : _("Your turn: choose a card, then the seat it goes in front of.");
                kids.push(h("p", { class: "prompt your-turn", text: prompt }));
                if (this.selected)
                    kids.push(h("button", { type: "button", "data-focus": "unselect", text: _("Cancel"),
                                            onclick: () => { this.selected = null; this.render(); } }));
                if (legal.includes("take"))
                    kids.push(h("button", { type: "button", class: "take", "data-focus": "take",
                                            text: fmt(ngettext("Take %d card", "Take %d cards", faceUp), faceUp),
                                            onclick: () => { this.confirmTake = true; this.selected = null;
                                                             this.render(); } }));
            }
        } else if (this.seat !== null && v.phase === "play") {
            kids.push(h("p", { class: "prompt", text: this.sent === this.gameN ? _("Sent...")
                                                   : fmt(_("%s is to play."), this.name(v.turn)) }));
        }
        fill(this.bar, kids);
    }

    renderHand() {
        const v = this.view;
        if (!v || !v.hand || this.seat === null) {
            fill(this.handEl, []);
            return;
        }
        /** @type {string[]} */
        const hand = v.hand.slice().sort(cardOrder);
        const mine = this.myTurn();
        const legal = v.legal || [];
        const kids = hand.map((c, i) => {
            const ok = mine && legal.some((/** @type {string} */ a) => a === c || a.startsWith(c + ">"));
            const el = cardEl(c, "button");
            el.setAttribute("type", "button");
            el.dataset.focus = "card-" + c + "-" + i;
            el.setAttribute("aria-label", cardText(c) + (ok ? "" : " " + _("(cannot be played now)")));
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
                if (!ok) return;
                this.selected = this.selected === c ? null : c;
                this.confirmTake = false;
                this.render();
                const first = this.ring.querySelector(".target-btn");
                if (this.selected && first instanceof HTMLElement && !matchMedia("(pointer: coarse)").matches) first.focus();
            });
            el.addEventListener("keydown", (e) => {
                if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
                const all = [...this.handEl.querySelectorAll("button.card")];
                const j = all.indexOf(el) + (e.key === "ArrowRight" ? 1 : -1);
                const next = all[(j + all.length) % all.length];
                if (next instanceof HTMLElement) next.focus();
                e.preventDefault();
            });
            return el;
        });
        const title = this.state === "playing" && v.phase === "play"
            ? fmt(ngettext("Your hand, %d card:", "Your hand, %d cards:", hand.length), hand.length) : _("Your hand");
        fill(this.handEl, [h("h2", { class: "hand-title", id: "hand-title", text: title }),
                           h("div", { class: "hand" + (mine ? " mine" : ""), role: "group",
                                      "aria-labelledby": "hand-title" }, kids)]);
    }

    renderPanels() {
        const kids = [];
        const names = this.seats.map((_s, i) => this.name(i));
        if (this.roundEvents && this.state !== "over") {
            const p = drawRoundEnd(this.roundEvents, names);
            if (p) kids.push(p);
        }
        const v = this.view;
        if (this.state === "over" && v && v.roads) {
            if (this.roundEvents) {
                const p = drawRoundEnd(this.roundEvents, names);
                if (p) kids.push(p);
            }
            const roads = v.roads.map((/** @type {number[]|null} */ r) => r || []);
            const order = this.gameOver ? this.gameOver.ranking : v.ranking;
            const panel = drawRanking(order, roads, names);
            const vote = this.renderVote();
            if (vote) panel.append(vote);
            const acts = h("div", { class: "after-game" });
            const mine = this.seat !== null && !!this.rematch && this.rematch.votes[this.seat] === "ready";
            if (this.seat !== null)
                acts.append(h("button", { type: "button", class: mine ? "" : "primary", "data-focus": "rematch",
                                          "aria-pressed": String(mine),
                                          text: mine ? _("Cancel my rematch request") : _("Rematch"),
                                          onclick: () => this.conn.send({ type: "rematch", table: this.code,
                                                                          game: this.game, ready: !mine }) }));
            if (this.seat !== null)
                acts.append(h("a", { href: "#/r/" + this.code + "/" + this.game + "/review", class: "review-link",
                                     text: _("Review my moves") }));
            acts.append(h("a", { href: "#/r/" + this.code + "/" + this.game, text: _("Replay this game") }));
            if (this.record) acts.append(h("a", { href: this.record, download: this.code + "-" + this.game + ".fgn",
                                                  text: _("Game record (FGN)") }));
            panel.append(acts);
            kids.push(panel);
        }
        if (this.seat !== null && this.state) {
            kids.push(h("p", { class: "leave" }, [h("button", { type: "button", class: "quiet", "data-focus": "leave",
                text: _("Leave the table"), onclick: () => {
                    if (confirm(_("Leave the table? A bot takes your seat until someone joins."))) {
                        this.conn.send({ type: "leave", table: this.code });
                    }
                } })]));
        }
        fill(this.panels, kids);
    }

    /** Who wants the next game, once a game is over: "Ann wants a rematch —
     * 1 of 2 ready", and whom it waits for. @returns {HTMLElement|null} */
    renderVote() {
        const y = this.rematch;
        if (!y || !y.of) return null;
        const names = (/** @type {string} */ want) => y.votes.flatMap((v, i) => v === want ? [this.name(i)] : []);
        const ready = names("ready");
        const kids = [];
        if (ready.length)
            kids.push(h("p", { text: fmt(ngettext("%s wants a rematch — %d of %d ready",
                                                  "%s want a rematch — %d of %d ready", ready.length),
                                         ready.join(", "), y.ready, y.of) }));
        const waiting = y.votes.flatMap((v, i) => v !== "waiting" ? [] : i === this.seat ? [_("you")] : [this.name(i)]);
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
        if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement) return;
        if (e.key === "Escape" && (this.selected || this.confirmTake)) {
            this.selected = null;
            this.confirmTake = false;
            this.render();
            const first = this.handEl.querySelector("button.playable");
            if (first instanceof HTMLElement) first.focus();
        } else if ((e.key === "t" || e.key === "T") && this.myTurn() && this.view.legal.includes("take")) {
            this.confirmTake = true;
            this.selected = null;
            this.render();
            const yes = this.bar.querySelector("[data-focus=take-yes]");
            if (yes instanceof HTMLElement) yes.focus();
        }
    }
}

/** A bot level's name. @param {string} level */
export function levelName(level) {
    // The levels themselves come from the server (welcome); these are their
    // names in the reader's language (msgids of src/ai/bot.c's table).
    const names = { random: _("random"), beginner: _("beginner"), easy: _("easy"), normal: _("normal"),
                    hard: _("hard"), max: _("max") };
    return /** @type {Object<string, string>} */ (names)[level] || level;
}


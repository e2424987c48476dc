// replay.js - a finished game, move by move, from its record (FGN): every
// hand is shown, since the game is over and the record holds them all. The
// steps are worked out by rules.js; the last one shows the final ranking,
// the same as `figaro replay FILE` prints.

import { _, fmt, ngettext } from "./i18n.js";
import { cardText } from "./cards.js";
import { h, fill } from "./dom.js";
import { drawSeats, drawRanking, drawRoundEnd } from "./board.js";
import { parseFgn, replaySteps } from "./rules.js";

/** @typedef {import("./rules.js").Step} Step */

export class ReplayView {
    /** @param {HTMLElement} root @param {string} title @param {Promise<string>} text */
    constructor(root, title, text) {
        this.root = root;
        this.i = 0;
        /** @type {Step[]} */
        this.steps = [];
        /** @type {string[]} */
        this.names = [];
        this.ring = h("div", { class: "ring" });
        this.info = h("p", { class: "replay-step", role: "status" });
        this.say = h("p", { class: "replay-say", "aria-live": "polite" });
        this.panels = h("div", { class: "panels" });
        const btn = (/** @type {string} */ label, /** @type {string} */ key, /** @type {() => number} */ to) =>
            h("button", { type: "button", "data-step": key, text: label, onclick: () => this.go(to()) });
        this.controls = h("div", { class: "replay-controls", role: "group", "aria-label": _("Replay") }, [
            btn(_("Start"), "start", () => 0),
            btn(_("Previous round"), "prev-round", () => this.roundStart(-1)),
            btn(_("Back"), "back", () => this.i - 1),
            btn(_("Next"), "next", () => this.i + 1),
            btn(_("Next round"), "next-round", () => this.roundStart(1)),
            btn(_("End"), "end", () => this.steps.length - 1),
        ]);
        fill(root, [h("div", { class: "replay-page" }, [
            h("h1", { class: "table-title", text: fmt(_("Replay: %s"), title) }),
            this.info, this.controls, this.ring, this.say, this.panels])]);
        this.keys = (/** @type {KeyboardEvent} */ e) => {
            if (e.target instanceof HTMLInputElement) return;
            if (e.key === "ArrowRight") this.go(this.i + 1);
            else if (e.key === "ArrowLeft") this.go(this.i - 1);
            else if (e.key === "Home") this.go(0);
            else if (e.key === "End") this.go(this.steps.length - 1);
        };
        document.addEventListener("keydown", this.keys);
        text.then((t) => this.load(t)).catch((/** @type {Error} */ e) => {
            fill(this.panels, [h("p", { class: "notice", role: "alert",
                                        text: fmt(_("This game cannot be replayed: %s"), e.message) })]);
        });
    }

    destroy() {
        document.removeEventListener("keydown", this.keys);
    }

    /** @param {string} text */
    load(text) {
        const rec = parseFgn(text);
        this.steps = replaySteps(rec);
        this.names = rec.names && rec.names.length === rec.players ? rec.names
            : Array.from({ length: rec.players }, (_x, s) => fmt(_("seat %d"), s));
        this.go(0);
    }

    /** The deal of the next round (dir 1) or of the one before (-1), else the end.
     * @param {number} dir */
    roundStart(dir) {
        let j = this.i + dir;
        while (j > 0 && j < this.steps.length - 1 && this.steps[j].action !== null) j += dir;
        return j;
    }

    /** @param {number} i */
    go(i) {
        if (!this.steps.length) return;
        this.i = Math.max(0, Math.min(this.steps.length - 1, i));
        const st = this.steps[this.i];
        const n = this.names.length;
        const last = st.events.find((e) => e.type === "play");
        const ring = st.events.find((e) => e.type === "ring");
        const coll = st.events.find((e) => e.type === "collect");
        const shows = st.hands.map((hand, s) => ({
            name: this.names[s], you: false, king: st.king === s,
            turn: st.turn === s && st.phase === "play", pile: st.piles[s], handSize: hand.length,
            hand: hand.slice(), pieces: st.roads[s].length, roads: st.roads[s], stack: st.stacks[s],
            tags: coll && coll.seat === s ? [fmt(ngettext("collected %d card", "collected %d cards", coll.count || 0), coll.count || 0)] : [],
            lastCard: last && last.target === s ? last.card || null
                : ring && (/** @type {number} */ (ring.seat) + 1) % n === s ? "RING" : null,
            collected: coll && coll.seat === s ? coll.count || 0 : 0, target: null, status: "present",
        }));
        drawSeats(this.ring, shows, 0, [h("p", { class: "centre-round", text: fmt(_("Round %d of 3"), st.round) })]);
        fill(this.info, [fmt(_("Step %d of %d"), this.i + 1, this.steps.length)]);
        this.say.textContent = this.sentence(st);
        const panels = [];
        const end = drawRoundEnd(st.events, this.names);
        if (end) panels.push(end);
        const over = st.events.find((e) => e.type === "game_over");
        if (over) panels.push(drawRanking(over.ranking || [], st.roads, this.names));
        fill(this.panels, panels);
        for (const b of this.controls.querySelectorAll("button")) {
            const k = b.dataset.step;
            b.disabled = (k === "start" || k === "back" || k === "prev-round") ? this.i === 0
                                                                                : this.i === this.steps.length - 1;
        }
    }

    /** What the step did, in a sentence. @param {Step} st */
    sentence(st) {
        if (st.action === null)
            return fmt(_("Round %d: the cards are dealt; %s holds the King and plays first."), st.round, this.names[st.king]);
        const who = this.names[st.seat];
        const coll = st.events.find((e) => e.type === "collect");
        let s;
        if (st.action === "take") {
            s = fmt(ngettext("%s takes the %d face-up card and plays again.", "%s takes all %d face-up cards and plays again.",
                             coll?.count || 0), who, coll?.count || 0);
        } else if (st.action.startsWith("RING")) {
            s = fmt(_("%s plays a ring: every pile moves one seat to the left."), who);
        } else {
            const [card, t] = st.action.split(">");
            const target = Number(t);
            s = target === st.seat ? fmt(_("%s plays %s in front of themselves."), who, cardText(card))
                                   : fmt(_("%s plays %s in front of %s."), who, cardText(card), this.names[target]);
            if (coll) s += " " + fmt(_("%s's pile reaches %d: %s collects %d cards."), this.names[target],
                                     st.piles.length ? this.reach(st) : 0, this.names[target], coll.count || 0);
        }
        return s;
    }

    /** The total the pile reached before it was collected. @param {Step} st */
    reach(st) {
        const prev = this.steps[this.i - 1];
        const play = st.events.find((e) => e.type === "play");
        if (!prev || !play || play.target === undefined) return 0;
        return prev.piles[play.target].total + Number((play.card || "X0").slice(1));
    }
}

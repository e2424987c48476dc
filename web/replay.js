// replay.js - a finished game, move by move, with every hand shown (the game
// is over, or the record is the person's own file). The client plays no rule
// here: the server's engine computes every step (docs/protocol.md, "Replays"),
// from its own record (GET /tables/CODE/games/N.json) or from a file the
// person chose (POST /replay, never stored), with each step's sentences in
// the person's language; the last step shows the final ranking, the same as
// `figaro replay FILE` prints.

import { _, fmt, ngettext, lang } from "./i18n.js";
import { h, fill } from "./dom.js";
import { drawSeats, drawRanking, drawRoundEnd } from "./board.js";

/** @typedef {import("./board.js").Pile} Pile */
/** @typedef {import("./board.js").RuleEvent} RuleEvent */
/** @typedef {{round: number, phase: string, turn: number, king: number, hand_sizes: number[],
 *   piles: Pile[], road_pieces: number[], roads: number[][], stacks: number[],
 *   hands: string[][]}} StepState */
/** @typedef {{kind: string, round: number, seat: number, action?: string,
 *   events: RuleEvent[], say: string[], state: StepState}} Step */
/** @typedef {{players: number, names: string[], has_names: boolean, king: number,
 *   steps: Step[], summary: {finished: boolean, ranking?: number[], totals?: number[]}}} Replay */

/** The server's answer as a replay, or an Error with its reason.
 * @param {Response} r @returns {Promise<Replay>} */
async function answer(r) {
    if (r.ok) return r.json();
    if (r.status === 409) throw new Error(_("the game is not over yet"));
    const why = (await r.text()).trim();
    throw new Error(why || String(r.status));
}

/** The replay of game n of table code. @param {string} code @param {string} n */
export function replayOfGame(code, n) {
    return fetch("/tables/" + code + "/games/" + n + ".json?lang=" + lang()).then(answer);
}

/** The replay of a record's text (a file the person chose): sent, replayed, forgotten.
 * @param {string} text */
export function replayOfText(text) {
    return fetch("/replay?lang=" + lang(), { method: "POST", body: text,
                                             headers: { "content-type": "text/plain; charset=utf-8" } })
        .then(answer);
}

export class ReplayView {
    /** @param {HTMLElement} root @param {string} title @param {Promise<Replay>} replay */
    constructor(root, title, replay) {
        this.root = root;
        this.i = 0;
        /** @type {Step[]} */
        this.steps = [];
        /** @type {string[]} */
        this.names = [];
        this.ring = h("div", { class: "ring" });
        this.info = h("p", { class: "replay-step", role: "status" });
        this.say = h("div", { class: "replay-say", "aria-live": "polite" });
        this.panels = h("div", { class: "panels" });
        // disabled until the server's replay has come
        const btn = (/** @type {string} */ label, /** @type {string} */ key, /** @type {() => number} */ to) =>
            h("button", { type: "button", "data-step": key, text: label, disabled: true,
                          onclick: () => this.go(to()) });
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
        replay.then((r) => this.load(r)).catch((/** @type {Error} */ e) => {
            fill(this.panels, [h("p", { class: "notice", role: "alert",
                                        text: fmt(_("This game cannot be replayed: %s"), e.message) })]);
        });
    }

    destroy() {
        document.removeEventListener("keydown", this.keys);
    }

    /** @param {Replay} r */
    load(r) {
        if (!r || !Array.isArray(r.steps) || !r.steps.length || !Array.isArray(r.names))
            throw new Error(_("no record"));
        this.steps = r.steps;
        this.names = r.names;
        this.go(0);
    }

    /** The deal of the next round (dir 1) or of the one before (-1), else the end.
     * @param {number} dir */
    roundStart(dir) {
        let j = this.i + dir;
        while (j > 0 && j < this.steps.length - 1 && this.steps[j].kind !== "deal") j += dir;
        return j;
    }

    /** @param {number} i */
    go(i) {
        if (!this.steps.length) return;
        this.i = Math.max(0, Math.min(this.steps.length - 1, i));
        const step = this.steps[this.i];
        const st = step.state;
        const n = this.names.length;
        const ring = step.events.find((e) => e.type === "ring");
        const last = ring ? null : step.events.find((e) => e.type === "play");
        const coll = step.events.find((e) => e.type === "collect");
        const shows = st.hands.map((hand, s) => ({
            name: this.names[s], you: false, king: st.king === s,
            turn: st.turn === s && st.phase === "play", pile: st.piles[s], handSize: st.hand_sizes[s],
            hand: hand.slice(), pieces: st.road_pieces[s], roads: st.roads[s], stack: st.stacks[s],
            tags: coll && coll.seat === s ? [fmt(ngettext("collected %d card", "collected %d cards", coll.count || 0), coll.count || 0)] : [],
            // a ring moves the ringer's pile, the ring on top, to the next seat
            lastCard: last && last.target === s ? last.card || null
                : ring && (/** @type {number} */ (ring.seat) + 1) % n === s ? "RING" : null,
            collected: coll && coll.seat === s ? coll.count || 0 : 0, target: null, status: "present",
        }));
        drawSeats(this.ring, shows, 0, [h("p", { class: "centre-round", text: fmt(_("Round %d of 3"), st.round) })]);
        fill(this.info, [fmt(_("Step %d of %d"), this.i + 1, this.steps.length)]);
        fill(this.say, step.say.map((t) => h("p", { text: t })));   // a sentence a line: the last step says many
        const panels = [];
        const end = drawRoundEnd(step.events, this.names);
        if (end) panels.push(end);
        const over = step.events.find((e) => e.type === "game_over");
        if (over) panels.push(drawRanking(over.ranking || [], st.roads, this.names));
        fill(this.panels, panels);
        for (const b of this.controls.querySelectorAll("button")) {
            const k = b.dataset.step;
            b.disabled = (k === "start" || k === "back" || k === "prev-round") ? this.i === 0
                                                                                : this.i === this.steps.length - 1;
        }
    }
}

// SPDX-License-Identifier: MIT
// replay.js - a finished game, move by move, with every hand shown (the game
// is over, or the record is the person's own file). The client plays no rule
// here: the server's engine computes every step (docs/protocol.md, "Replays"),
// from its own record (GET /tables/CODE/games/N.json), a person's kept
// game (GET /api/people/ID/games/I.json, people_page.js) or a file the
// person chose (POST /replay, never stored), with each step's sentences in
// the person's language; the last step shows the final ranking, the same as
// `figaro replay FILE` prints.
//
// With the review (#/r/CODE/N/review, the game-over panel's "Review my
// moves"), the page takes the seat this browser holds at that table (its
// token; or, without one, the signed-in person's seat there: resume, so that
// another device of theirs reviews it too) on a connection of its own and asks the server for the review of
// that seat's moves (docs/protocol.md, review): it then steps from graded
// move to graded move, each shown in the position before it, with the move
// played, the better one, the grade and the search's figures.

import { _, fmt, ngettext, lang } from "./i18n.js";
import { h, fill } from "./dom.js";
import { drawSeats, drawRanking, drawRoundEnd } from "./board.js";
import { Conn } from "./net.js";
import * as proto from "./proto.js";
import { personKey } from "./person.js";


/** @typedef {import("./board.js").Pile} Pile */
/** @typedef {import("./board.js").RuleEvent} RuleEvent */
/** @typedef {{round: number, phase: string, turn: number, king: number, hand_sizes: number[],
 *   piles: Pile[], road_pieces: number[], roads: number[][], stacks: number[],
 *   hands: string[][]}} StepState */
/** @typedef {{kind: string, round: number, seat: number, action?: string,
 *   events: RuleEvent[], say: string[], state: StepState}} Step */
/** @typedef {{players: number, names: string[], has_names: boolean, king: number,
 *   steps: Step[], summary: {finished: boolean, ranking?: number[], totals?: number[]}}} Replay */

/** @typedef {{round: number, index: number, number: number, played: string, best: string,
 *   played_say: string, best_say: string, played_win: number, best_win: number,
 *   played_place: number, best_place: number, grade: string, grade_say: string, say: string}} Graded */
/** @typedef {{seat: number, game: number, reviewed: number, summary: string, moves: Graded[]}} Review */

/** The server's answer as a replay, or an Error with its reason.
 * @param {Response} r @returns {Promise<Replay>} */
export async function replayAnswer(r) {
    if (r.ok) return r.json();
    if (r.status === 409) throw new Error(_("the game is not over yet"));
    const why = (await r.text()).trim();
    throw new Error(why || String(r.status));
}

/** The replay of game n of table code. @param {string} code @param {string} n */
export function replayOfGame(code, n) {
    return fetch("/tables/" + code + "/games/" + n + ".json?lang=" + lang()).then(replayAnswer);
}

/** The replay of a record's text (a file the person chose): sent, replayed, forgotten.
 * @param {string} text */
export function replayOfText(text) {
    return fetch("/replay?lang=" + lang(), { method: "POST", body: text,
                                             headers: { "content-type": "text/plain; charset=utf-8" } })
        .then(replayAnswer);
}

export class ReplayView {
    /** @param {HTMLElement} root @param {string} title @param {Promise<Replay>} replay
     * @param {{code: string, game: number}|null} [review] the review of my moves in it, too */
    constructor(root, title, replay, review = null) {
        this.root = root;
        /** @type {Review|null} */
        this.review = null;
        /** @type {Conn|null} */
        this.conn = null;
        // the way from graded move to graded move above the position, the move and the summary below
        this.reviewNav = h("div", { class: "review-controls", role: "group", "aria-label": _("Graded moves") });
        this.reviewBox = h("section", { class: "review", "aria-label": _("Review of my moves") });
        /** The review's summary, under the board. */
        this.summary = h("div", { class: "review-sum" });
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
        // With a review, the way between graded moves and the verdict come
        // first, above the board: on a phone both are in the first screen,
        // and the step-by-step controls follow the board.
        fill(root, [h("div", { class: "replay-page" + (review ? " reviewing" : "") }, review ? [
            h("h1", { class: "table-title", text: fmt(_("Replay: %s"), title) }),
            this.reviewNav, this.reviewBox, this.ring, this.summary, this.info, this.controls, this.say, this.panels,
        ] : [
            h("h1", { class: "table-title", text: fmt(_("Replay: %s"), title) }),
            this.info, this.controls, this.ring, this.say, this.panels])]);
        if (review) this.askReview(review.code, review.game);
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
        if (this.conn) this.conn.close();
    }

    /** Asks for the review of my seat at table code, game game, on a connection
     * that holds the seat (the token this browser keeps).
     * @param {string} code @param {number} game */
    askReview(code, game) {
        const claim = proto.seatClaim(code);
        const say = (/** @type {string} */ text, /** @type {string} */ role) =>
            fill(this.reviewBox, [h("p", { class: "notice", role, text })]);
        // Without this browser's token, the person's seat (people: resume) will do.
        const person = !claim && !!personKey();
        if (!claim && !person) {
            say(_("Only the people who sat at this game can see its review, in the browser they played in."), "alert");
            return;
        }
        say(_("Reviewing your moves: the server searches each of them again. This takes a few seconds."), "status");
        this.conn = new Conn(() => proto.hello(claim ? [claim] : []),
            (m) => {
                if (person && m.type === "person" && !this.review) this.conn?.send(proto.resume(code));
                else if (person && m.type === "error" && m.re === "resume")
                    say(m.code === "no_table" ? _("No review: this game's table is gone (its replay stays).")
                                              : fmt(_("No review: %s"), String(m.text || m.code)), "alert");
                else if (m.type === "seated" && m.table === code && !this.review)
                    this.conn?.send(proto.review(code, game));
                else if (m.type === "review" && m.table === code && m.game === game) {
                    this.review = /** @type {Review} */ (/** @type {unknown} */ (m));
                    this.go(this.graded().length ? this.graded()[0].step - 1 : this.i);
                } else if (m.type === "error" && (m.re === "review" || m.re === "hello") && !this.review)
                    say(fmt(_("No review: %s"), String(m.text)), "alert");
            }, () => {});
    }

    /** The graded moves with the replay's step of each (the action's).
     * @returns {{m: Graded, step: number}[]} */
    graded() {
        if (!this.review || !this.steps.length) return [];
        /** @type {Object<string, number>} */
        const at = {};
        const seen = [0, 0, 0, 0];
        this.steps.forEach((st, i) => {
            if (st.kind === "action") at[st.round + "/" + seen[st.round]++] = i;
        });
        return this.review.moves.map((m) => ({ m, step: at[m.round + "/" + m.index] }))
            .filter((g) => g.step !== undefined);
    }

    /** The review beside the position: the summary, the way from graded move
     * to graded move, and the graded move played from this position, if any. */
    drawReview() {
        const rv = this.review;
        if (!rv) return;
        const all = this.graded();
        const here = all.findIndex((g) => g.step - 1 === this.i);
        const before = all.filter((g) => g.step - 1 < this.i), after = all.filter((g) => g.step - 1 > this.i);
        const kids = [];
        fill(this.reviewNav, all.length ? [
            h("button", { type: "button", "data-review": "prev", "aria-label": _("Previous graded move"),
                          text: "‹ " + _("Previous"), disabled: !before.length,
                          onclick: () => this.go(before[before.length - 1].step - 1) }),
            h("span", { class: "review-count", role: "status",
                        text: here >= 0 ? fmt(_("Graded move %d of %d"), here + 1, all.length)
                                        : fmt(ngettext("%d graded move", "%d graded moves", all.length), all.length) }),
            h("button", { type: "button", "data-review": "next", "aria-label": _("Next graded move"),
                          text: _("Next") + " ›", disabled: !after.length, onclick: () => this.go(after[0].step - 1) }),
        ] : []);
        if (here >= 0) {
            const m = all[here].m;
            const pct = (/** @type {number} */ x) => Math.round(100 * x);
            // the grade, and why: the search's figures for the move played and the better one
            // in a beginner's words: what it cost, then each move and what it was worth
            kids.push(h("div", { class: "review-move grade-" + m.grade }, [
                h("p", { class: "review-head" }, [
                    h("span", { class: "review-grade", text: m.grade_say }), " ",
                    h("span", { class: "review-cost", text: fmt(_("your chance to win went from %d%% to %d%%."),
                                                               pct(m.best_win), pct(m.played_win)) })]),
                h("p", { class: "review-played", text: fmt(_("You played: %s (wins %d%% of the time, average place %s)"),
                    m.played_say, pct(m.played_win), m.played_place.toFixed(1)) }),
                h("p", { class: "review-best", text: fmt(_("Better: %s (wins %d%% of the time, average place %s)"),
                    m.best_say, pct(m.best_win), m.best_place.toFixed(1)) }),
            ]));
        }
        fill(this.reviewBox, kids);
        fill(this.summary, [h("p", { class: "review-summary", text: rv.summary })]);
    }

    /** @param {Replay} r */
    load(r) {
        if (!r || !Array.isArray(r.steps) || !r.steps.length || !Array.isArray(r.names))
            throw new Error(_("no record"));
        this.steps = r.steps;
        this.names = r.names;
        const first = this.graded()[0];   // the review came first: its first graded move
        this.go(first ? first.step - 1 : 0);
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
        this.drawReview();
        for (const b of this.controls.querySelectorAll("button")) {
            const k = b.dataset.step;
            b.disabled = (k === "start" || k === "back" || k === "prev-round") ? this.i === 0
                                                                                : this.i === this.steps.length - 1;
        }
    }
}

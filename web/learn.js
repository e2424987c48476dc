// SPDX-License-Identifier: MIT
// learn.js - "Learn by playing" (#/learn, #/learn/ID): the lessons of
// `figaro learn` in the browser, one rule a lesson, at a table drawn as the
// table page draws it (board.js), the learner tapping a card, then a seat.
//
// The page plays no rule and needs no server table: the build writes every
// lesson played out by the engine to lessons/LANG.json (`figaro learn
// --played`, the Makefile's WEBLESSONS): each step's view of the learner
// (their hand and what is public, R14), and for every card of the hand in
// front of every seat, and a take, the lesson's answer: the move is the one
// asked ("ok", with the narration of it and of the others' answers), legal
// but not this step's ("hint"), or refused with the engine's reason in the
// learner's language. The service worker keeps the file, so a lesson plays
// offline. Progress (the lessons done, the step a lesson was left at) is kept
// in localStorage.

import { _, fmt, ngettext, perLanguage } from "./i18n.js";
import { h, fill, rovingKey } from "./dom.js";
import { cardEl, cardName, cardText, cardOrder } from "./cards.js";
import { drawSeats } from "./board.js";
import { savedName } from "./net.js";


/** @typedef {import("./board.js").SeatShow} SeatShow */
/** @typedef {{verdict: string, why?: string, told?: string[], after?: any}} Try */
/** @typedef {{tell: string[], task: string, hint: string|null, done: string|null, view: any,
 *   answer: string, tries: Object<string, Try>}} Step */
/** @typedef {{id: string, title: string, you: number, tell: string[], end: string|null,
 *   names: string[], steps: Step[]}} Lesson */
/** @typedef {{lessons: Lesson[], first_game: {players: number, level: string, hints: boolean}}} Lessons */

const KEY = "figaro.lessons";

/** The lessons in the page's language (English if the build wrote none for it). */
export const loadLessons = /** @type {() => Promise<Lessons>} */ (perLanguage("lessons"));

/** What was done: the lessons finished, and where one was left.
 * @returns {{done: string[], at: {id: string, step: number}|null}} */
export function progress() {
    try {
        const p = JSON.parse(localStorage.getItem(KEY) || "null");
        if (p && Array.isArray(p.done)) return { done: p.done.filter((/** @type {any} */ d) => typeof d === "string"),
                                                 at: p.at && typeof p.at.id === "string" && Number.isInteger(p.at.step) ? p.at : null };
    } catch { /* a damaged record is forgotten */ }
    return { done: [], at: null };
}

/** @param {{done: string[], at: {id: string, step: number}|null}} p */
function saveProgress(p) {
    try { localStorage.setItem(KEY, JSON.stringify(p)); } catch { /* private mode: not kept */ }
}

/** The lesson to go on with: the one left midway, else the first not done. @param {Lessons} ls */
function nextLesson(ls) {
    const p = progress();
    if (p.at && ls.lessons.some((l) => l.id === p.at?.id)) return p.at.id;
    const l = ls.lessons.find((x) => !p.done.includes(x.id));
    return l ? l.id : null;
}

export class LearnView {
    /** @param {HTMLElement} root @param {string} id a lesson's id, or "" for the list
     * @param {(game: {players: number, level: string, hints: boolean}) => void} playGame */
    constructor(root, id, playGame) {
        this.root = root;
        this.id = id;
        this.playGame = playGame;
        /** @type {Lessons|null} */
        this.ls = null;
        /** @type {Lesson|null} */
        this.lesson = null;
        this.step = 0;
        /** intro, play, passed (the move told, the next step waits), end */
        this.phase = "intro";
        /** @type {string|null} */
        this.selected = null;
        /** What the panel says now (`more`: folded beneath).
         * @type {{kind: string, title: string, lines: string[], more?: string[]}|null} */
        this.panel = null;
        this.hinted = false;
        /** The table after the move that passed a step (until the next step). @type {any} */
        this.after = null;
        this.ring = h("div", { class: "ring" });
        this.panels = h("div", { class: "panels" });
        this.bar = h("div", { class: "action-bar" });
        this.handEl = h("div", { class: "hand-area" });
        this.head = h("div", { class: "table-head" });
        this.taskEl = h("div", { class: "lesson-task" });
        /** @type {HTMLElement|null} */
        this.page = null;
        fill(root, [h("p", { text: _("Loading...") })]);
        loadLessons().then((ls) => {
            this.ls = ls;
            if (!id) return this.renderList();
            const l = ls.lessons.find((x) => x.id === id);
            if (!l) {
                location.hash = "#/learn";
                return;
            }
            this.start(l);
        }).catch(() => fill(root, [h("p", { class: "notice", text: _("The lessons could not be loaded.") })]));
    }

    destroy() {
        document.body.classList.remove("at-table");
    }

    /** The lessons, which are done, and the one to go on with. */
    renderList() {
        const ls = /** @type {Lessons} */ (this.ls);
        const p = progress();
        const next = nextLesson(ls);
        const items = ls.lessons.map((l, i) => {
            const done = p.done.includes(l.id);
            return h("li", { class: "lesson-item" + (done ? " done" : "") }, [
                h("a", { href: "#/learn/" + l.id, "data-lesson": l.id }, [
                    h("span", { class: "lesson-n", text: String(i + 1) + "." }),
                    h("span", { class: "lesson-title", text: l.title }),
                    done ? h("span", { class: "lesson-done", text: _("done") }) : null,
                    p.at && p.at.id === l.id ? h("span", { class: "lesson-left", text: _("started") }) : null,
                ])]);
        });
        fill(this.root, [h("div", { class: "learn-list" }, [
            h("h1", { text: _("Learn by playing") }),
            h("p", { text: _("Short lessons, one rule each: you make the moves at a table.") }),
            h("ol", { class: "lessons" }, items),
            h("div", { class: "buttons" }, [
                next ? h("a", { class: "button primary", href: "#/learn/" + next, "data-focus": "learn-next",
                                text: p.done.length || p.at ? _("Go on") : _("Start the lessons") })
                     : this.gameButton(),
            ]),
        ])]);
    }

    gameButton() {
        const g = /** @type {Lessons} */ (this.ls).first_game;
        return h("button", { type: "button", class: "primary first-game", "data-focus": "first-game",
                             text: _("Play a first game"), onclick: () => this.playGame(g) });
    }

    /** @param {Lesson} l */
    start(l) {
        this.lesson = l;
        const p = progress();
        this.step = p.at && p.at.id === l.id ? Math.min(p.at.step, l.steps.length - 1) : 0;
        this.phase = this.step > 0 ? "play" : "intro";
        this.after = null;
        this.selected = null;
        this.panel = this.step > 0 ? this.stepPanel() : null;
        document.body.classList.add("at-table");
        // The panel (the step's text, a refusal, the move told) takes the
        // place of the hand and the action bar, which wait meanwhile: it never
        // hides a seat the step speaks of.
        const stage = h("div", { class: "stage" }, [this.ring]);
        const page = h("div", { class: "table-page learn-page" });
        this.page = page;
        page.addEventListener("keydown", (e) => {
            if (e.key === "Escape" && this.selected) {
                this.selected = null;
                this.render();
                const card = this.handEl.querySelector("button.card[tabindex='0']");
                if (card instanceof HTMLElement) card.focus();
            }
        });
        fill(this.root, [page]);
        fill(page, [
            this.head, h("div", { class: "table-main" }, [this.taskEl, stage, this.panels, this.bar, this.handEl])]);
        this.render();
    }

    keep() {
        const l = /** @type {Lesson} */ (this.lesson);
        const p = progress();
        if (this.phase === "end") {
            if (!p.done.includes(l.id)) p.done.push(l.id);
            if (p.at && p.at.id === l.id) p.at = null;
        } else {
            p.at = { id: l.id, step: this.step };
        }
        saveProgress(p);
    }

    index() {
        const ls = /** @type {Lessons} */ (this.ls);
        return ls.lessons.indexOf(/** @type {Lesson} */ (this.lesson));
    }

    /** The step's paragraphs, if any, over the seats at its start. */
    stepPanel() {
        const s = /** @type {Lesson} */ (this.lesson).steps[this.step];
        return s.tell.length ? { kind: "tell", title: "", lines: s.tell } : null;
    }

    /** A seat's name as the lesson shows it. @param {number} i */
    name(i) {
        const l = /** @type {Lesson} */ (this.lesson);
        return i === l.you ? savedName() || _("Player") : l.names[i] || "?";
    }

    /** A move in words. @param {string} action */
    moveText(action) {
        const l = /** @type {Lesson} */ (this.lesson);
        if (action === "take") return _("Take");
        const [card, t] = action.split(">");
        const target = t === undefined ? l.you : Number(t);
        return target === l.you ? fmt(_("%s in front of yourself"), cardText(card))
                                : fmt(_("%s in front of %s"), cardText(card), this.name(target));
    }

    /** The hint's last line: the move to try, a take said in words.
     * @param {string} action @param {number} faceUp */
    tryText(action, faceUp) {
        if (action === "take")
            return fmt(ngettext("Try taking: the %d face-up card goes into your stack, and you play again.",
                                "Try taking: the %d face-up cards go into your stack, and you play again.", faceUp), faceUp);
        return fmt(_("Try %s.\n").trim(), this.moveText(action));
    }

    /** The learner tries a move. @param {string} action */
    try(action) {
        const l = /** @type {Lesson} */ (this.lesson);
        const s = l.steps[this.step];
        const t = s.tries[action];
        this.selected = null;
        if (!t) return;
        if (t.verdict === "refused") {
            this.panel = { kind: "why", title: t.why || "", lines: [_("Try again.")] };
        } else if (t.verdict === "hint") {
            this.panel = { kind: "why", title: fmt(_("%s is allowed, but not what this step asks.\n").trim(), this.moveText(action)),
                           lines: [s.hint || s.task, _("Try again.")] };
        } else {
            // The step's closing words; the narration of the move and the
            // answers, folded beneath (the table shows what they did).
            // A lesson's last step says its closing words too, and Next goes
            // on to the next lesson (the last lesson ends on the first game).
            const told = t.told || [];
            const ending = this.step === l.steps.length - 1 && l.end && this.index() < this.lessonCount() - 1
                ? [l.end] : [];
            this.panel = s.done ? { kind: "told", title: _("Well played"), lines: [s.done, ...ending], more: told }
                                : { kind: "told", title: _("Well played"), lines: [...told, ...ending] };
            this.phase = "passed";
            this.after = t.after || null;
            this.hinted = false;
        }
        this.render();
        const b = this.panels.querySelector("button");
        if (b instanceof HTMLElement) b.focus();
    }

    lessonCount() {
        return /** @type {Lessons} */ (this.ls).lessons.length;
    }

    /** After a step: the next one, or the next lesson (the last one's end:
     * the first game). */
    next() {
        const l = /** @type {Lesson} */ (this.lesson);
        this.step++;
        this.hinted = false;
        if (this.step >= l.steps.length) {
            this.step = l.steps.length - 1;
            this.phase = "end";
            this.panel = null;
            const n = /** @type {Lessons} */ (this.ls).lessons[this.index() + 1];
            if (n) {
                this.keep();
                location.hash = "#/learn/" + n.id;
                return;
            }
        } else {
            this.after = null;
            this.phase = "play";
            this.panel = this.stepPanel();
        }
        this.render();
    }

    again() {
        const l = /** @type {Lesson} */ (this.lesson);
        const p = progress();
        p.at = { id: l.id, step: 0 };
        saveProgress(p);
        this.start(l);
    }

    skip() {
        const ls = /** @type {Lessons} */ (this.ls);
        const p = progress();
        if (p.at && p.at.id === this.lesson?.id) p.at = null;
        saveProgress(p);
        const n = ls.lessons[this.index() + 1];
        location.hash = n ? "#/learn/" + n.id : "#/learn";
    }

    /** Draws the lesson again, the keyboard's place kept: the same control if
     * it is still there, else the panel's button, else the hand. */
    render() {
        const was = document.activeElement instanceof HTMLElement && this.root.contains(document.activeElement)
            ? document.activeElement.dataset.focus || "" : null;
        this.draw();
        if (was === null) return;
        const again = was && this.root.querySelector(`[data-focus="${was}"]`);
        const to = again || this.panels.querySelector("button, a") || this.handEl.querySelector("button.card[tabindex='0']");
        if (to instanceof HTMLElement) to.focus({ preventScroll: true });
    }

    draw() {
        const l = /** @type {Lesson} */ (this.lesson);
        const ls = /** @type {Lessons} */ (this.ls);
        const s = l.steps[this.step];
        if (this.phase !== "intro") this.keep();
        fill(this.head, [
            h("h1", { class: "table-title", text: fmt(_("Lesson %d of %d: %s\n").trim(), this.index() + 1, ls.lessons.length, l.title) }),
            h("div", { class: "head-buttons" }, [
                h("a", { class: "button quiet", href: "#/learn", text: _("Lessons") }),
                h("button", { type: "button", class: "quiet", "data-focus": "again", text: _("Again"), onclick: () => this.again() }),
                h("button", { type: "button", class: "quiet", "data-focus": "skip", text: _("Skip"), onclick: () => this.skip() }),
            ]),
        ]);
        // (a panel says what to do meanwhile: the seats keep the room)
        fill(this.taskEl, this.phase === "play" && !this.panel ? [h("p", { class: "task", text: s.task })] : []);
        this.renderRing();
        this.renderPanels();
        this.renderBar();
        this.renderHand();
    }

    renderRing() {
        const l = /** @type {Lesson} */ (this.lesson);
        const v = this.view();
        const play = this.phase === "play";
        /** @type {SeatShow[]} */
        const shows = v.piles.map((/** @type {any} */ pile, /** @type {number} */ i) => {
            const action = play && this.selected ? this.actionAt(this.selected, i) : null;
            const tags = [];
            if (v.turn === i && v.phase === "play") tags.push(_("to play"));
            return {
                name: i === l.you ? savedName() || _("Player") : l.names[i] || "?", you: i === l.you, king: v.king === i, turn: v.turn === i,
                pile, handSize: v.hand_sizes[i], hand: null, pieces: v.road_pieces[i],
                // a stack is said once it holds cards ("0 collected" says nothing: the seats keep room)
                roads: v.roads[i], stack: v.stacks[i] || null, tags, lastCard: null, collected: 0,
                target: action ? { label: this.moveText(action), preview: [this.name(i)],
                                   collects: false, hinted: this.hinted && action === l.steps[this.step].answer,
                                   act: () => this.try(action) } : null,
                status: "present",
            };
        });
        const centre = [];
        const group = v.road_groups[v.round - 1];
        if (group) centre.push(h("p", { class: "centre-pieces", text: fmt(_("Pieces this round: %s"), group.join(" ")) }));
        drawSeats(this.ring, shows, l.you, centre);
    }

    /** The table drawn: the step's, or the one after the move that passed it. */
    view() {
        const l = /** @type {Lesson} */ (this.lesson);
        return this.phase !== "play" && this.after ? this.after : l.steps[this.step].view;
    }

    /** The move of card in front of seat i (a ring goes in front of its player). @param {string} card @param {number} i */
    actionAt(card, i) {
        const l = /** @type {Lesson} */ (this.lesson);
        const a = card === "RING" ? (i === l.you ? "RING" : "RING>" + i) : card + ">" + i;
        return l.steps[this.step].tries[a] ? a : null;
    }

    renderPanels() {
        const l = /** @type {Lesson} */ (this.lesson);
        const ls = /** @type {Lessons} */ (this.ls);
        /** @type {HTMLElement[]} */
        const kids = [];
        if (this.phase === "intro") {
            kids.push(h("section", { class: "lesson-panel", "aria-labelledby": "panel-title" }, [
                h("h2", { id: "panel-title", text: l.title }),
                ...l.tell.map((t) => h("p", { text: t })),
                h("button", { type: "button", class: "primary", "data-focus": "begin", text: _("Start the lesson"),
                              onclick: () => { this.phase = "play"; this.panel = this.stepPanel(); this.render(); } })]));
        } else if (this.phase === "end") {
            const last = this.index() === ls.lessons.length - 1;
            const n = ls.lessons[this.index() + 1];
            kids.push(h("section", { class: "lesson-panel", role: "status", "aria-labelledby": "panel-title" }, [
                h("h2", { id: "panel-title", text: _("Lesson done") }),
                l.end ? h("p", { text: l.end }) : null,
                h("div", { class: "buttons" }, [
                    last ? this.gameButton()
                         : h("a", { class: "button primary", href: "#/learn/" + (n ? n.id : ""), "data-focus": "next-lesson",
                                    text: _("Next lesson") }),
                    h("a", { class: "button", href: "#/learn", text: _("Lessons") })])]));
        } else if (this.panel) {
            const p = this.panel;
            const passed = p.kind === "told";
            kids.push(h("section", { class: "lesson-panel " + (p.kind === "why" ? "why-panel" : "hint-panel"),
                                     role: p.kind === "why" ? "alert" : "status", "aria-labelledby": p.title ? "panel-title" : null }, [
                p.title ? h("h2", { id: "panel-title", text: p.title }) : null,
                ...p.lines.map((t) => h("p", { text: t })),
                p.more && p.more.length ? h("details", { class: "lesson-told" }, [
                    h("summary", { text: _("Details") }), ...p.more.map((t) => h("p", { text: t }))]) : null,
                h("button", { type: "button", class: passed ? "primary" : "", "data-focus": "panel-ok",
                              text: !passed ? _("OK") : this.step === l.steps.length - 1 && this.index() < ls.lessons.length - 1
                                  ? _("Next lesson") : _("Next"),
                              onclick: () => {
                                  if (passed) this.next();
                                  else { this.panel = null; this.render(); }
                              } })]));
        }
        fill(this.panels, kids);
        this.panels.hidden = !kids.length;
    }

    /** Whether a panel takes the place of the hand and the bar. */
    panelShown() {
        return this.phase === "intro" || this.phase === "end" || !!this.panel;
    }

    renderBar() {
        const l = /** @type {Lesson} */ (this.lesson);
        const s = l.steps[this.step];
        /** @type {HTMLElement[]} */
        const kids = [];
        if (this.phase === "play" && !this.panel) {
            const faceUp = s.view.piles.reduce((/** @type {number} */ k, /** @type {any} */ p) => k + p.cards.length, 0);
            // The task above the seats says what to do; once a card is
            // chosen, the line says where it goes (one row: the seats keep room).
            if (this.selected)
                kids.push(h("p", { class: "prompt your-turn", text: fmt(_("%s: now a lit seat."), cardText(this.selected)) }));
            if (this.selected)
                kids.push(h("button", { type: "button", "data-focus": "unselect", text: _("Cancel"),
                                        onclick: () => { this.selected = null; this.render(); } }));
            else
                kids.push(h("button", { type: "button", class: "take", "data-focus": "take",
                                        text: fmt(ngettext("Take %d card", "Take %d cards", faceUp), faceUp),
                                        onclick: () => this.try("take") }),
                          h("button", { type: "button", class: "hint-btn", "data-focus": "hint", text: _("Hint"),
                                        onclick: () => {
                                            this.hinted = true;
                                            this.panel = { kind: "hint", title: _("Hint"),
                                                           lines: [s.hint || s.task, this.tryText(s.answer, faceUp)] };
                                            this.render();
                                        } }));
        }
        fill(this.bar, kids);
    }

    renderHand() {
        const l = /** @type {Lesson} */ (this.lesson);
        const s = l.steps[this.step];
        const play = this.phase === "play" && !this.panel;
        this.handEl.hidden = this.panelShown();
        if (this.page) this.page.classList.toggle("panel-open", this.panelShown());
        /** @type {string[]} */
        const hand = this.view().hand.slice().sort(cardOrder);
        /** @type {[string, number][]} */
        const kinds = [];
        for (const c of hand) {
            const last = kinds[kinds.length - 1];
            if (last && last[0] === c) last[1]++;
            else kinds.push([c, 1]);
        }
        const answerCard = s.answer === "take" ? "" : s.answer.split(">")[0];
        const kids = kinds.map(([c, count]) => {
            const el = cardEl(c, "button");
            el.setAttribute("type", "button");
            el.dataset.focus = "card-" + c;
            el.tabIndex = -1;
            el.setAttribute("aria-label", count > 1 ? fmt(_("%s, %d cards"), cardName(c), count) : cardName(c));
            if (count > 1) el.append(h("span", { class: "count", "aria-hidden": "true", text: "×" + count }));
            if (this.hinted && c === answerCard) el.classList.add("hinted");
            if (play) el.classList.add("playable");
            else el.setAttribute("aria-disabled", "true");
            el.setAttribute("aria-pressed", String(this.selected === c));
            el.addEventListener("click", () => {
                if (!play) return;
                this.selected = this.selected === c ? null : c;
                this.render();
                const first = this.ring.querySelector(".target-btn");
                if (this.selected && first instanceof HTMLElement && !matchMedia("(pointer: coarse)").matches) first.focus();
            });
            return el;
        });
        const stop = kids.find((k) => k.dataset.card === this.selected) || kids[0];
        if (stop) stop.tabIndex = 0;
        const bar = h("div", { class: "hand" + (play ? " mine" : ""), role: "toolbar", "aria-labelledby": "hand-title",
                               onkeydown: (/** @type {KeyboardEvent} */ e) => this.handKey(e) }, kids);
        fill(this.handEl, [h("h2", { class: "hand-title", id: "hand-title",
                                     text: fmt(ngettext("Your hand, %d card:", "Your hand, %d cards:", hand.length), hand.length) }), bar]);
    }

    /** Arrows, Home and End within the hand. @param {KeyboardEvent} e */
    handKey(e) {
        rovingKey(this.handEl, "button.card", e);
    }
}

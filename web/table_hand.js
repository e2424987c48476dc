// SPDX-License-Identifier: MIT
// table_hand.js - the person's side of a table (table.js): their hand (one
// Tab stop; a card tapped that can go nowhere says why, in the words the
// server put in the view: `reasons`), the action bar under the seats (the
// turn line, Take, Hint) and what a move would do before it is made (the
// server's `outcomes`, never a rule played here). Functions of the view: it
// keeps what the person is doing.

import { _, fmt, fmtNodes, ngettext } from "./i18n.js";
import { cardEl, cardOrder, cardText, cardName } from "./cards.js";
import { h, fill, rovingKey } from "./dom.js";
import { ruleLinks } from "./rules.js";

/** @typedef {import("./table.js").TableView} TableView */

/** What playing `action` would do, as a sentence and a short label.
 * @param {string} action @returns {{label: string, preview: (string|Node)[], collects: boolean}} @param {TableView} view */
export function preview(view, action) {
    const v = view.s.view;
    const me = /** @type {number} */ (view.s.seat);
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
    const who = h("span", { class: "who", text: view.name(target) });
    if (o.collector === undefined) {
        const label = target === me ? fmt(_("%s in front of yourself"), c)
                                    : fmt(_("%s in front of %s"), c, view.name(target));
        const preview = target === me ? fmtNodes(_("Your pile: %d"), o.reach)
                                      : fmtNodes(_("%s's pile: %d"), who, o.reach);
        return { label, preview, collects: false };
    }
    const label = target === me
        ? fmt(_("%s in front of yourself: your pile reaches %d and you collect %d cards"), c, o.reach, o.count)
        : fmt(_("%s in front of %s: that pile reaches %d and %s collects %d cards"), c, view.name(target),
              o.reach, view.name(target), o.count);
    const preview = target === me ? [fmt(_("you collect %d cards"), o.count)]
                                  : fmtNodes(_("%s collects %d cards"), who, o.count);
    return { label, preview, collects: true };
}

/** @param {TableView} view */
export function renderBar(view) {
    const v = view.s.view;
    const kids = [];
    if (!v || view.s.state !== "playing") {
        fill(view.bar, []);
        return;
    }
    if (view.myTurn()) {
        const legal = v.legal || [];
        const faceUp = v.piles.reduce((/** @type {number} */ k, /** @type {any} */ p) => k + p.cards.length, 0);
        if (view.confirmTake) {
            kids.push(h("p", { class: "prompt", text: fmt(ngettext("Take the %d face-up card into your stack?",
                                                                 "Take the %d face-up cards into your stack?", faceUp), faceUp) }),
                      h("button", { type: "button", class: "primary", "data-focus": "take-yes",
                                    text: _("Take them"), onclick: () => view.act("take") }),
                      h("button", { type: "button", "data-focus": "take-no", text: _("Cancel"),
                                    onclick: () => { view.confirmTake = false; view.render(); } }));
        } else {
            const cards = legal.some((/** @type {string} */ a) => a !== "take");
            // In a first game the line says what is allowed; a forced take says why, always.
            const prompt = view.selected ? fmt(_("%s: now a lit seat."), cardText(view.selected))
                : !cards ? _("No card of yours can be played: you must take (R5).")
                : !view.firstGame ? _("Your turn: a card, then a lit seat.")
                : legal.includes("take") ? _("Your turn: play one of the bright cards, or take.")
                : _("Your turn: play one of the bright cards.");
            kids.push(h("p", { class: "prompt your-turn" + (cards ? "" : " must-take") }, ruleLinks(prompt)));
            if (view.selected)
                kids.push(h("button", { type: "button", "data-focus": "unselect", text: _("Cancel"),
                                        onclick: () => { view.selected = null; view.render(); } }));
            if (legal.includes("take"))
                kids.push(h("button", { type: "button", class: "take", "data-focus": "take",
                                        text: fmt(ngettext("Take %d card", "Take %d cards", faceUp), faceUp),
                                        onclick: () => { view.confirmTake = true; view.selected = null;
                                                         view.render(); } }));
            if (view.s.options && view.s.options.hints && !view.selected)   // one line on a phone
                kids.push(h("button", { type: "button", class: "hint-btn", "data-focus": "hint",
                                        disabled: view.s.hintAsked === view.s.gameN && !view.s.hint,
                                        text: view.s.hintAsked === view.s.gameN && !view.s.hint ? _("Thinking...") : _("Hint"),
                                        onclick: () => view.askHint() }));
        }
    } else if (v.phase === "play") {
        kids.push(h("p", { class: "prompt", text: view.s.seat !== null && view.s.sent === view.s.gameN ? _("Sent...")
                                               : fmt(_("%s is to play."), view.name(v.turn)) }));
    }
    fill(view.bar, kids);
}

/** Why card cannot be played now, in the engine's words: the server puts
 * them in the seat's own view on its turn (`reasons`, beside `legal`), so
 * nothing is sent: a question is no action. Shown for that turn.
 * @param {string} card @param {TableView} view */
export function askWhy(view, card) {
    view.why = { card, n: view.s.gameN };
    view.selected = null;
    view.confirmTake = false;
    view.render();
}

/** The hand: one Tab stop, the arrow keys move within it (a toolbar);
 * cards of one kind are one button with their count. @param {TableView} view */
export function renderHand(view) {
    const v = view.s.view;
    if (!v || !v.hand || view.s.seat === null) {
        fill(view.handEl, []);
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
    const mine = view.myTurn();
    const legal = v.legal || [];
    const prev = document.activeElement instanceof HTMLElement && view.handEl.contains(document.activeElement)
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
        if (view.s.hint && view.s.hint.action && view.s.hint.action.split(">")[0] === c) el.classList.add("hinted");
        if (ok) {
            el.classList.add("playable");
            el.draggable = true;
            el.addEventListener("dragstart", (e) => {
                view.dragCard = c;
                e.dataTransfer?.setData("text/plain", c);
                for (const s of view.ring.querySelectorAll(".seat"))
                    if (view.actionFor(c, Number(/** @type {HTMLElement} */ (s).dataset.seat)))
                        s.classList.add("droppable");
            });
            el.addEventListener("dragend", () => {
                view.dragCard = null;
                for (const s of view.ring.querySelectorAll(".droppable, .drop")) s.classList.remove("droppable", "drop");
            });
        } else {
            el.setAttribute("aria-disabled", "true");
        }
        el.setAttribute("aria-pressed", String(view.selected === c));
        el.addEventListener("click", () => {
            if (!ok) {
                if (mine) askWhy(view, c);
                return;
            }
            view.selected = view.selected === c ? null : c;
            view.confirmTake = false;
            view.why = null;
            view.render();
            const first = view.ring.querySelector(".target-btn");
            if (view.selected && first instanceof HTMLElement && !matchMedia("(pointer: coarse)").matches) first.focus();
        });
        return el;
    });
    // The one Tab stop: the card focused before, else the selected one, else the first playable.
    const stop = kids.find((k) => k.dataset.card === prev) || kids.find((k) => k.dataset.card === view.selected) ||
                 kids.find((k) => k.classList.contains("playable")) || kids[0];
    if (stop) stop.tabIndex = 0;
    const title = view.s.state === "playing" && v.phase === "play"
        ? fmt(ngettext("Your hand, %d card:", "Your hand, %d cards:", hand.length), hand.length) : _("Your hand");
    const bar = h("div", { class: "hand" + (mine ? " mine" : ""), role: "toolbar", "aria-labelledby": "hand-title",
                           onkeydown: (/** @type {KeyboardEvent} */ e) => handKey(view, e) }, kids);
    fill(view.handEl, [h("h2", { class: "hand-title", id: "hand-title", text: title }), bar]);
}

/** Arrows, Home and End within the hand. @param {KeyboardEvent} e @param {TableView} view */
export function handKey(view, e) {
    rovingKey(view.handEl, "button.card", e);
}

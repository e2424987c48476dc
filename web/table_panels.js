// SPDX-License-Identifier: MIT
// table_panels.js - what comes over a table's seats (table.js): the hint,
// the engine's reasons a card cannot be played, the round's end, the ranking
// with the vote for a rematch; each until the person closes it, and each
// giving way when a card is chosen (the lit seats show then).

import { _, fmt, ngettext } from "./i18n.js";
import { cardText } from "./cards.js";
import { h, fill } from "./dom.js";
import * as proto from "./proto.js";
import { drawRanking, drawRoundEnd } from "./board.js";
import { ruleLinks } from "./rules.js";
import { ratedLine } from "./person.js";

/** @typedef {import("./table.js").TableView} TableView */
/** @typedef {import("./net.js").Msg} Msg */

/** The engine's reasons a card tapped cannot be played (the view's
 * `reasons`: one for each seat), over the seats; it gives way when a card
 * is chosen, as the hint does. @param {TableView} view */
export function whyPanel(view) {
    const w = /** @type {{card: string, n: number}} */ (view.why);
    const v = view.s.view;
    /** @type {string[]} */
    const reasons = (v && v.reasons && v.reasons[w.card]) || [];
    return h("section", { class: "why-panel", role: "status", "aria-labelledby": "why-title" }, [
        h("button", { type: "button", class: "panel-close", "data-focus": "close-why", "aria-label": _("Close"),
                      text: "×", onclick: () => { view.why = null; view.render(); } }),
        h("h2", { id: "why-title", text: fmt(_("%s cannot be played now:"), cardText(w.card)) }),
        reasons.length ? h("ul", {}, reasons.map((t) => h("li", {}, ruleLinks(t))))
                       : h("p", { text: _("It cannot be played on this turn.") }),
    ]);
}

/** What comes over the seats: the hint, the round's end, the ranking and
 * the vote, each until the person closes it. @param {TableView} view */
export function renderPanels(view) {
    const kids = [];
    const names = view.s.seats.map((_s, i) => view.name(i));
    const v = view.s.view;
    if (view.s.hint && view.hintShown && !view.selected && view.myTurn()) kids.push(hintPanel(view, view.s.hint));
    if (view.why && view.why.n === view.s.gameN && !view.selected && view.myTurn()) kids.push(whyPanel(view));
    const over = view.s.state === "over" && v && v.roads;
    const ended = view.s.roundEvents && view.s.roundEvents.find((e) => e.type === "round_end");
    const key = over ? "over-" + view.s.game : ended ? "round-" + view.s.game + "-" + ended.round : "";
    if (key && key !== view.closedPanel) {
        const close = h("button", { type: "button", class: "panel-close", "data-focus": "close-panel",
                                    "aria-label": _("Close"), text: "×",
                                    onclick: () => { view.closedPanel = key; view.render(); } });
        const end = view.s.roundEvents ? drawRoundEnd(view.s.roundEvents, names) : null;
        if (end && !over && !(view.selected && view.myTurn())) {   // it gives way to the lit seats
            end.prepend(close);
            kids.push(end);
        }
        if (over) {
            const roads = v.roads.map((/** @type {number[]|null} */ r) => r || []);
            const order = view.s.gameOver ? view.s.gameOver.ranking : v.ranking;
            const panel = drawRanking(order, roads, names);
            panel.prepend(close);
            const vote = renderVote(view);
            if (vote) panel.append(vote);
            const acts = h("div", { class: "after-game" });
            const mine = view.s.seat !== null && !!view.s.rematch && view.s.rematch.votes[view.s.seat] === "ready";
            if (view.s.seat !== null)
                acts.append(h("button", { type: "button", class: mine ? "" : "primary", "data-focus": "rematch",
                                          "aria-pressed": String(mine),
                                          text: mine ? _("Cancel my rematch request") : _("Rematch"),
                                          onclick: () => view.conn.send(proto.rematch(view.code, view.s.game, !mine)) }));
            if (view.s.seat !== null)
                acts.append(h("a", { href: "#/r/" + view.code + "/" + view.s.game + "/review", class: "review-link",
                                     text: _("Review my moves") }));
            acts.append(h("a", { href: "#/r/" + view.code + "/" + view.s.game, text: _("Replay this game") }));
            if (view.s.record) acts.append(h("a", { href: view.s.record, download: view.code + "-" + view.s.game + ".fgn",
                                                  text: _("Game record (FGN)") }));
            panel.append(acts);
            // the server's `rated` after this game: the person's new rating
            if (view.rated && view.rated.game === view.s.game)
                panel.append(h("p", { class: "rated-line", role: "status", text: ratedLine(view.rated) }));
            if (end) panel.append(end);   // the last round's end, below the ranking
            kids.push(panel);
        }
    } else if (over) {
        kids.push(h("p", { class: "reopen" }, [h("button", { type: "button", "data-focus": "reopen",
            text: _("The game is over: the ranking"), onclick: () => { view.closedPanel = ""; view.render(); } })]));
    }
    const had = view.panels.dataset.key;
    fill(view.panels, kids);
    view.panels.hidden = !kids.length;

    // A panel that just appeared comes into view by itself.
    const now = kids.map((k) => k.className).join(" ");
    view.panels.dataset.key = now;
    if (now && now !== had) view.panels.scrollTop = 0;
}

/** The server's hint for this turn: the move, why, and the search's other
 * good moves. @param {Msg} m @param {TableView} view */
export function hintPanel(view, m) {
    const top = Array.isArray(m.top) ? m.top.slice(0, 3) : [];
    const say = Array.isArray(m.say) ? m.say : [];
    return h("section", { class: "hint-panel", "aria-labelledby": "hint-title" }, [
        h("button", { type: "button", class: "panel-close", "data-focus": "close-hint", "aria-label": _("Close"),
                      text: "×", onclick: () => { view.hintShown = false; view.render(); } }),
        h("h2", { id: "hint-title", text: say[0] || _("Hint") }),
        ...say.slice(1).map((t) => h("p", { text: t })),
        // the search's other good moves, folded: the seats stay in sight
        top.length > 1 ? h("details", { class: "hint-more" }, [
            h("summary", { text: _("The search's best moves:") }),
            h("ol", { class: "hint-alts" }, top.map((/** @type {any} */ t) => h("li", { text: String(t.say || t.action) })))]) : null,
    ]);
}

/** Who wants the next game, once a game is over: "Ann wants a rematch —
 * 1 of 2 ready", and whom it waits for. @returns {HTMLElement|null} @param {TableView} view */
export function renderVote(view) {
    const y = view.s.rematch;
    if (!y || !y.of) return null;
    const names = (/** @type {string} */ want) => y.votes.flatMap((v, i) => v === want ? [view.name(i)] : []);
    const ready = names("ready");
    const kids = [];
    if (ready.length)
        kids.push(h("p", { text: fmt(ngettext("%s wants a rematch — %d of %d ready",
                                              "%s want a rematch — %d of %d ready", ready.length),
                                     ready.join(", "), y.ready, y.of) }));
    const waiting = y.votes.flatMap((v, i) => v !== "waiting" ? [] : i === view.s.seat ? [_("you")] : [view.name(i)]);
    if (ready.length && waiting.length)
        kids.push(h("p", { text: fmt(_("Waiting for %s."), waiting.join(", ")) }));
    if (!ready.length)
        kids.push(h("p", { text: _("A rematch starts when everyone seated asks for it.") }));
    return h("div", { class: "rematch-vote", role: "status" }, kids);
}

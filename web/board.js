// SPDX-License-Identifier: MIT
// board.js - the table as people see it, shared by live play and replay:
// the seats around an oval table (the viewer at the bottom, the others
// clockwise: the left neighbour on the left), each with its name, pile, hand
// size and marks; the final roads drawn as pieces laid end to end toward the
// castle wall; the summary of a round's end.

import { ruleLinks } from "./rules.js";
import { _, fmt, ngettext } from "./i18n.js";
import { cardEl } from "./cards.js";
import { h, crown, reducedMotion } from "./dom.js";

/** A seat's face-up pile, as the server's view sends it.
 * @typedef {{colour: string|null, total: number, cards: string[]}} Pile */
/** A seat the selected card may go to: what it would do, said in full (label)
 * and short (preview: a name in it is a node that may be shortened, the rest
 * never is).
 * @typedef {{label: string, preview: (string|Node)[], collects: boolean, hinted?: boolean,
 *   act: () => void}} Target */
/** @typedef {{name: string, you: boolean, king: boolean, turn: boolean, pile: Pile,
 *   handSize: number, hand: string[]|null, pieces: number, roads: number[]|null,
 *   stack: number|null, tags: string[], lastCard: string|null, collected: number,
 *   target: Target|null, status: string, bare?: boolean}} SeatShow */

/** Where the k-th seat from the viewer's (k = 0, at the bottom) sits, clockwise,
 * in a grid of three columns and three rows around the felt: [rows, column].
 * Cells, not free positions, so that seats never overlap however small the
 * screen: on a phone each seat is a third of the width. With four, the side
 * seats span the three rows (their columns hold nothing else): the table's
 * height is the taller of a side seat and the middle column, not the sum of
 * three seats, which a lesson's seats with many marks need on a phone.
 * @type {Object<number, [string, number][]>} */
const GRID = {
    3: [["3", 2], ["1 / 3", 1], ["1 / 3", 3]],
    4: [["3", 2], ["1 / 4", 1], ["1", 2], ["1 / 4", 3]],
    5: [["3", 2], ["2", 1], ["1", 1], ["1", 3], ["2", 3]],
    6: [["3", 2], ["2", 1], ["1", 1], ["1", 2], ["1", 3], ["2", 3]],
};
/** The felt's centre cell (column 2), by the number of seats. @type {Object<number, string>} */
const CENTRE = { 3: "1 / 3", 4: "2", 5: "1 / 3", 6: "2" };

/** Draws the seats into `ring` (kept: its children are replaced). Each seat's
 * cell is given as CSS variables: --row and --col around the felt, and --wide
 * for a screen with little height (a phone held sideways, style.css): the
 * others in one row from the viewer's left, clockwise, the viewer below.
 * @param {HTMLElement} ring @param {SeatShow[]} seats @param {number} bottom the seat drawn at
 * the bottom @param {Node[]} centre what the middle of the table shows */
export function drawSeats(ring, seats, bottom, centre) {
    const n = seats.length;
    ring.className = "ring players-" + n;
    ring.style.setProperty("--others", String(n - 1));
    const grid = GRID[n] || GRID[6];
    const mid = h("div", { class: "felt-centre" }, centre);
    mid.style.setProperty("--row", CENTRE[n] || "2");
    const els = seats.map((s, i) => {
        const k = (i - bottom + n) % n;
        const [row, col] = grid[k] || ["1", 1];
        const el = seatEl(s, i);
        el.style.setProperty("--row", row);
        el.style.setProperty("--col", String(col));
        el.style.setProperty("--wide-row", k ? "1" : "2");
        el.style.setProperty("--wide-col", k ? String(k) : "1 / -1");
        return el;
    });
    ring.replaceChildren(h("div", { class: "felt", "aria-hidden": "true" }), mid, ...els);
}

/** @param {SeatShow} s @param {number} i */
function seatEl(s, i) {
    const cls = ["seat"];
    if (s.turn) cls.push("turn");
    if (s.you) cls.push("you");
    if (s.target) cls.push("target");
    if (s.collected) cls.push("collected");
    cls.push("st-" + s.status);
    const head = h("div", { class: "seat-head" }, [
        h("span", { class: "seat-name", text: s.you ? fmt(_("%s (you)"), s.name) : s.name }),
        s.king ? crown(_("the King")) : null,
    ]);
    const tags = h("div", { class: "seat-tags" }, s.tags.map((t) => h("span", { class: "tag", text: t })));
    const pile = h("div", { class: "pile" + (s.pile.cards.length > 4 ? " many" : ""), "data-seat": i });
    // An empty pile: the place a card would go, drawn (the foot says "pile 0").
    if (s.pile.cards.length === 0) pile.append(h("span", { class: "pile-slot", "aria-hidden": "true" }));
    let marked = false;
    for (let c = s.pile.cards.length - 1; c >= 0; c--) {
        const el = cardEl(s.pile.cards[c]);
        if (!marked && s.lastCard === s.pile.cards[c]) {
            el.classList.add("last");
            marked = true;
        }
        pile.prepend(el);
    }
    const foot = h("div", { class: "seat-foot" }, [
        h("span", { class: "total", title: _("pile total"),
                    text: fmt(_("pile %d"), s.pile.total) }),
        // (your own hand is below the table: its size goes without saying)
        s.hand || !s.you ? h("span", { class: "hand-size", title: fmt(ngettext("%d card in hand", "%d cards in hand", s.handSize), s.handSize),
                                       text: fmt(_("%d in hand"), s.handSize) }) : null,
        s.pieces ? h("span", { class: "pieces",
            text: s.roads && s.roads.length ? fmt(_("road %s"), s.roads.join("+"))
                                            : fmt(ngettext("%d road piece", "%d road pieces", s.pieces), s.pieces) }) : null,
        s.stack !== null ? h("span", { class: "stack",
            text: fmt(ngettext("%d card collected", "%d cards collected", s.stack), s.stack) }) : null,
    ]);
    /** @type {HTMLElement[]} */
    const kids = s.bare ? [head, tags] : [head, tags, pile, foot];   // bare: before the first game, no cards yet
    if (s.hand) {
        const hand = h("div", { class: "seat-hand", "aria-label": _("hand") });
        for (const c of s.hand) hand.append(cardEl(c));
        kids.push(hand);
    }
    if (s.target) {
        const t = s.target;
        kids.push(h("button", { class: "target-btn" + (t.collects ? " collects" : "") + (t.hinted ? " hinted" : ""),
                                type: "button", "aria-label": t.label, "data-seat": i, onclick: t.act },
                    [h("span", { class: "preview" }, t.preview)]));
    }
    return h("div", { class: cls.join(" "), "data-seat": i, role: "group", "aria-label": s.name }, kids);
}

/** Moves each pile from where it was (before a ring) to where it is now:
 * every pile went one seat to the left (R7). No motion if asked for none.
 * @param {HTMLElement} ring @param {Map<number, DOMRect>} before piles' places, by seat */
export function animateRing(ring, before) {
    if (reducedMotion() || before.size === 0) return;
    const n = before.size;
    for (const el of ring.querySelectorAll(".pile[data-seat]")) {
        const s = Number(/** @type {HTMLElement} */ (el).dataset.seat);
        const from = before.get((s - 1 + n) % n);
        if (!from) continue;
        const to = el.getBoundingClientRect();
        el.animate([{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px)` },
                    { transform: "none" }], { duration: 600, easing: "ease-in-out" });
    }
}

/** The piles' places now, by seat. @param {HTMLElement} ring */
export function pilePlaces(ring) {
    /** @type {Map<number, DOMRect>} */
    const m = new Map();
    for (const el of ring.querySelectorAll(".pile[data-seat]"))
        m.set(Number(/** @type {HTMLElement} */ (el).dataset.seat), el.getBoundingClientRect());
    return m;
}

/** The final ranking: each road drawn as its pieces laid end to end toward
 * the castle wall, shortest (the winner) first.
 * @param {number[]} order seats, winner first @param {number[][]} roads @param {string[]} names */
export function drawRanking(order, roads, names) {
    const totals = roads.map((r) => r.reduce((a, b) => a + b, 0));
    const longest = Math.max(1, ...totals);
    const rows = order.map((s, i) => {
        const pieces = roads[s].map((len) =>
            h("span", { class: "piece", title: String(len), "data-len": len }, [String(len)]));
        const road = h("div", { class: "road", role: "img",
                                "aria-label": roads[s].length ? fmt(_("road %d = %s"), totals[s], roads[s].join(" + "))
                                                              : _("no road pieces") }, pieces);
        // Widths in proportion to the lengths (CSSOM: allowed by the CSP).
        pieces.forEach((p, j) => { p.style.width = (100 * roads[s][j]) / longest + "%"; });
        return h("li", { class: "rank-row" + (i === 0 ? " winner" : ""), "data-seat": s }, [
            h("span", { class: "rank-n", text: String(i + 1) + "." }),
            h("span", { class: "rank-name", text: names[s] }),
            h("span", { class: "rank-total", text: String(totals[s]) }),
            h("div", { class: "road-line" }, [road, h("span", { class: "wall", "aria-hidden": "true" })]),
        ]);
    });
    return h("section", { class: "ranking", "aria-labelledby": "ranking-title" }, [
        h("h2", { id: "ranking-title", text: _("The game is over") }),
        h("p", { class: "winner-line",
                 text: fmt(_("%s wins with the shortest road, %d."), names[order[0]], totals[order[0]]) }),
        h("ol", { class: "ranking-list" }, rows),
        h("p", { class: "hint" }, ruleLinks(_("Shortest road first; equal roads are ranked from the King clockwise (R13)."))),
    ]);
}

/** One of the events the server's engine reports (docs/protocol.md).
 * @typedef {{type: string, seat?: number, card?: string, target?: number, count?: number,
 *   reason?: string, round?: number, stacks?: number[], gave?: number, took?: number,
 *   length?: number, rank?: number, cards?: number, tie?: boolean, ranking?: number[],
 *   totals?: number[]}} RuleEvent */

/** The end of a round from its events: cards collected, pieces, ties, exchange.
 * @param {RuleEvent[]} events @param {string[]} names @returns {HTMLElement|null} */
export function drawRoundEnd(events, names) {
    const end = events.find((e) => e.type === "round_end");
    if (!end) return null;
    const rows = [];
    let tie = false;
    for (const e of events) {
        if (e.type !== "piece" && e.type !== "no_piece") continue;
        const s = /** @type {number} */ (e.seat);
        const cards = (end.stacks || [])[s] ?? e.cards ?? 0;
        let what;
        if (e.type === "piece") {
            what = fmt(_("piece of length %d"), e.length || 0);
            if (e.tie) tie = true;
        } else {
            what = e.reason === "last" ? _("no piece: fewest cards") : _("no piece: no cards");
        }
        rows.push(h("tr", {}, [h("th", { scope: "row", text: names[s] }),
                               h("td", { text: String(cards) }), h("td", { text: what })]));
    }
    const ex = events.find((e) => e.type === "exchange");
    return h("section", { class: "round-end", "aria-labelledby": "round-end-title" }, [
        h("h2", { id: "round-end-title", text: fmt(_("Round %d is over"), end.round || 0) }),
        h("p", { text: fmt(_("%s takes the King."), names[end.seat || 0]) }),
        ex ? h("p", { class: "exchange", text: fmt(_("Round-3 exchange: %s gives the piece %d and takes %d."),
                                                     names[ex.seat || 0], ex.gave || 0, ex.took || 0) }) : null,
        h("table", {}, [
            h("thead", {}, [h("tr", {}, [h("th", { scope: "col", text: _("Player") }),
                                          h("th", { scope: "col", text: _("Cards") }),
                                          h("th", { scope: "col", text: _("Road pieces") })])]),
            h("tbody", {}, rows),
        ]),
        tie ? h("p", { class: "hint" }, ruleLinks(_("Equal counts are ranked clockwise from the new King's left, the King last (R11)."))) : null,
    ]);
}

// rules.js - the little of the rules the client works out itself, from
// what the server already sent: what a legal move would do before it is
// committed (R6-R8: "Rosina collects 8 cards", from the view's piles), and
// the final ranking (R13) for a client that came after the game_over event.
// The server's view is the truth; replays are computed by the server's
// engine (replay.js), never here. The types of the server's piles and events
// are described here for the modules that draw them.

import { cardValue } from "./cards.js";

/** @typedef {{colour: string|null, total: number, cards: string[]}} Pile */

/** What an action would do on these piles: who collects and how many cards.
 * @param {Pile[]} piles @param {number} seat @param {string} action
 * @returns {{collector: number, count: number, reach: number}} */
export function outcome(piles, seat, action) {
    const onTable = piles.reduce((n, p) => n + p.cards.length, 0);
    if (action === "take") return { collector: seat, count: onTable, reach: 0 };
    if (action === "RING" || action.startsWith("RING>")) return { collector: -1, count: 0, reach: 0 };
    const [card, target] = action.split(">");
    const reach = piles[Number(target)].total + cardValue(card);
    return reach >= 6 ? { collector: Number(target), count: onTable + 1, reach }
                      : { collector: -1, count: 0, reach };
}

/** R13: seats ranked by road, shortest first; equal roads from the King
 * clockwise. @param {number[]} totals @param {number} king @returns {number[]} */
export function ranking(totals, king) {
    const n = totals.length;
    return totals.map((_t, s) => s)
        .sort((a, b) => totals[a] - totals[b] || (a - king + n) % n - (b - king + n) % n);
}

/** @typedef {{type: string, seat?: number, card?: string, target?: number, count?: number,
 *   reason?: string, round?: number, stacks?: number[], gave?: number, took?: number,
 *   length?: number, rank?: number, cards?: number, tie?: boolean, ranking?: number[],
 *   totals?: number[]}} RuleEvent */

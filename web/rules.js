// rules.js - the little of the rules the client works out itself:
// what a move would do before it is committed (R6-R9: "Rosina collects 8
// cards"), the final ranking of a finished game (R13), and the replay of a
// game record (docs/fgn.md), move by move with every hand, scoring each round
// (R10-R12). During play the server's view is the truth; only the replay
// plays the rules here, on a record the server already checked.

import { cardColour, cardValue } from "./cards.js";

/** @typedef {{colour: string|null, total: number, cards: string[]}} Pile */

/** The pile a list of cards makes. @param {string[]} cards @returns {Pile} */
export function pileOf(cards) {
    let colour = null, total = 0;
    for (const c of cards) {
        total += cardValue(c);
        colour = colour || cardColour(c);
    }
    return { colour, total, cards };
}

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

/** @typedef {{players: number, names: string[]|null, removed: string|null,
 *   groups: number[][], king: number,
 *   rounds: {hands: string[][], moves: {seat: number, action: string}[]}[]}} Record */

/** Reads a game record. Throws an Error naming the line on a bad one.
 * @param {string} text @returns {Record} */
export function parseFgn(text) {
    /** @type {Record} */
    const r = { players: 0, names: null, removed: null, groups: [], king: -1, rounds: [] };
    let magic = false;
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
        const line = lines[i].replace(/#.*$/, "").trim();
        if (!line) continue;
        const bad = (/** @type {string} */ why) => new Error("line " + (i + 1) + ": " + why);
        const w = line.split(/\s+/);
        if (!magic) {
            if (w[0] !== "figaro" || w[1] !== "1") throw bad("not a figaro 1 record");
            magic = true;
            continue;
        }
        const round = r.rounds[r.rounds.length - 1];
        if (w[0] === "players") r.players = Number(w[1]);
        else if (w[0] === "names") r.names = w.slice(1);
        else if (w[0] === "removed") r.removed = w[1] === "-" ? null : w[1];
        else if (w[0] === "roads")
            r.groups = line.slice(6).split("/").map((g) => g.trim().split(/\s+/).map(Number));
        else if (w[0] === "king") r.king = Number(w[1]);
        else if (w[0] === "seed") continue;
        else if (w[0] === "round") r.rounds.push({ hands: [], moves: [] });
        else if (w[0] === "hand" && round) round.hands[Number(w[1])] = w.slice(2);
        else if (/^\d+$/.test(w[0]) && w.length === 2 && round)
            round.moves.push({ seat: Number(w[0]), action: w[1] });
        else throw bad("cannot read '" + line + "'");
    }
    if (!magic) throw new Error("not a figaro 1 record");
    if (r.players < 3 || r.players > 6 || r.king < 0 || r.king >= r.players || r.groups.length !== 3)
        throw new Error("the record's header is incomplete");
    return r;
}

/** @typedef {{type: string, seat?: number, card?: string, target?: number, count?: number,
 *   reason?: string, round?: number, stacks?: number[], gave?: number, took?: number,
 *   length?: number, rank?: number, cards?: number, tie?: boolean, ranking?: number[],
 *   totals?: number[]}} RuleEvent */

/** @typedef {{round: number, phase: string, turn: number, king: number,
 *   hands: string[][], piles: Pile[], stacks: number[], roads: number[][],
 *   seat: number, action: string|null, events: RuleEvent[]}} Step */

/** Every step of a recorded game: the deal of each round and each move, with
 * the whole state after it. @param {Record} rec @returns {Step[]} */
export function replaySteps(rec) {
    const n = rec.players;
    /** @type {Step[]} */
    const steps = [];
    let king = rec.king;
    /** @type {number[][]} */
    const roads = Array.from({ length: n }, () => []);
    const copy = (/** @type {Omit<Step, "piles" | "roads"> & {piles: string[][]}} */ s) => ({
        ...s, hands: s.hands.map((h) => h.slice()), piles: s.piles.map((p) => pileOf(p.slice())),
        stacks: s.stacks.slice(), roads: roads.map((r) => r.slice()),
    });
    for (let r = 0; r < rec.rounds.length && r < 3; r++) {
        const hands = rec.rounds[r].hands.map((h) => (h || []).slice());
        /** @type {string[][]} */
        let piles = Array.from({ length: n }, () => []);
        const stacks = new Array(n).fill(0);
        let turn = king;
        steps.push(copy({ round: r + 1, phase: "deal", turn, king, hands, piles, stacks,
                          seat: king, action: null, events: [] }));
        for (const mv of rec.rounds[r].moves) {
            const s = mv.seat;
            /** @type {RuleEvent[]} */
            const ev = [];
            const onTable = () => piles.reduce((k, p) => k + p.length, 0);
            if (mv.action === "take") {
                const count = onTable();
                ev.push({ type: "take", seat: s, count }, { type: "collect", seat: s, count, reason: "take" });
                stacks[s] += count;
                piles = piles.map(() => []);
                turn = s;
            } else if (mv.action === "RING" || mv.action.startsWith("RING>")) {
                hands[s].splice(hands[s].indexOf("RING"), 1);
                piles[s].push("RING");
                piles = piles.map((_p, i) => piles[(i - 1 + n) % n]);
                ev.push({ type: "ring", seat: s });
                turn = (s + 1) % n;
            } else {
                const [card, t] = mv.action.split(">");
                const target = Number(t);
                const at = hands[s].indexOf(card);
                if (at < 0 || !(target >= 0 && target < n))
                    throw new Error("move " + s + " " + mv.action + ": not in the hand");
                hands[s].splice(at, 1);
                piles[target].push(card);
                ev.push({ type: "play", seat: s, card, target });
                if (pileOf(piles[target]).total >= 6) {
                    const count = onTable();
                    ev.push({ type: "collect", seat: target, count, reason: "six" });
                    stacks[target] += count;
                    piles = piles.map(() => []);
                    turn = target;
                } else {
                    turn = (s + 1) % n;
                }
            }
            if (hands[s].length === 1) ev.push({ type: "last_card", seat: s });
            let phase = "play";
            if (hands[turn].length === 0) {   // R10: a turn starts with no cards
                king = turn;
                ev.push({ type: "round_end", round: r + 1, seat: king, stacks: stacks.slice() });
                ev.push(...scoreRound(r, stacks, king, rec.groups[r], roads));
                phase = r === 2 ? "over" : "deal";
                if (r === 2) {
                    const totals = roads.map((x) => x.reduce((a, b) => a + b, 0));
                    ev.push({ type: "game_over", ranking: ranking(totals, king), totals });
                }
            }
            steps.push(copy({ round: r + 1, phase, turn, king, hands, piles, stacks,
                              seat: s, action: mv.action, events: ev }));
        }
    }
    return steps;
}

/** R11 and, in round 3, R12: hands the round's pieces out into `roads`.
 * @param {number} r @param {number[]} stacks @param {number} king
 * @param {number[]} groupIn @param {number[][]} roads @returns {RuleEvent[]} */
function scoreRound(r, stacks, king, groupIn, roads) {
    const n = stacks.length;
    const group = groupIn.slice().sort((a, b) => b - a);
    /** @type {RuleEvent[]} */
    const ev = [];
    if (r === 2) {
        const fewest = stacks.map((_c, s) => s)
            .sort((a, b) => stacks[a] - stacks[b] || (a - king + n) % n - (b - king + n) % n)[0];
        const mine = roads[fewest];
        const shortest = Math.min(...group);
        if (mine.length && Math.max(...mine) > shortest) {
            const longest = Math.max(...mine);
            mine.splice(mine.indexOf(longest), 1, shortest);
            group.splice(group.indexOf(shortest), 1, longest);
            group.sort((a, b) => b - a);
            ev.push({ type: "exchange", seat: fewest, gave: longest, took: shortest });
        }
    }
    const order = stacks.map((_c, s) => s)
        .sort((a, b) => stacks[b] - stacks[a] || (a - king - 1 + 2 * n) % n - (b - king - 1 + 2 * n) % n);
    order.forEach((s, i) => {
        const tie = stacks.some((c, o) => o !== s && c === stacks[s]);
        if (i < n - 1 && stacks[s] > 0) {
            roads[s].push(group[i]);
            ev.push({ type: "piece", seat: s, rank: i + 1, cards: stacks[s], length: group[i], tie });
        } else {
            ev.push({ type: "no_piece", seat: s, reason: i === n - 1 ? "last" : "zero", cards: stacks[s] });
        }
    });
    return ev;
}

// SPDX-License-Identifier: MIT
// lobby.js - the lobby on the home page (docs/protocol.md, lobby): the
// tables their owners listed that wait for players, live as the server
// sends them (the list at once, then after every change), one short line
// each so that the list fits a phone's home screen beside the rest: its free
// seats, who sits, the bots' levels and the settings. One tap on a table
// takes a seat there, by the join path of an invite link, with the name the
// person typed on the home page.

import { h, fill } from "./dom.js";
import { _, ngettext, fmt, levelName } from "./i18n.js";

/** The table a tap in the lobby chose: the table's page takes any open seat
 * there once its connection is up (table.js). */
export const LOBBY_JOIN_KEY = "figaro.lobby-join";

/** @typedef {import("./net.js").Msg} Msg */
/** @typedef {{kind: string, name?: string, level?: string, engine?: string}} LobbySeat */
/** @typedef {{table: string, players: number, free: number, seats: LobbySeat[],
 *             options: {move_seconds?: number, open?: boolean, hints?: boolean, fill?: string}}} LobbyTable */

/** Who sits at a seat, in a few words. @param {LobbySeat} s */
function seatWords(s) {
    if (s.kind === "person") return s.name || "?";
    if (s.kind === "bot") return fmt(_("bot: %s"), levelName(s.level || ""));
    if (s.kind === "engine") return fmt(_("engine: %s"), s.engine || "");
    return _("open seat");
}

/** The table's settings, in a few words. @param {LobbyTable} t */
function settingsWords(t) {
    const o = t.options || {};
    const words = [];
    words.push(o.move_seconds ? fmt(_("%s s per move"), String(o.move_seconds)) : _("no time limit"));
    if (o.open) words.push(_("open game"));
    if (o.hints) words.push(_("hints"));
    if (o.fill) words.push(fmt(_("away: %s"), levelName(o.fill)));
    return words.join(" · ");
}

export class LobbyList {
    /** @param {(code: string) => void} onJoin what a tap on a table does */
    constructor(onJoin) {
        this.onJoin = onJoin;
        /** @type {LobbyTable[]} */
        this.tables = [];
        this.known = false;   // no list from the server yet
        this.list = h("ul", { class: "lobby-list", "aria-live": "polite" });
        this.root = h("section", { class: "card-panel lobby", "aria-labelledby": "lobby-title" }, [
            h("h2", { id: "lobby-title", text: _("Tables waiting for players") }), this.list]);
        this.render();
    }

    /** A `lobby` frame came. @param {Msg} m */
    update(m) {
        this.tables = Array.isArray(m.tables) ? m.tables.filter((/** @type {any} */ t) =>
            t && typeof t.table === "string" && /^[A-Z0-9]{6}$/.test(t.table) && Array.isArray(t.seats)) : [];
        this.known = true;
        this.render();
    }

    render() {
        if (!this.tables.length) {
            fill(this.list, [h("li", { class: "lobby-empty",
                text: this.known ? _("No listed table waits for players right now.") : _("Connecting to the server…") })]);
            return;
        }
        fill(this.list, this.tables.map((t) => {
            const free = Number(t.free) || 0;
            return h("li", {}, [h("button", { type: "button", class: "lobby-table", "data-table": t.table,
                                               "aria-label": fmt(_("Join table %s"), t.table),
                                               onclick: () => this.onJoin(t.table) }, [
                h("span", { class: "lobby-head" }, [
                    h("b", { text: t.table }), " ",
                    h("span", { class: "lobby-free", text: fmt(ngettext("%d free seat of %d", "%d free seats of %d",
                                                                      free), free, Number(t.players) || 0) })]),
                h("span", { class: "lobby-seats", text: t.seats.map(seatWords).join(", ") }),
                h("span", { class: "lobby-settings", text: settingsWords(t) }),
            ])]);
        }));
    }
}

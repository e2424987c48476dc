// SPDX-License-Identifier: MIT
// lobby.js - the home page's lobby (docs/protocol.md, lobby): a tap joins.

import { h, fill } from "./dom.js";
import { _, ngettext, fmt, levelName } from "./i18n.js";

/** The table a tap chose: table.js takes a seat there. */
export const LOBBY_JOIN_KEY = "figaro.lobby-join";

/** @param {any} s */
const seatWords = (s) => s.kind === "person" ? s.name : s.kind === "bot" ? fmt(_("bot: %s"), levelName(s.level))
    : s.kind === "engine" ? fmt(_("engine: %s"), s.engine) : _("open seat");

/** @param {any} o a table's options */
const settingsWords = (o) => [o.move_seconds ? fmt(_("%s s per move"), o.move_seconds) : _("no time limit"),
    o.open && _("open game"), o.hints && _("hints on"), fmt(_("away: %s"), levelName(o.fill))].filter((w) => w).join(" · ");

export class LobbyList {
    /** @param {(code: string) => void} onJoin */
    constructor(onJoin) {
        this.onJoin = onJoin;
        this.list = h("ul", { class: "lobby-list" });
        this.root = h("section", { class: "card-panel lobby", "aria-labelledby": "lobby-title" }, [
            h("h2", { id: "lobby-title", text: _("Waiting for players") }), this.list]);
        this.update(null);
    }

    /** A `lobby` frame, or null before the first. @param {any} m */
    update(m) {
        const tables = m && Array.isArray(m.tables) ? m.tables.filter((/** @type {any} */ t) =>
            /^[A-Z0-9]{6}$/.test(t.table) && Array.isArray(t.seats)) : [];
        fill(this.list, tables.length ? tables.map((/** @type {any} */ t) => h("li", {}, [
            h("button", { type: "button", class: "lobby-table", "data-table": t.table,
                          "aria-label": _("Join") + " " + t.table, onclick: () => this.onJoin(t.table) }, [
                h("b", { text: t.table }),
                h("span", { class: "lobby-free", text: fmt(ngettext("%d free seat of %d", "%d free seats of %d", t.free),
                                                           t.free, t.players) }),
                h("span", { class: "lobby-seats", text: t.seats.map(seatWords).join(", ") }),
                h("span", { class: "lobby-settings", text: settingsWords(t.options || {}) })])]))
            : [h("li", { class: "lobby-empty", text: m ? _("No table waits for players.") : "…" })]);
    }
}

// SPDX-License-Identifier: MIT
// people_page.js - the pages of people (docs/protocol.md, "People"):
//   #/me            your page (or, before you are anyone here, how to become
//                   someone: a name, or a code from another device)
//   #/people/ID     anyone's public page, by its id (yours has your tools)
//   #/people/ID/games/I  the replay of that person's game I, from the kept record
//   #/leaderboard   the server's leaderboard
//   #/device/CODE   the link of "use on another device": redeemed at once,
//                   and this browser is that person
// A person's page: the rating over the rated games (plot.js, with the
// numbers in a table), the figures, every game with its result, its replay
// and the review of one's own moves while its table exists; and for the
// person: rename, hide from the leaderboard, the data as JSON, another
// device (a code, its link and the link's QR code, qr.js), sign out, forget me.

import { _, fmt, ngettext, lang, levelName } from "./i18n.js";
import { h, fill } from "./dom.js";
import { Conn, cleanName, nameChars, NAME_CHARS, savedName, saveName, heldSeats } from "./net.js";
import * as proto from "./proto.js";
import { myPerson, ratingNumber, ratingText, betweenText, PERSON_EVENT } from "./person.js";
import { ratingPlot } from "./plot.js";
import { encode, svgPath } from "./qr.js";
import { replayAnswer } from "./replay.js";

/** @typedef {import("./net.js").Msg} Msg */
/** @typedef {{games: number, wins: number, mean_place: number}} Figures */
/** @typedef {{kind: string, name?: string, level?: string}} PlayedSeat */
/** @typedef {{table: string, game: number, ended: number|string, players: number, seat: number, place: number,
 *   rated: boolean, mu: number, sigma: number, seats: PlayedSeat[], record: string}} Played */
/** @typedef {{id: string, name: string, mu: number, sigma: number, shown: number, between: string[],
 *   rated: number, created: number|string, games: Played[],
 *   figures: Figures & {by_players: Object<string, Figures>, by_level: Object<string, Figures>}}} PublicPerson */


/** A person's public id: 10 characters of the code alphabet. */
export const PERSON_ID = /^[A-Z0-9]{10}$/;

/** @param {number|string} t seconds since 1970, or a date's text @returns {Date|null} */
function when(t) {
    const ms = typeof t === "number" ? (t < 1e12 ? t * 1000 : t) : Date.parse(String(t));
    return Number.isFinite(ms) ? new Date(ms) : null;
}

/** @param {number|string} t */
function dayText(t) {
    const d = when(t);
    return d ? d.toLocaleDateString(lang(), { year: "numeric", month: "short", day: "numeric" }) : "";
}

/** @param {number} x */
const place = (x) => Number.isFinite(x) ? x.toFixed(2) : "-";

/** The one connection of a people's page: the hello (with the key), and
 * what the server says of the person, to the page. */
class PersonConn {
    /** @param {(m: Msg) => void} onMessage */
    constructor(onMessage) {
        this.conn = new Conn(() => proto.hello(), onMessage, () => {});
    }

    /** @param {Msg} m */
    send(m) {
        return this.conn.send(m);
    }

    close() {
        this.conn.close();
    }
}

/** A person's page (#/people/ID, #/me). */
export class PersonView {
    /** @param {HTMLElement} root @param {string} id "" for #/me */
    constructor(root, id) {
        this.root = root;
        this.me = !id;
        this.id = id;
        /** @type {PublicPerson|null} */
        this.data = null;
        this.notice = h("p", { class: "notice", role: "alert" });
        /** The device code shown, with its link and QR code. @type {HTMLElement} */
        this.device = h("div", { class: "device-code", "aria-live": "polite" });
        this.confirming = false;
        /** Whether the page says there is nobody (the form to make a person, or "forgotten"). */
        this.nobodyShown = false;
        this.signingOut = false;
        this.conn = new PersonConn((m) => this.onMessage(m));
        this.changed = () => this.load();
        window.addEventListener(PERSON_EVENT, this.changed);
        this.load();
    }

    destroy() {
        window.removeEventListener(PERSON_EVENT, this.changed);
        this.conn.close();
    }

    /** Whether the page is of the person this browser is. */
    mine() {
        const p = myPerson();
        return !!p && (this.me || p.id === this.id);
    }

    /** @param {Msg} m */
    onMessage(m) {
        if (m.type === "device_code") this.showCode(String(m.code), Number(m.expires_s) || 600);
        else if (m.type === "signed_out" && this.signingOut) location.hash = "#/";   // another tab's: nobody, here
        else if (m.type === "forgotten") this.forgotten();
        else if (m.type === "error" && m.re !== "hello") this.notice.textContent = m.text || m.code;
    }

    load() {
        const p = myPerson();
        const id = this.me ? (p ? p.id : "") : this.id;
        if (!id) {
            // nobody still (another tab's word): the form being filled, or "forgotten", stays
            if (!this.nobodyShown) this.nobody();
            this.nobodyShown = true;
            return;
        }
        this.nobodyShown = false;
        if (this.data && this.data.id === id) {
            this.render();   // a rename or a new rating: the tools and the header follow
        }
        fetch("/api/people/" + id, { cache: "no-store" }).then(async (r) => {
            if (r.status === 404) throw new Error(_("No one here has this id."));
            if (!r.ok) throw new Error((await r.text()).trim() || String(r.status));
            return r.json();
        }).then((d) => {
            this.data = d;
            this.render();
        }).catch((/** @type {Error} */ e) => {
            fill(this.root, [h("div", { class: "people-page" }, [
                h("h1", { text: _("A person") }), h("p", { class: "notice", role: "alert", text: e.message })])]);
        });
    }

    /** #/me before this browser is anyone: a name makes a person; a code from another device makes it that one. */
    nobody() {
        this.notice = h("p", { class: "notice", role: "alert" });
        const name = h("input", { type: "text", id: "person-new-name", maxlength: String(4 * NAME_CHARS),
                                  autocomplete: "nickname", value: savedName(), required: true });
        const make = h("form", { class: "card-panel", "aria-labelledby": "new-title", onsubmit: (/** @type {Event} */ e) => {
            e.preventDefault();
            const n = cleanName(name.value);
            if (!n || nameChars(n) > NAME_CHARS) {
                this.notice.textContent = fmt(_("A name has 1 to %s characters."), String(NAME_CHARS));
                name.focus();
                return;
            }
            saveName(n);
            if (!this.conn.send(proto.personNew(n))) this.notice.textContent = _("Connecting to the server…");
        } }, [
            h("h2", { id: "new-title", text: _("Keep your games and a rating") }),
            h("p", { text: _("No password, no email: this browser keeps a secret key. Your seats, your games and your rating follow it.") }),
            h("div", { class: "field" }, [h("label", { for: "person-new-name", text: _("Your name") }), name]),
            h("button", { type: "submit", class: "primary", text: _("Keep my games") })]);
        fill(this.root, [h("div", { class: "people-page" }, [
            h("h1", { text: _("You") }), this.notice, make, redeemForm((c) => { location.hash = "#/device/" + c; }),
            h("p", {}, [h("a", { href: "#/leaderboard", text: _("Leaderboard") })])])]);
    }

    render() {
        const d = /** @type {PublicPerson} */ (this.data);
        const mine = this.mine();
        const p = myPerson();
        const name = mine && p ? p.name : d.name;
        const rated = d.games.filter((g) => g.rated);
        /** @type {HTMLElement[]} */
        const kids = [
            h("h1", { text: name }),
            h("p", { class: "person-rating" }, [
                d.rated ? h("strong", { text: ratingNumber(d.shown) }) : null, " ",
                d.rated ? betweenText(d.between) : _("no rated game yet")]),
            h("p", { class: "hint", text: fmt(ngettext("%d rated game", "%d rated games", d.rated), d.rated) +
                " · " + fmt(_("here since %s"), dayText(d.created)) }),
            this.notice,
        ];
        // the list of games last: it grows with every game
        if (rated.length) kids.push(this.plot(rated, name));
        kids.push(this.figures(d));
        if (mine) kids.push(this.tools(name));
        kids.push(this.games(d, mine));
        kids.push(h("p", {}, [h("a", { href: "#/leaderboard", text: _("Leaderboard") })]));
        fill(this.root, [h("div", { class: "people-page" }, kids)]);
    }

    /** The rating over the rated games: the plot, and its numbers in a table.
     * @param {Played[]} rated @param {string} name */
    plot(rated, name) {
        const pts = rated.map((g) => ({ shown: g.mu - 3 * g.sigma, mu: g.mu }));
        const first = pts[0].shown, last = pts[pts.length - 1].shown;
        const hi = Math.max(...pts.map((x) => x.shown)), lo = Math.min(...pts.map((x) => x.shown));
        const svg = ratingPlot(pts, {
            id: "rating-plot",
            title: fmt(ngettext("%s's rating over %d rated game", "%s's rating over %d rated games", pts.length), name, pts.length),
            desc: fmt(_("From %s after the first game to %s after the last; highest %s, lowest %s."),
                      ratingNumber(first), ratingNumber(last), ratingNumber(hi), ratingNumber(lo)),
            first: dayText(rated[0].ended), last: dayText(rated[rated.length - 1].ended),
        });
        const table = h("table", { class: "numbers" }, [
            h("caption", { class: "sr-only", text: _("Rating after each rated game") }),
            h("thead", {}, [h("tr", {}, [_("Game"), _("Date"), _("Rating"), "μ", "σ"].map((t) => h("th", { scope: "col", text: t })))]),
            h("tbody", {}, rated.map((g, i) => h("tr", {}, [
                h("td", { text: String(i + 1) }), h("td", { text: dayText(g.ended) }),
                h("td", { text: ratingNumber(g.mu - 3 * g.sigma) }), h("td", { text: g.mu.toFixed(2) }),
                h("td", { text: g.sigma.toFixed(2) })])))]);
        return h("section", { class: "card-panel plot-panel", "aria-labelledby": "plot-title" }, [
            h("h2", { id: "plot-title", text: _("Rating over time") }),
            svg,
            h("p", { class: "plot-key hint" }, [
                h("span", { class: "key-shown", "aria-hidden": "true" }), " " + _("rating (μ − 3σ)") + " ",
                h("span", { class: "key-mu", "aria-hidden": "true" }), " " + _("μ, the estimate")]),
            h("details", { class: "plot-numbers" }, [h("summary", { text: _("The numbers") }), table])]);
    }

    /** Games, wins, mean place: in all, by number of players, by the bots' levels faced.
     * @param {PublicPerson} d */
    figures(d) {
        const f = d.figures;
        const row = (/** @type {string} */ what, /** @type {Figures} */ x) => h("tr", {}, [
            h("th", { scope: "row", text: what }), h("td", { text: String(x.games) }), h("td", { text: String(x.wins) }),
            h("td", { text: place(x.mean_place) })]);
        const head = () => h("thead", {}, [h("tr", {}, [h("td"),
            ...[_("Games"), _("Wins"), _("Mean place")].map((t) => h("th", { scope: "col", text: t }))])]);
        const players = Object.keys(f.by_players || {}).sort((a, b) => Number(a) - Number(b));
        const levels = Object.keys(f.by_level || {});
        return h("section", { class: "card-panel figures", "aria-labelledby": "figures-title" }, [
            h("h2", { id: "figures-title", text: _("Figures") }),
            h("table", { class: "numbers" }, [head(), h("tbody", {}, [row(_("All games"), f)]),
                players.length ? h("tbody", {}, players.map((k) => row(fmt(_("%s players"), k), f.by_players[k]))) : null,
                levels.length ? h("tbody", {}, levels.map((k) => row(fmt(_("against %s"), levelName(k)), f.by_level[k]))) : null]),
        ]);
    }

    /** Every game, newest first: when, the result, who else sat, the replay and the review.
     * @param {PublicPerson} d @param {boolean} mine */
    games(d, mine) {
        const p = myPerson();
        const live = new Set(mine && p ? p.seats.map((s) => s.table) : []);
        const items = d.games.map((g, i) => {
            const others = g.seats.filter((s) => s.kind !== "me").map((s) =>
                s.kind === "bot" ? fmt(_("bot: %s"), levelName(s.level || "")) :
                s.kind === "anonymous" ? _("someone") : s.name || "");
            /** @type {HTMLElement[]} */
            const links = [h("a", { href: "#/people/" + d.id + "/games/" + i, text: _("Replay") })];
            if (mine) {
                if (live.has(g.table) || heldSeats()[g.table])
                    links.push(h("a", { href: "#/r/" + g.table + "/" + g.game + "/review", text: _("Review my moves") }));
                else links.push(h("span", { class: "hint", text: _("no review: its table is gone") }));
            }
            links.push(h("a", { href: g.record, download: "figaro-" + g.table + "-" + g.game + ".fgn", text: _("Record") }));
            return h("li", { class: "played" + (g.place === 1 ? " won" : "") }, [
                h("p", { class: "played-head" }, [
                    h("strong", { text: fmt(_("Place %d of %d"), g.place, g.players) }), " · ",
                    dayText(g.ended), g.rated ? " · " + fmt(_("rated: %s"), ratingNumber(g.mu - 3 * g.sigma)) : ""]),
                h("p", { class: "played-with", text: fmt(_("with %s"), others.join(", ")) }),
                h("p", { class: "played-links" }, links.flatMap((a, j) => j ? [" · ", a] : [a]))]);
        }).reverse();
        return h("section", { class: "card-panel games-list", "aria-labelledby": "games-title" }, [
            h("h2", { id: "games-title", text: _("Games") }),
            items.length ? h("ol", { class: "played-list", reversed: true }, items)
                         : h("p", { text: _("No game finished yet.") })]);
    }

    /** The person's own tools. @param {string} name */
    tools(name) {
        const p = /** @type {import("./person.js").Person} */ (myPerson());
        const input = h("input", { type: "text", id: "person-name", maxlength: String(4 * NAME_CHARS), value: name,
                                   autocomplete: "nickname" });
        const rename = h("form", { class: "rename", onsubmit: (/** @type {Event} */ e) => {
            e.preventDefault();
            const n = cleanName(input.value);
            if (!n || nameChars(n) > NAME_CHARS) {
                this.notice.textContent = fmt(_("A name has 1 to %s characters."), String(NAME_CHARS));
                return;
            }
            saveName(n);
            this.conn.send(proto.personSet({ name: n }));
        } }, [h("label", { for: "person-name", text: _("Your name") }),
              h("div", { class: "inline" }, [input, h("button", { type: "submit", text: _("Rename") })])]);
        const hidden = h("input", { type: "checkbox", id: "person-hidden", checked: !!p.hidden });
        hidden.addEventListener("change", () => this.conn.send(proto.personSet({ hidden: hidden.checked })));
        const forget = this.confirming
            ? h("div", { class: "forget-confirm", role: "alertdialog", "aria-labelledby": "forget-q" }, [
                h("p", { id: "forget-q", text: _("Forget you? Your name, games, rating and keys are deleted from this server; your seats in finished games become “Anonymous”. This cannot be undone.") }),
                h("div", { class: "buttons" }, [
                    h("button", { type: "button", class: "primary", "data-focus": "forget-yes", text: _("Forget me for good"),
                                  onclick: () => this.conn.send(proto.forgetMe()) }),
                    h("button", { type: "button", "data-focus": "forget-no", text: _("Cancel"),
                                  onclick: () => { this.confirming = false; this.render(); } })])])
            : h("button", { type: "button", class: "quiet danger", "data-focus": "forget", text: _("Forget me"),
                            onclick: () => {
                                this.confirming = true;
                                this.render();
                                const yes = this.root.querySelector("[data-focus=forget-yes]");
                                if (yes instanceof HTMLElement) yes.focus();
                            } });
        return h("section", { class: "card-panel person-tools", "aria-labelledby": "tools-title" }, [
            h("h2", { id: "tools-title", text: _("You, on this server") }),
            h("p", { class: "hint", text: fmt(_("You: %s"), p.name) + " · " + ratingText(p) }),
            rename,
            h("div", { class: "field check" }, [hidden, h("label", { for: "person-hidden", text: _("Hide me from the leaderboard") })]),
            h("h3", { text: _("Use on another device") }),
            h("p", { class: "hint", text: _("A code for another phone or computer: open the link there, or scan the QR code. It works once, for 10 minutes.") }),
            h("button", { type: "button", "data-focus": "device", text: _("Show a code"),
                          onclick: () => this.conn.send(proto.deviceCode()) }),
            this.device,
            h("p", { class: "buttons" }, [
                h("a", { class: "button", href: "/api/people/" + p.id + "?download=1", download: "figaro-" + p.id + ".json",
                         text: _("Download my data (JSON)") }),
                h("button", { type: "button", "data-focus": "sign-out", text: _("Sign out on this device"),
                              onclick: () => { this.signingOut = this.conn.send(proto.signOut()); } })]),
            forget,
        ]);
    }

    /** The device code, its link, and the link's QR code. @param {string} code @param {number} secs */
    showCode(code, secs) {
        const url = location.origin + location.pathname + "#/device/" + code;
        const qr = encode(url);
        const side = qr.size + 8;
        const ns = "http://www.w3.org/2000/svg";
        const svg = document.createElementNS(ns, "svg");
        svg.setAttribute("viewBox", "0 0 " + side + " " + side);
        svg.setAttribute("class", "qr");
        svg.setAttribute("role", "img");
        svg.setAttribute("aria-label", fmt(_("QR code of the link %s"), url));
        svg.setAttribute("shape-rendering", "crispEdges");
        const bg = document.createElementNS(ns, "rect");
        bg.setAttribute("width", String(side));
        bg.setAttribute("height", String(side));
        bg.setAttribute("fill", "#fff");
        const path = document.createElementNS(ns, "path");
        path.setAttribute("d", svgPath(qr));
        path.setAttribute("fill", "#000");
        svg.append(bg, path);
        const link = h("input", { type: "text", readonly: true, id: "device-link", value: url });
        fill(this.device, [
            h("p", {}, [_("Code:") + " ", h("strong", { class: "code device-code-text", text: code })]),
            h("label", { for: "device-link", text: _("Link:") }), link,
            svg,
            h("p", { class: "hint", text: fmt(ngettext("Valid for %d minute, once.", "Valid for %d minutes, once.",
                                                       Math.round(secs / 60)), Math.round(secs / 60)) })]);
    }

    forgotten() {
        this.nobodyShown = true;
        fill(this.root, [h("div", { class: "people-page" }, [
            h("h1", { text: _("Forgotten") }),
            h("p", { role: "status", text: _("Everything this server knew about you is deleted.") }),
            h("p", {}, [h("a", { href: "#/", text: _("Home") })])])]);
    }
}

/** A form to type a code from another device. @param {(code: string) => void} go */
function redeemForm(go) {
    const input = h("input", { type: "text", id: "device-code-in", maxlength: "16", autocomplete: "off",
                               autocapitalize: "characters", spellcheck: "false" });
    return h("form", { class: "card-panel", "aria-labelledby": "redeem-title", onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const c = input.value.replace(/\s+/g, "").toUpperCase();
        if (/^[A-Z0-9]{8}$/.test(c)) go(c);
        else input.focus();
    } }, [
        h("h2", { id: "redeem-title", text: _("Already someone on another device?") }),
        h("div", { class: "field" }, [h("label", { for: "device-code-in", text: _("The code it shows (8 letters and digits)") }), input]),
        h("button", { type: "submit", text: _("Use the code") })]);
}

/** #/device/CODE: the code redeemed, and this browser is that person. */
export class DeviceView {
    /** @param {HTMLElement} root @param {string} code */
    constructor(root, code) {
        this.root = root;
        this.code = code;
        this.done = false;
        this.status = h("p", { role: "status", text: _("Using the code…") });
        fill(root, [h("div", { class: "people-page" }, [h("h1", { text: _("Use on this device") }), this.status])]);
        this.conn = new Conn(() => proto.hello(), (m) => this.onMessage(m), () => {});
    }

    /** @param {Msg} m */
    onMessage(m) {
        if (this.done) return;
        if (m.type === "welcome") this.conn.send(proto.redeem(this.code));
        else if (m.type === "person" && typeof m.key === "string") {   // the redeem's answer: a key of our own
            this.done = true;
            if (typeof m.name === "string") saveName(m.name);
            location.hash = "#/me";
        } else if (m.type === "error" && m.re === "redeem") {
            this.done = true;
            fill(this.status, [m.code === "bad_code" ? _("This code is unknown, used or expired. Ask the other device for a new one.")
                                                     : String(m.text || m.code)]);
            this.status.after(redeemForm((c) => { location.hash = "#/device/" + c; }));
        }
    }

    destroy() {
        this.conn.close();
    }
}

/** #/leaderboard. */
export class LeaderboardView {
    /** @param {HTMLElement} root */
    constructor(root) {
        this.root = root;
        fill(root, [h("div", { class: "people-page" }, [h("h1", { text: _("Leaderboard") }), h("p", { text: _("Loading...") })])]);
        fetch("/api/leaderboard", { cache: "no-store" }).then((r) => {
            if (!r.ok) throw new Error(String(r.status));
            return r.json();
        }).then((d) => this.render(Array.isArray(d.people) ? d.people : []))
            .catch((/** @type {Error} */ e) => fill(root, [h("div", { class: "people-page" }, [h("h1", { text: _("Leaderboard") }),
                h("p", { class: "notice", role: "alert", text: fmt(_("The leaderboard could not be loaded: %s"), e.message) })])]));
    }

    /** @param {any[]} people */
    render(people) {
        const me = myPerson();
        const rows = people.map((p, i) => h("tr", { class: me && me.id === p.id ? "me" : "" }, [
            h("td", { text: String(i + 1) }),
            h("th", { scope: "row" }, [h("a", { href: "#/people/" + p.id, text: String(p.name) })]),
            h("td", { text: ratingNumber(Number(p.shown)) }),
            h("td", { class: "between", text: betweenText(p.between) }),
            h("td", { text: String(p.rated) })]));
        fill(this.root, [h("div", { class: "people-page" }, [
            h("h1", { text: _("Leaderboard") }),
            h("p", { class: "hint", text: _("Rated games against people and bots, on one scale with the bots' levels; the rating shown is μ − 3σ.") }),
            people.length ? h("table", { class: "numbers leaderboard" }, [
                h("thead", {}, [h("tr", {}, ["#", _("Name"), _("Rating"), _("Level"), _("Games")].map((t, i) => h("th", { scope: "col", class: i === 3 ? "between" : null, text: t })))]),
                h("tbody", {}, rows)]) : h("p", { text: _("No one has played a rated game yet.") }),
            me ? h("p", {}, [h("a", { href: "#/me", text: _("Your page") })]) : null])]);
    }

    destroy() {}
}

/** #/people/ID/games/I: the replay of the kept record, the server's in one
 * request (not POST /replay's: that one is for files a person chooses, with
 * an allowance per address of its own). @param {string} id @param {string} i */
export function personGameReplay(id, i) {
    return fetch("/api/people/" + id + "/games/" + i + ".json?lang=" + lang(), { cache: "no-store" }).then((r) => {
        if (r.status === 404) throw new Error(_("no such game"));
        return replayAnswer(r);
    });
}

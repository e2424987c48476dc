// SPDX-License-Identifier: MIT
// app.js - the browser client of `figaro serve`: the header (language menu)
// and the pages, chosen by the address's fragment:
//   #/            home: a new table, join one, your tables, replay a record
//   #/t/CODE      the table CODE, to play (back in your seat with its token)
//   #/w/CODE      the table CODE, watched (the public view only)
//   #/r/CODE/N    the replay of game N of table CODE; #/r/file a local record
//   #/r/CODE/N/review  the same with the review of my moves (the seat this browser holds)
//   #/rules       how to play (#/rules/aid the player aid, #/rules/R13 at a rule)
//   #/learn       learn by playing: the lessons (#/learn/ID one lesson)
//   #/me, #/people/ID, #/people/ID/games/I, #/leaderboard, #/device/CODE
//                 people and ratings (people_page.js)

import { _, languages, lang, startLang, setLang, missing, addCatalog } from "./i18n.js";
import { h, fill, addStyle } from "./dom.js";
import { HomeView, FIRST_GAME_KEY } from "./home.js";
import { TableView } from "./table.js";
import { RulesView, loadRules, openRulesHere } from "./rules.js";
import { personBadge, PERSON_EVENT } from "./person.js";

/** @type {{destroy: () => void}|null} */
let page = null;
const main = /** @type {HTMLElement} */ (document.getElementById("main"));

// The menu holds the languages of the server's welcome (each named in
// itself), and the current one even before a welcome has said it.
function header() {
    const list = languages().slice();
    if (!list.some((l) => l.code === lang())) list.push({ code: lang(), name: lang() });
    const sel = h("select", { id: "lang" },
        list.map((l) => h("option", { value: l.code, lang: l.code, selected: l.code === lang(), text: l.name })));
    sel.addEventListener("change", async () => {
        await setLang(sel.value);
        header();
        route();
        loadRules().catch(() => {});
        keepLessons();
    });
    fill(/** @type {HTMLElement} */ (document.getElementById("top")), /** @type {HTMLElement[]} */ ([
        h("a", { href: "#/", class: "brand", text: "Figaro" }),
        personBadge(),
        // How to play, one tap away on every page: a sheet over it (rules.js)
        h("button", { type: "button", class: "rules-btn", "data-focus": "open-rules", "aria-label": _("How to play"),
                      title: _("How to play"), text: "?", onclick: openRulesHere }),
        h("label", { for: "lang", class: "lang-label", text: _("Language") }), sel,
    ].filter((x) => x)));
    document.title = "Figaro";
}

/** How many times the page was routed: a page loaded late checks it is still wanted. */
let routed = 0;

/** The lessons in the page's language, and the words of the pages loaded
 * later (the lessons' among them), kept by the service worker (it fetches them
 * itself: the page's load does not carry them), so that they work offline. */
function keepLessons() {
    if (!("serviceWorker" in navigator)) return;
    const paths = ["lessons/" + lang() + ".json"];
    if (lang() !== "en") paths.push("i18n/later-" + lang() + ".json");   // English needs no catalogue
    navigator.serviceWorker.ready
        .then((r) => { for (const path of paths) if (r.active) r.active.postMessage({ type: "keep", path }); })
        .catch(() => {});
}

/** A page whose module is loaded when asked for (the lessons, the replays,
 * the people's pages): a table's page does not carry them, and the page's
 * first load stays light. @template T @param {() => Promise<T>} load
 * @param {(mod: T) => {destroy: () => void}} make @param {string} failed said if it cannot load */
function later(load, make, failed) {
    const mine = routed;
    fill(main, [h("p", { text: _("Loading...") })]);
    load().then((mod) => {
        if (mine === routed) page = make(mod);   // unless the page moved on meanwhile
    }).catch(() => fill(main, [h("p", { class: "notice", text: failed })]));
}

// Each brings its style sheet and the words of the pages loaded later (web/i18n/later-LANG.json).
const replays = () => Promise.all([import("./replay.js"), addStyle("replay.css"), addCatalog("later")]).then(([rp]) => rp);
const people = () => Promise.all([import("./people_page.js"), import("./replay.js"), addCatalog("later"),
                                  addStyle("people.css"), addStyle("replay.css")]);
const lessons = () => Promise.all([import("./learn.js"), addStyle("learn.css"), addCatalog("later")]).then(([ln]) => ln);

function route() {
    routed++;
    if (page) page.destroy();
    page = null;
    const parts = location.hash.replace(/^#\/?/, "").split("/");
    const code = (parts[1] || "").toUpperCase();
    if ((parts[0] === "t" || parts[0] === "w") && /^[A-Z0-9]{6}$/.test(code)) {
        page = new TableView(main, code, parts[0] === "w");
        document.title = "Figaro · " + code;
    } else if (parts[0] === "learn") {
        later(lessons, ({ LearnView }) => new LearnView(main, parts[1] || "", (game) => {
            sessionStorage.setItem(FIRST_GAME_KEY, JSON.stringify(game));
            location.hash = "#/";
        }), _("The lessons could not be loaded."));
    } else if (["me", "people", "leaderboard", "device"].includes(parts[0])) {
        later(people, ([pp, rp]) => {
            if (parts[0] === "me") return new pp.PersonView(main, "");
            if (parts[0] === "leaderboard") return new pp.LeaderboardView(main);
            if (parts[0] === "device" && /^[A-Z0-9]{8}$/.test(code)) return new pp.DeviceView(main, code);
            if (parts[0] === "people" && pp.PERSON_ID.test(code) && parts[2] === "games" && /^\d+$/.test(parts[3] || ""))
                return new rp.ReplayView(main, code + " · " + (Number(parts[3]) + 1), pp.personGameReplay(code, parts[3]));
            if (parts[0] === "people" && pp.PERSON_ID.test(code)) return new pp.PersonView(main, code);
            return new HomeView(main);
        }, _("This page could not be loaded."));
    } else if (parts[0] === "rules") {
        page = new RulesView(main, parts[1] || "");
    } else if (parts[0] === "r" && parts[1] === "file") {
        const text = sessionStorage.getItem("figaro.replay");
        later(replays, (rp) => new rp.ReplayView(main, sessionStorage.getItem("figaro.replay-name") || "",
            text ? rp.replayOfText(text) : Promise.reject(new Error(_("no record")))), _("This page could not be loaded."));
    } else if (parts[0] === "r" && /^[A-Z0-9]{6}$/.test(code) && /^\d+$/.test(parts[2] || "")) {
        later(replays, (rp) => new rp.ReplayView(main, code + " · " + parts[2], rp.replayOfGame(code, parts[2]),
            parts[3] === "review" ? { code, game: Number(parts[2]) } : null), _("This page could not be loaded."));
    } else {
        page = new HomeView(main);
    }
    main.focus({ preventScroll: true });
}

/** For the tests: the messages the current language lacks. */
/** @type {any} */ (window).figaroMissing = () => [...missing];

// The page's files kept by a service worker (sw.js): never the protocol.
if ("serviceWorker" in navigator) navigator.serviceWorker.register("sw.js").catch(() => {});

window.addEventListener("hashchange", route);
window.addEventListener("figaro:languages", header);
window.addEventListener(PERSON_EVENT, header);   // who you are, in the header
startLang().finally(() => {
    header();
    route();
    // The rules in the page's language, fetched once so that the service
    // worker keeps them: "How to play" reads offline, and so do the lessons.
    loadRules().catch(() => {});
    keepLessons();
});

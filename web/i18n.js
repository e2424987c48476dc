// SPDX-License-Identifier: MIT
// i18n.js - the client's words in English, French, Dutch or Italian.
//
// The messages are English msgids marked _("...") and ngettext("...", "...", n)
// so that `make pot` (xgettext --language=JavaScript) puts them in po/figaro.pot
// beside the terminal game's; `make` turns each po/LANG.po into i18n/LANG.json
// (scripts/po2json.py), holding only the messages of web/*.js. Formats are the
// C ones the catalogues already use: %s, %d, %u and positional %1$s.
// A message with no translation falls back to English and is remembered in
// `missing` (the browser tests check that no language misses one).
//
// Which languages there are is the server's fact (src/host/lang.c): its
// `welcome` lists them, with each one's name in itself, and the page keeps
// the last list (so a page that opens no connection, a replay, offers them
// too). Before any welcome, the browser's languages are tried in turn: the
// server has a catalogue i18n/LANG.json for each of its own.

/** @typedef {{lang: string, plural: string, messages: Object<string, string|string[]>}} Catalog */

/** @typedef {{code: string, name: string}} Language */
const LANGUAGES_KEY = "figaro.languages";
/** @type {Language[]} */
const ENGLISH = [{ code: "en", name: "English" }];

/** The languages of the server's last welcome (English alone before any).
 * @returns {Language[]} */
export function languages() {
    try {
        const v = JSON.parse(localStorage.getItem(LANGUAGES_KEY) || "null");
        if (Array.isArray(v) && v.length && v.every((l) => l && typeof l.code === "string" && typeof l.name === "string"))
            return v;
    } catch {
        // a list this page did not write: none
    }
    return ENGLISH;
}

/** Whether the last welcome listed languages (else any code may be tried). */
function listed() {
    return localStorage.getItem(LANGUAGES_KEY) !== null && languages() !== ENGLISH;
}

/** Takes a welcome's `languages`; says "figaro:languages" on window when they changed.
 * @param {any} list */
export function setLanguages(list) {
    if (!Array.isArray(list)) return;
    const clean = list.filter((l) => l && typeof l.code === "string" && typeof l.name === "string")
        .map((l) => ({ code: l.code, name: l.name }));
    if (!clean.length) return;
    const text = JSON.stringify(clean);
    if (text === localStorage.getItem(LANGUAGES_KEY)) return;
    localStorage.setItem(LANGUAGES_KEY, text);
    window.dispatchEvent(new Event("figaro:languages"));
}

/** @param {string} l */
function known(l) {
    if (!/^[a-z]{2,3}(_[A-Z]{2})?$/.test(l)) return false;
    return !listed() || languages().some((x) => x.code === l);
}
/** @type {Catalog|null} */
let catalog = null;
let current = "en";
/** Messages looked up without a translation in the current language. */
export const missing = new Set();

/** @param {string} msgid @returns {string} */
export function _(msgid) {
    if (!catalog) return msgid;
    const t = catalog.messages[msgid];
    if (typeof t === "string") return t;
    missing.add(msgid);
    return msgid;
}

/** @param {string} one @param {string} many @param {number} n @returns {string} */
export function ngettext(one, many, n) {
    const english = n === 1 ? one : many;
    if (!catalog) return english;
    const t = catalog.messages[one];
    if (!Array.isArray(t)) {
        missing.add(one);
        return english;
    }
    const i = catalog.plural === "n>1" ? (n > 1 ? 1 : 0) : (n !== 1 ? 1 : 0);
    return t[Math.min(i, t.length - 1)];
}

/** printf's %s %d %u and %N$s, on strings and numbers.
 * @param {string} f @param {...(string|number)} args @returns {string} */
export function fmt(f, ...args) {
    return fmtNodes(f, ...args).join("");
}

/** fmt into nodes, for a sentence with an element in it (a name that may be
 * shortened): a Node argument goes in as it is, the rest as text.
 * @param {string} f @param {...(string|number|Node)} args @returns {(string|Node)[]} */
export function fmtNodes(f, ...args) {
    /** @type {(string|Node)[]} */
    const out = [];
    const re = /%(?:(\d+)\$)?([sdu%])/g;
    let next = 0;
    let last = 0;
    for (let m = re.exec(f); m; m = re.exec(f)) {
        out.push(f.slice(last, m.index));
        last = re.lastIndex;
        const v = m[2] === "%" ? "%" : m[1] ? args[Number(m[1]) - 1] : args[next++];
        out.push(v === undefined ? m[0] : typeof v === "object" ? v : String(v));
    }
    out.push(f.slice(last));
    return out.filter((x) => x !== "");
}

/** The languages to try starting in, best first: the one chosen before,
 * else the browser's, then English. @returns {string[]} */
export function preferredLangs() {
    const out = [];
    const saved = localStorage.getItem("figaro.lang");
    if (saved && known(saved)) out.push(saved);
    for (const l of navigator.languages || [navigator.language || "en"]) {
        const short = l.slice(0, 2).toLowerCase();
        if (known(short) && !out.includes(short)) out.push(short);
    }
    if (!out.includes("en")) out.push("en");
    return out;
}

/** Starts in the first of preferredLangs() whose catalogue loads. */
export async function startLang() {
    for (const l of preferredLangs()) {
        try {
            await setLang(l);
            return;
        } catch {
            // no catalogue for it here: the next one
        }
    }
}

export function lang() {
    return current;
}

/** The catalogues of pages loaded when asked for (the lessons, the replays,
 * the people's pages: i18n/NAME-LANG.json, the Makefile's WEB_LATER_JS), whose
 * words join the language's once such a page is opened, and again in a
 * language chosen after. */
const parts = new Set();

/** @param {Catalog} into @param {string} name @param {string} l */
async function loadPart(into, name, l) {
    const r = await fetch("i18n/" + name + "-" + l + ".json");
    if (!r.ok) throw new Error("i18n/" + name + "-" + l + ".json: " + r.status);
    Object.assign(into.messages, /** @type {Catalog} */ (await r.json()).messages);
}

/** Adds a page's catalogue to the language's (and to any chosen later).
 * @param {string} name @returns {Promise<void>} */
export async function addCatalog(name) {
    parts.add(name);
    if (catalog) await loadPart(catalog, name, current);
}

/** Loads a language's catalogue (English needs none), with the pages' ones added so far.
 * @param {string} l @returns {Promise<void>} */
export async function setLang(l) {
    if (!known(l)) l = "en";
    missing.clear();
    if (l === "en") {
        catalog = null;
    } else {
        const r = await fetch("i18n/" + l + ".json");
        if (!r.ok) throw new Error("i18n/" + l + ".json: " + r.status);
        const c = /** @type {Catalog} */ (await r.json());
        // a page's words missing in this language fall back to English (and are told in `missing`)
        for (const name of parts) await loadPart(c, name, l).catch(() => {});
        catalog = c;
    }
    current = l;
    document.documentElement.lang = l;
    localStorage.setItem("figaro.lang", l);
}

/** A loader of a text the build writes once per language as DIR/LANG.json
 * (the rules, the lessons): the page's language, English when the build
 * wrote none for it; one fetch a language, tried again after a failure.
 * @template T @param {string} dir @returns {() => Promise<T>} */
export function perLanguage(dir) {
    /** @type {Map<string, Promise<T>>} */
    const loaded = new Map();
    const get = (/** @type {string} */ code) => fetch(dir + "/" + code + ".json").then((r) => {
        if (!r.ok) throw new Error(dir + "/" + code + ".json: " + r.status);
        return /** @type {Promise<T>} */ (r.json());
    });
    return () => {
        const l = current;
        let p = loaded.get(l);
        if (!p) {
            p = get(l).catch((e) => (l === "en" ? Promise.reject(e) : get("en")));
            p.catch(() => loaded.delete(l));   // tried again next time
            loaded.set(l, p);
        }
        return p;
    };
}

/** A bot level's name in the reader's language. The levels come from the
 * server (welcome); their msgids are marked N_LEVEL in src/ai/bot.c and
 * src/net/proto/proto.c, which the Makefile adds to the page's catalogue.
 * @param {string} level */
export function levelName(level) {
    return _(level);
}


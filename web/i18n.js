// i18n.js - the client's words in English, French, Dutch or Italian.
//
// The messages are English msgids marked _("...") and ngettext("...", "...", n)
// so that `make pot` (xgettext --language=JavaScript) puts them in po/figaro.pot
// beside the terminal game's; `make` turns each po/LANG.po into i18n/LANG.json
// (scripts/po2json.py), holding only the messages of web/*.js. Formats are the
// C ones the catalogues already use: %s, %d, %u and positional %1$s.
// A message with no translation falls back to English and is remembered in
// `missing` (the browser tests check that no language misses one).

/** @typedef {{lang: string, plural: string, messages: Object<string, string|string[]>}} Catalog */

export const LANGS = ["en", "fr", "nl", "it"];
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
    let next = 0;
    return f.replace(/%(?:(\d+)\$)?([sdu%])/g, (m, pos, conv) => {
        if (conv === "%") return "%";
        const v = pos ? args[Number(pos) - 1] : args[next++];
        return v === undefined ? m : String(v);
    });
}

/** The language to start in: the one chosen before, else the browser's. */
export function preferredLang() {
    const saved = localStorage.getItem("figaro.lang");
    if (saved && LANGS.includes(saved)) return saved;
    for (const l of navigator.languages || [navigator.language || "en"]) {
        const short = l.slice(0, 2).toLowerCase();
        if (LANGS.includes(short)) return short;
    }
    return "en";
}

export function lang() {
    return current;
}

/** Loads a language's catalogue (English needs none).
 * @param {string} l @returns {Promise<void>} */
export async function setLang(l) {
    if (!LANGS.includes(l)) l = "en";
    missing.clear();
    if (l === "en") {
        catalog = null;
    } else {
        const r = await fetch("i18n/" + l + ".json");
        if (!r.ok) throw new Error("i18n/" + l + ".json: " + r.status);
        catalog = /** @type {Catalog} */ (await r.json());
    }
    current = l;
    document.documentElement.lang = l;
    localStorage.setItem("figaro.lang", l);
}

/** The languages' own names, for the menu (not translated: each in itself). */
export const LANG_NAMES = { en: "English", fr: "Français", nl: "Nederlands", it: "Italiano" };

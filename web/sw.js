// SPDX-License-Identifier: MIT
// sw.js - the service worker: the page's own files in a cache, so that an
// installed figaro (manifest.webmanifest) opens without the network and a
// slow network does not hold the page up. Never the protocol: the WebSocket
// (/ws), the tables' records and replays (/tables/...), POST /replay, the
// people's pages and the leaderboard (/api/...), /metrics and /healthz
// always go to the server and are never stored.
//
// Network first: a file is fetched from the server whenever it answers (so a
// new version of the page is used at once) and the cache is the fallback.
// The files below are put in the cache when the worker is installed; any
// other file of the page is added when it is first fetched, and the lessons
// of the page's language when the page asks (below).

const CACHE = "figaro-page-v1";

/** The page's files (tests/web/install.spec.js checks that every file of web/ is here,
 * the translations aside: they are cached when the page first asks for them). */
const FILES = [
    "./", "index.html", "style.css", "favicon.svg", "icon-192.png", "icon-512.png",
    "manifest.webmanifest", "app.js", "board.js", "cards.js", "dom.js", "home.js", "i18n.js",
    "drawer.js", "learn.js", "net.js", "notify.js", "proto.js", "replay.js", "rules.js", "share.js", "table.js", "table_hand.js",
    "table_panels.js", "table_state.js", "lobby.js", "person.js", "people_page.js", "plot.js", "qr.js",
    "people.css", "learn.css", "replay.css",
    "favicon-turn.svg",
];

/** Whether a request is for one of the page's files (never the protocol).
 * @param {Request} req */
function isPageFile(req) {
    if (req.method !== "GET") return false;
    const url = new URL(req.url);
    if (url.origin !== self.location.origin) return false;
    return !/^\/(ws|tables|replay|api|metrics|healthz)(\/|$|\?)/.test(url.pathname);
}

const sw = /** @type {any} */ (self);

sw.addEventListener("install", (/** @type {any} */ e) => {
    e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => sw.skipWaiting()));
});

sw.addEventListener("activate", (/** @type {any} */ e) => {
    e.waitUntil(caches.keys()
        .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
        .then(() => sw.clients.claim()));
});

// The page asks for its language's lessons and the words of the pages loaded
// later to be kept (app.js): fetched here, once, so that they play offline
// without weighing on the page's load.
sw.addEventListener("message", (/** @type {any} */ e) => {
    const m = e.data;
    if (!m || m.type !== "keep" || typeof m.path !== "string" || !/^(lessons\/[a-z]{2,3}|i18n\/later-[a-z]{2,3})\.json$/.test(m.path)) return;
    e.waitUntil(caches.open(CACHE)
        .then((c) => c.match(m.path).then((hit) => (hit ? undefined : c.add(m.path))))
        .catch(() => {}));
});

sw.addEventListener("fetch", (/** @type {any} */ e) => {
    /** @type {Request} */
    const req = e.request;
    if (!isPageFile(req)) return;   // the browser fetches it itself, uncached
    e.respondWith(fetch(req).then((r) => {
        if (r.ok && r.type === "basic") {
            const copy = r.clone();
            caches.open(CACHE).then((c) => c.put(req, copy));
        }
        return r;
    }).catch(() => caches.match(req, { ignoreSearch: true }).then((r) => r || Response.error())));
});

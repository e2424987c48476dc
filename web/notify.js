// SPDX-License-Identifier: MIT
// notify.js - telling a person it is their turn, even from another tab: the
// tab's title and icon change, and, if they asked for them (remembered in
// this browser), a short chime (made here with WebAudio: no file, nothing
// from outside) and a vibration (phones: navigator.vibrate).

const SOUND_KEY = "figaro.sound";
const VIBRATE_KEY = "figaro.vibrate";

/** @type {AudioContext|null} */
let audio = null;

export function soundOn() {
    return localStorage.getItem(SOUND_KEY) === "1";
}

export function vibrateOn() {
    return localStorage.getItem(VIBRATE_KEY) === "1";
}

/** Whether this browser can vibrate at all (desktops usually cannot). */
export function canVibrate() {
    return typeof navigator.vibrate === "function";
}

/** @param {boolean} on */
export function setSound(on) {
    localStorage.setItem(SOUND_KEY, on ? "1" : "0");
    if (on) chime();   // a tap: the browser lets the audio start, and the person hears what it is
}

/** @param {boolean} on */
export function setVibrate(on) {
    localStorage.setItem(VIBRATE_KEY, on ? "1" : "0");
    if (on && canVibrate()) navigator.vibrate(120);
}

/** The audio context, started (a browser starts one only after a tap or a key:
 * the page calls this on the first of them, so that a later turn is heard). */
export function wakeAudio() {
    if (!soundOn()) return null;
    if (!audio) {
        const A = window.AudioContext;
        if (!A) return null;
        audio = new A();
    }
    if (audio.state === "suspended") audio.resume().catch(() => {});
    return audio;
}

/** Two short notes, rising. */
function chime() {
    const a = wakeAudio();
    if (!a) return;
    const t = a.currentTime;
    for (const [freq, at] of [[660, 0], [880, 0.15]]) {
        const o = a.createOscillator();
        const g = a.createGain();
        o.type = "sine";
        o.frequency.value = freq;
        g.gain.setValueAtTime(0.0001, t + at);
        g.gain.exponentialRampToValueAtTime(0.25, t + at + 0.02);
        g.gain.exponentialRampToValueAtTime(0.0001, t + at + 0.25);
        o.connect(g).connect(a.destination);
        o.start(t + at);
        o.stop(t + at + 0.3);
    }
}

/** The tab says whose turn it is: its title and its icon.
 * @param {boolean} mine @param {string} title */
export function showTurn(mine, title) {
    if (document.title !== title) document.title = title;
    const icon = document.querySelector("link[rel=icon]");
    const href = mine ? "favicon-turn.svg" : "favicon.svg";
    if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
}

/** A turn begins: the chime and the vibration, if the person wants them. */
export function alertTurn() {
    if (soundOn()) chime();
    if (vibrateOn() && canVibrate()) navigator.vibrate([150, 80, 150]);
}

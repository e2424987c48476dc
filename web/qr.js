// SPDX-License-Identifier: MIT
// qr.js - a QR code encoder (ISO/IEC 18004), for the link the person's page
// shows to "use on another device": the page draws the code itself, nothing
// is loaded from outside. Only what that link needs: byte mode (the text as
// UTF-8), error correction level M (15% of the symbol may be lost: a phone's
// camera at an angle), versions 1 to 10 (up to 213 bytes), and the mask the
// standard's penalty rules choose. No DOM here: tests/web/qr.spec.js runs it
// in Node, and the page turns the modules into an SVG path (svgPath).

/** @typedef {{version: number, size: number, mask: number, modules: boolean[][]}} QrCode */

// Per version 1-10, level M (the standard's table 9): the error correction
// codewords of each block, and the number of blocks.
const EC_PER_BLOCK = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26];
const BLOCKS = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5];
// The centres of the alignment patterns' rows and columns (annex E).
const ALIGN = [[], [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42],
               [6, 26, 46], [6, 28, 50]];
export const MAX_VERSION = 10;
// Level M's two bits in the format information (L 01, M 00, Q 11, H 10).
const LEVEL_M = 0;

/** The modules a version leaves for data and error correction, in bits:
 * the whole square less the function patterns. @param {number} v */
function rawModules(v) {
    const size = 17 + 4 * v;
    let n = size * size - 3 * 64 - 2 * (size - 16) - 31;   // finders and separators, timing, format, dark module
    const a = ALIGN[v].length;
    if (a) n -= 25 * (a * a - 3) - 5 * 2 * (a - 2);          // alignments, less the timing modules they cover
    if (v >= 7) n -= 36;                                       // the version information, twice
    return n;
}

/** The codewords a version holds, data and error correction. @param {number} v */
export function totalCodewords(v) {
    return Math.floor(rawModules(v) / 8);
}

/** The data codewords of a version at level M. @param {number} v */
export function dataCodewords(v) {
    return totalCodewords(v) - EC_PER_BLOCK[v] * BLOCKS[v];
}

/** The most bytes a version holds in byte mode at level M. @param {number} v */
export function byteCapacity(v) {
    const bits = dataCodewords(v) * 8 - 4 - (v <= 9 ? 8 : 16);
    return Math.floor(bits / 8);
}

// GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11d), by tables.
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
    let x = 1;
    for (let i = 0; i < 255; i++) {
        EXP[i] = x;
        LOG[x] = i;
        x <<= 1;
        if (x & 0x100) x ^= 0x11d;
    }
    for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
}

/** @param {number} a @param {number} b */
function mul(a, b) {
    return a && b ? EXP[LOG[a] + LOG[b]] : 0;
}

/** The Reed-Solomon generator of degree n: (x - a^0)(x - a^1)...(x - a^(n-1)),
 * its coefficients from the highest power down, the leading 1 left out.
 * @param {number} n */
function generator(n) {
    let g = [1];
    for (let i = 0; i < n; i++) {
        const next = new Array(g.length + 1).fill(0);
        for (let j = 0; j < g.length; j++) {
            next[j] ^= g[j];
            next[j + 1] ^= mul(g[j], EXP[i]);
        }
        g = next;
    }
    return g.slice(1);
}

/** The n error correction codewords of `data` (the remainder of data * x^n
 * divided by the generator). @param {number[]} data @param {number} n @returns {number[]} */
export function reedSolomon(data, n) {
    const g = generator(n);
    const rem = new Array(n).fill(0);
    for (const b of data) {
        const f = b ^ rem[0];
        rem.shift();
        rem.push(0);
        for (let i = 0; i < n; i++) rem[i] ^= mul(g[i], f);
    }
    return rem;
}

/** The remainder of a BCH code: `data` shifted by the generator's degree,
 * divided by it. @param {number} data @param {number} gen @param {number} deg */
function bch(data, gen, deg) {
    let r = data << deg;
    for (let i = 31; i >= deg; i--) if ((r >>> i) & 1) r ^= gen << (i - deg);
    return (data << deg) | r;
}

/** The 15 bits of format information for level M and a mask (annex C). @param {number} mask */
export function formatBits(mask) {
    return bch((LEVEL_M << 3) | mask, 0x537, 10) ^ 0x5412;
}

/** The 18 bits of version information, versions 7 and up (annex D). @param {number} v */
export function versionBits(v) {
    return bch(v, 0x1f25, 12);
}

/** The smallest version at level M whose byte mode holds n bytes, 0 if none up to 10.
 * @param {number} n */
export function versionFor(n) {
    for (let v = 1; v <= MAX_VERSION; v++) if (byteCapacity(v) >= n) return v;
    return 0;
}

/** The data codewords: mode, count, the bytes, the terminator and padding.
 * @param {Uint8Array} bytes @param {number} v @returns {number[]} */
export function dataStream(bytes, v) {
    /** @type {number[]} */
    const bits = [];
    const put = (/** @type {number} */ val, /** @type {number} */ len) => {
        for (let i = len - 1; i >= 0; i--) bits.push((val >>> i) & 1);
    };
    put(0b0100, 4);                          // byte mode
    put(bytes.length, v <= 9 ? 8 : 16);
    for (const b of bytes) put(b, 8);
    const cap = dataCodewords(v) * 8;
    put(0, Math.min(4, cap - bits.length));  // the terminator, or what room is left of it
    while (bits.length % 8) bits.push(0);
    const out = [];
    for (let i = 0; i < bits.length; i += 8) out.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
    for (let pad = 0xec; out.length < cap / 8; pad ^= 0xec ^ 0x11) out.push(pad);
    return out;
}

/** The codewords in the order they are placed: the data split in blocks
 * (the short ones first), each with its error correction, interleaved.
 * @param {number[]} data @param {number} v @returns {number[]} */
export function interleave(data, v) {
    const nb = BLOCKS[v], ec = EC_PER_BLOCK[v], total = totalCodewords(v);
    const longBlocks = total % nb;
    const shortLen = Math.floor(total / nb) - ec;   // data codewords of a short block
    /** @type {number[][]} */
    const blocks = [];
    /** @type {number[][]} */
    const ecs = [];
    for (let b = 0, at = 0; b < nb; b++) {
        const len = shortLen + (b >= nb - longBlocks ? 1 : 0);
        const d = data.slice(at, at + len);
        at += len;
        blocks.push(d);
        ecs.push(reedSolomon(d, ec));
    }
    const out = [];
    for (let i = 0; i <= shortLen; i++) for (const d of blocks) if (i < d.length) out.push(d[i]);
    for (let i = 0; i < ec; i++) for (const e of ecs) out.push(e[i]);
    return out;
}

/** Whether mask k flips the module at row r, column c (table 10). @param {number} k
 * @param {number} r @param {number} c */
function masked(k, r, c) {
    switch (k) {
    case 0: return (r + c) % 2 === 0;
    case 1: return r % 2 === 0;
    case 2: return c % 3 === 0;
    case 3: return (r + c) % 3 === 0;
    case 4: return (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0;
    case 5: return ((r * c) % 2) + ((r * c) % 3) === 0;
    case 6: return (((r * c) % 2) + ((r * c) % 3)) % 2 === 0;
    default: return (((r + c) % 2) + ((r * c) % 3)) % 2 === 0;
    }
}

/** A symbol being built: the modules and which of them are function patterns. */
class Grid {
    /** @param {number} v */
    constructor(v) {
        this.v = v;
        this.size = 17 + 4 * v;
        /** @type {boolean[][]} */
        this.dark = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
        /** @type {boolean[][]} */
        this.fixed = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    }

    /** @param {number} r @param {number} c @param {boolean} d */
    set(r, c, d) {
        this.dark[r][c] = d;
        this.fixed[r][c] = true;
    }

    /** The finder patterns with their separators, timing, alignment, the dark
     * module, and room for the format and version information. */
    functionPatterns() {
        const n = this.size;
        for (let i = 0; i < n; i++) {
            this.set(6, i, i % 2 === 0);
            this.set(i, 6, i % 2 === 0);
        }
        for (const [r0, c0] of [[3, 3], [3, n - 4], [n - 4, 3]])
            for (let dr = -4; dr <= 4; dr++) for (let dc = -4; dc <= 4; dc++) {
                const r = r0 + dr, c = c0 + dc;
                if (r < 0 || r >= n || c < 0 || c >= n) continue;
                const d = Math.max(Math.abs(dr), Math.abs(dc));
                this.set(r, c, d !== 2 && d !== 4);
            }
        const a = ALIGN[this.v];
        const last = a.length - 1;
        for (let i = 0; i <= last; i++) for (let j = 0; j <= last; j++) {
            if ((i === 0 && (j === 0 || j === last)) || (i === last && j === 0)) continue;   // a finder's place
            const r0 = a[i], c0 = a[j];
            for (let dr = -2; dr <= 2; dr++) for (let dc = -2; dc <= 2; dc++)
                this.set(r0 + dr, c0 + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
        }
        this.format(0);
        if (this.v >= 7) {
            const bits = versionBits(this.v);
            for (let i = 0; i < 18; i++) {
                const d = ((bits >>> i) & 1) === 1;
                const a1 = n - 11 + (i % 3), b1 = Math.floor(i / 3);
                this.set(b1, a1, d);
                this.set(a1, b1, d);
            }
        }
    }

    /** The format information, twice (beside the top left finder; split
     * between the other two), and the dark module. @param {number} mask */
    format(mask) {
        const n = this.size;
        const bits = formatBits(mask);
        const bit = (/** @type {number} */ i) => ((bits >>> i) & 1) === 1;
        // Bit 0 the least significant: down column 8 from the top (over the
        // timing row), then leftwards along row 8; the second copy along row 8
        // from the right edge, then down column 8 to the bottom.
        for (let i = 0; i <= 5; i++) this.set(i, 8, bit(i));
        this.set(7, 8, bit(6));
        this.set(8, 8, bit(7));
        this.set(8, 7, bit(8));
        for (let i = 9; i < 15; i++) this.set(8, 14 - i, bit(i));
        for (let i = 0; i < 8; i++) this.set(8, n - 1 - i, bit(i));
        for (let i = 8; i < 15; i++) this.set(n - 15 + i, 8, bit(i));
        this.set(n - 8, 8, true);   // the dark module
    }

    /** The codewords' bits along the two-column zigzag from the bottom right,
     * skipping the function patterns and the vertical timing column.
     * @param {number[]} words */
    place(words) {
        const n = this.size;
        let i = 0;
        const total = words.length * 8;
        for (let right = n - 1; right >= 1; right -= 2) {
            if (right === 6) right = 5;
            const upward = ((right + 1) & 2) === 0;
            for (let k = 0; k < n; k++) {
                const r = upward ? n - 1 - k : k;
                for (let j = 0; j < 2; j++) {
                    const c = right - j;
                    if (this.fixed[r][c]) continue;
                    if (i < total) this.dark[r][c] = ((words[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
                    i++;   // remainder bits stay light
                }
            }
        }
    }

    /** Flips the data modules mask k selects (twice: undone). @param {number} k */
    mask(k) {
        for (let r = 0; r < this.size; r++) for (let c = 0; c < this.size; c++)
            if (!this.fixed[r][c] && masked(k, r, c)) this.dark[r][c] = !this.dark[r][c];
    }
}

/** The standard's penalty of a symbol (section 7.8.3): runs of five or more
 * of a colour in a row or column (N1 = 3, plus one a module more), 2x2
 * blocks of a colour (N2 = 3 each), finder-like 1:1:3:1:1 patterns with four
 * light modules on a side, the quiet zone counting as light (N3 = 40 each),
 * and the dark share's distance from half (N4 = 10 per 5%).
 * @param {boolean[][]} m @returns {number} */
export function penalty(m) {
    const n = m.length;
    let score = 0;
    const FINDER = [true, false, true, true, true, false, true];
    /** @param {(i: number) => boolean} at */
    const line = (at) => {
        let run = 1;
        for (let i = 1; i <= n; i++) {
            if (i < n && at(i) === at(i - 1)) run++;
            else {
                if (run >= 5) score += 3 + (run - 5);
                run = 1;
            }
        }
        const get = (/** @type {number} */ i) => i >= 0 && i < n && at(i);
        for (let i = -4; i + 7 <= n + 4; i++) {
            if (!FINDER.every((d, j) => get(i + j) === d)) continue;
            const lightBefore = [1, 2, 3, 4].every((j) => !get(i - j));
            const lightAfter = [0, 1, 2, 3].every((j) => !get(i + 7 + j));
            if (lightBefore || lightAfter) score += 40;
        }
    };
    for (let r = 0; r < n; r++) line((c) => m[r][c]);
    for (let c = 0; c < n; c++) line((r) => m[r][c]);
    let dark = 0;
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
        if (m[r][c]) dark++;
        if (r + 1 < n && c + 1 < n && m[r][c] === m[r][c + 1] && m[r][c] === m[r + 1][c] &&
            m[r][c] === m[r + 1][c + 1]) score += 3;
    }
    const total = n * n;
    const k = Math.ceil(Math.abs(dark * 20 - total * 10) / total) - 1;
    score += Math.max(0, k) * 10;
    return score;
}

/** The QR code of `text` (UTF-8, byte mode, level M) in the smallest version
 * that holds it, with the mask of least penalty (or `opts.mask`, for tests).
 * Throws if the text needs more than version 10.
 * @param {string} text @param {{mask?: number, version?: number}} [opts] @returns {QrCode} */
export function encode(text, opts = {}) {
    const bytes = new TextEncoder().encode(text);
    let v = versionFor(bytes.length);
    if (!v) throw new RangeError("qr: " + bytes.length + " bytes do not fit a version-" + MAX_VERSION + " code");
    if (opts.version && opts.version > v && opts.version <= MAX_VERSION) v = opts.version;
    const g = new Grid(v);
    g.functionPatterns();
    g.place(interleave(dataStream(bytes, v), v));
    let best = -1, bestScore = Infinity;
    for (let k = 0; k < 8; k++) {
        if (opts.mask !== undefined && k !== opts.mask) continue;
        g.mask(k);
        g.format(k);
        const s = penalty(g.dark);
        if (s < bestScore) { best = k; bestScore = s; }
        g.mask(k);
    }
    g.mask(best);
    g.format(best);
    return { version: v, size: g.size, mask: best, modules: g.dark };
}

/** The dark modules as one SVG path, a unit a module, offset by a quiet zone
 * of `quiet` modules: draw it in a viewBox of size + 2 * quiet.
 * @param {QrCode} qr @param {number} [quiet] */
export function svgPath(qr, quiet = 4) {
    const parts = [];
    for (let r = 0; r < qr.size; r++) {
        for (let c = 0; c < qr.size; c++) {
            if (!qr.modules[r][c]) continue;
            let len = 1;   // a run of dark modules in the row: one rectangle
            while (c + len < qr.size && qr.modules[r][c + len]) len++;
            parts.push("M" + (c + quiet) + " " + (r + quiet) + "h" + len + "v1h-" + len + "z");
            c += len - 1;
        }
    }
    return parts.join("");
}

// SPDX-License-Identifier: MIT
// qr.spec.js - the page's QR encoder (web/qr.js), in Node: its parts against
// the standard's worked figures (ISO/IEC 18004: the Reed-Solomon example of
// annex I, the format and version information tables, the byte capacities at
// level M), then whole symbols of every version 1-10 under every mask read
// back by a real decoder (zbarimg, zbar-tools) from an image written here.
// The page's own drawing is read off a screenshot in people.spec.js.
import { test, expect } from "@playwright/test";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./server.js";

// web/ has no package.json: Node would take qr.js for CommonJS. Loaded as the
// module it is, from its text.
const src = fs.readFileSync(path.join(ROOT, "web", "qr.js"), "utf8");
const { encode, reedSolomon, formatBits, versionBits, byteCapacity, versionFor, dataStream, penalty, MAX_VERSION } =
    await import("data:text/javascript;base64," + Buffer.from(src).toString("base64"));

test("Reed-Solomon codewords of the standard's example (1-M, \"01234567\")", () => {
    const data = [0x10, 0x20, 0x0c, 0x56, 0x61, 0x80, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11];
    expect(reedSolomon(data, 10)).toEqual([0xa5, 0x24, 0xd4, 0xc1, 0xed, 0x36, 0xc7, 0x87, 0x2c, 0x55]);
});

test("format information of level M, every mask, and version information 7-10", () => {
    const m = ["101010000010010", "101000100100101", "101111001111100", "101101101001011",
               "100010111111001", "100000011001110", "100111110010111", "100101010100000"];
    for (let k = 0; k < 8; k++) expect(formatBits(k).toString(2).padStart(15, "0")).toBe(m[k]);
    expect(versionBits(7).toString(2).padStart(18, "0")).toBe("000111110010010100");
    expect(versionBits(8).toString(2).padStart(18, "0")).toBe("001000010110111100");
    expect(versionBits(9).toString(2).padStart(18, "0")).toBe("001001101010011001");
    expect(versionBits(10).toString(2).padStart(18, "0")).toBe("001010010011010011");
});

test("byte capacities at level M (the standard's table 7) and the version a text needs", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(byteCapacity)).toEqual([14, 26, 42, 62, 84, 106, 122, 152, 180, 213]);
    expect(versionFor(14)).toBe(1);
    expect(versionFor(15)).toBe(2);
    expect(versionFor(213)).toBe(10);
    expect(versionFor(214)).toBe(0);
    expect(() => encode("x".repeat(214))).toThrow(RangeError);
    // byte mode, count, bytes, terminator, then the pad codewords in turn
    expect(dataStream(new TextEncoder().encode("A"), 1).slice(0, 5)).toEqual([0x40, 0x14, 0x10, 0xec, 0x11]);
});

test("the mask chosen is the one of least penalty, and the penalty counts what the standard counts", () => {
    const text = "http://127.0.0.1:8080/#/device/ABCD2345";
    const chosen = encode(text);
    for (let k = 0; k < 8; k++) expect(penalty(encode(text, { mask: k }).modules)).toBeGreaterThanOrEqual(penalty(chosen.modules));
    // all light: runs (n columns and rows of n: 2n(3 + n - 5)), 2x2 blocks ((n-1)^2 * 3), share (9 * 10)
    const n = 21;
    const light = Array.from({ length: n }, () => new Array(n).fill(false));
    expect(penalty(light)).toBe(2 * n * (3 + n - 5) + (n - 1) * (n - 1) * 3 + 90);
    // one finder-like row with four light modules before it, in a checkerboard that has no other penalty
    const board = Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => (r + c) % 2 === 0));
    const base = penalty(board);
    board[10] = [false, false, false, false, true, false, true, true, true, false, true,
                 ...Array.from({ length: 10 }, (_, c) => (c % 2) === 1)];
    expect(penalty(board) - base).toBeGreaterThanOrEqual(40);
});

/** A QR code as a PGM image: `scale` pixels a module, four modules of quiet zone.
 * @param {{size: number, modules: boolean[][]}} qr @param {number} scale */
function pgm(qr, scale) {
    const side = (qr.size + 8) * scale;
    const px = Buffer.alloc(side * side, 255);
    for (let r = 0; r < qr.size; r++) for (let c = 0; c < qr.size; c++) {
        if (!qr.modules[r][c]) continue;
        for (let y = 0; y < scale; y++) px.fill(0, ((r + 4) * scale + y) * side + (c + 4) * scale,
                                               ((r + 4) * scale + y) * side + (c + 5) * scale);
    }
    return Buffer.concat([Buffer.from("P5\n" + side + " " + side + "\n255\n"), px]);
}

test("zbarimg reads back every version 1-10 under every mask, UTF-8 included", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "figaro-qr-"));
    try {
        const files = [], texts = [];
        for (let v = 1; v <= MAX_VERSION; v++) {
            // the most a version holds, so that it is the version used; a name with accents in one
            const cap = byteCapacity(v);
            const head = v <= 2 ? "" : v === 3 ? "Zoë & Brontë → " : "http://127.0.0.1:8080/#/device/";
            const headLen = new TextEncoder().encode(head).length;
            let tail = "";
            for (let i = 0; headLen + tail.length < cap; i++) tail += "ABCDEFGHJKMNPQRSTUVWXYZ23456789"[(i * 7 + v) % 31];
            const text = head + tail;
            for (let k = 0; k < 8; k++) {
                const qr = encode(text, { mask: k });
                expect(qr.version).toBe(v);
                expect(qr.mask).toBe(k);
                expect(qr.size).toBe(17 + 4 * v);
                const f = path.join(dir, "v" + v + "m" + k + ".pgm");
                fs.writeFileSync(f, pgm(qr, 4));
                files.push(f);
                texts.push(text);
            }
        }
        // One zbarimg for all: one symbol per image, printed in the images' order.
        const out = execFileSync("zbarimg", ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", ...files],
                                 { stdio: ["ignore", "pipe", "pipe"] }).toString("utf8");   // its stderr: dbus noise
        expect(out.split("\n").filter((l) => l !== "")).toEqual(texts);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
});

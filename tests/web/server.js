// SPDX-License-Identifier: MIT
// server.js - a real `figaro serve` for the browser tests: the build's
// command (FIGARO, else build/test/figaro), on a free loopback port (it
// prints the URL), with a temporary --data folder, stopped with SIGTERM.
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const ARTIFACTS = process.env.WEB_ARTIFACTS || path.join(ROOT, "build", "test", "web-artifacts");

export function figaro() {
    let cmd = process.env.FIGARO || path.join(ROOT, "build", "test", "figaro");
    if (!path.isAbsolute(cmd)) cmd = path.join(ROOT, cmd);
    return cmd;
}

/** Starts a server; resolves to {url, stop()}. @param {string[]} extra */
export async function startServer(extra = []) {
    const data = fs.mkdtempSync(path.join(os.tmpdir(), "figaro-web-"));
    const log = fs.openSync(path.join(data, "stderr.log"), "a");
    const proc = spawn(figaro(), ["serve", "--listen", "127.0.0.1:0", "--data", data, "--bot-threads", "2",
                                  "--max-bot-ms", "100", ...extra], { stdio: ["ignore", "pipe", log] });
    const url = await new Promise((resolve, reject) => {
        let out = "";
        const t = setTimeout(() => reject(new Error("serve printed no URL: " + out)), 20000);
        proc.stdout.on("data", (d) => {
            out += d;
            const m = out.match(/(http:\/\/127\.0\.0\.1:\d+\/)/);
            if (m) { clearTimeout(t); resolve(m[1]); }
        });
        proc.on("exit", (c) => reject(new Error("serve exited " + c + ": " + fs.readFileSync(path.join(data, "stderr.log"), "utf8"))));
    });
    return {
        url, data,
        async stop() {
            const done = new Promise((r) => proc.on("exit", r));
            proc.kill("SIGTERM");
            const code = await done;
            const text = fs.readFileSync(path.join(data, "stderr.log"), "utf8");
            fs.rmSync(data, { recursive: true, force: true });
            if (code !== 0 || /AddressSanitizer|runtime error/.test(text))
                throw new Error("serve exited " + code + ":\n" + text.slice(-3000));
        },
    };
}

/** `figaro replay --json` of a record. @param {string} text */
export function replayJson(text) {
    return JSON.parse(execFileSync(figaro(), ["replay", "--json", "-"], { input: text }).toString());
}

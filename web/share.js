// SPDX-License-Identifier: MIT
// share.js - the invitation to a table, shared the way the device shares
// (the phone's share sheet: navigator.share) or, where there is none or it
// fails, copied to the clipboard.

import { _ } from "./i18n.js";

/** Whether this browser has a share sheet. */
export function canShare() {
    return typeof navigator.share === "function";
}

/** The button's words: "Share" with a share sheet, else "Copy". */
export function shareLabel() {
    return canShare() ? _("Share") : _("Copy");
}

/** Shares or copies the invitation `url`; `field` (the link shown) is
 * selected too, so it can be copied by hand when neither works.
 * @param {string} url @param {HTMLInputElement} field
 * @returns {Promise<"shared"|"copied"|"none">} */
export async function shareInvite(url, field) {
    field.select();
    if (canShare()) {
        try {
            await navigator.share({ title: "Figaro", text: _("Join my table of Figaro:"), url });
            return "shared";
        } catch (e) {
            // the person closed the sheet: nothing more to do
            if (e instanceof DOMException && e.name === "AbortError") return "none";
        }
    }
    try {
        await navigator.clipboard.writeText(url);
        return "copied";
    } catch {
        return "none";
    }
}

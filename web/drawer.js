// SPDX-License-Identifier: MIT
// drawer.js - the table's log and chat: a sheet from the bottom on a phone
// (opened from the status line's Log and Chat buttons, which count what is
// new while it is closed), a column beside the table on a wide screen. The
// log is an ARIA live log whose node lives as long as the table (a live
// region must not be rebuilt); a snapshot's story replaces its lines.

import { _, fmt, ngettext } from "./i18n.js";
import { h, fill } from "./dom.js";
import { ruleLinks } from "./rules.js";

/** @typedef {import("./net.js").Msg} Msg */

const LOG_MAX = 400;

export class Drawer {
    /** @param {HTMLElement} tools what the sheet holds under the log (the
     * chat line, the table's options) @param {HTMLElement} chatInput the chat line's input */
    constructor(tools, chatInput) {
        this.tools = tools;
        this.chatInput = chatInput;
        this.open = false;
        this.unreadLog = 0;
        this.unreadChat = 0;
        this.logBtn = h("button", { type: "button", class: "drawer-btn", "data-focus": "open-log",
                                    "aria-expanded": "false", "aria-controls": "table-side",
                                    onclick: () => this.show(false) });
        this.chatBtn = h("button", { type: "button", class: "drawer-btn", "data-focus": "open-chat",
                                     "aria-expanded": "false", "aria-controls": "table-side",
                                     onclick: () => this.show(true) });
        this.log = h("div", { class: "log", role: "log", "aria-live": "polite", "aria-labelledby": "log-title",
                              tabindex: "0" });
        this.side = h("aside", { class: "side", id: "table-side", "aria-labelledby": "log-title" }, [
            h("div", { class: "side-head" }, [
                h("h2", { id: "log-title", text: _("What happened") }),
                h("button", { type: "button", class: "drawer-close", "data-focus": "close-drawer",
                              text: _("Close"), onclick: () => this.close() })]),
            this.log, this.tools,
        ]);
        this.scrim = h("div", { class: "scrim", onclick: () => this.close() });
        this.wide = matchMedia("(min-width: 60rem)");   // style.css's wide table: the log beside it
        this.onWide = () => this.set(this.open);
        this.wide.addEventListener("change", this.onWide);
        this.set(false);
    }

    destroy() {
        this.wide.removeEventListener("change", this.onWide);
    }

    /** Opens the sheet (a phone) or goes to the column (a wide screen).
     * @param {boolean} chat whether to go to the chat line */
    show(chat) {
        this.set(true);
        if (chat) this.chatInput.focus();
        else this.log.focus();
    }

    close() {
        const was = this.open;
        this.set(false);
        if (was && !this.wide.matches) this.logBtn.focus();
    }

    /** @param {boolean} open */
    set(open) {
        this.open = open;
        const shown = open || this.wide.matches;
        this.side.classList.toggle("open", open);
        this.scrim.hidden = !open || this.wide.matches;
        // Closed on a phone: out of sight but still read out (the log is a live
        // region), and nothing in it to tab to.
        this.tools.inert = !shown;
        this.log.tabIndex = shown ? 0 : -1;
        if (shown) {
            this.unreadLog = this.unreadChat = 0;
            this.log.scrollTop = this.log.scrollHeight;
        }
        this.renderButtons();
    }

    renderButtons() {
        for (const [btn, label, unread] of /** @type {[HTMLElement, string, number][]} */ (
            [[this.logBtn, _("Log"), this.unreadLog], [this.chatBtn, _("Chat"), this.unreadChat]])) {
            btn.setAttribute("aria-expanded", String(this.open));
            btn.setAttribute("aria-label", unread ? fmt(ngettext("%s, %d new", "%s, %d new", unread), label, unread) : label);
            fill(btn, unread ? [label, h("span", { class: "unread", "aria-hidden": "true",
                                                   text: unread > 99 ? "99+" : String(unread) })]
                             : [label]);
        }
    }

    /** The current game's story from a snapshot: the log starts again with it.
     * @param {any[]} entries */
    story(entries) {
        this.log.replaceChildren();
        for (const e of entries) {
            if (e.kind === "chat") this.chat(e);
            else if (Array.isArray(e.say)) this.say(e.say, e.kind);
        }
        this.unreadLog = this.unreadChat = 0;   // the story so far is nothing new
        this.renderButtons();
    }

    /** Lines of narration; a rule's number in them links to the rule.
     * @param {string[]} lines @param {string} kind */
    say(lines, kind) {
        for (const line of lines)
            this.log.append(h("p", { class: "log-" + kind }, ruleLinks(line)));
        while (this.log.children.length > LOG_MAX) this.log.firstChild?.remove();
        this.log.scrollTop = this.log.scrollHeight;
        this.unread(lines.length, false);
    }

    /** @param {Msg} m */
    chat(m) {
        const who = m.name || _("a spectator");
        this.log.append(h("p", { class: "log-chat" }, [h("b", { text: who + ": " }), m.text]));
        this.log.scrollTop = this.log.scrollHeight;
        this.unread(1, true);
    }

    /** Counts lines the person has not seen: the sheet is closed.
     * @param {number} k @param {boolean} chat */
    unread(k, chat) {
        if (this.open || this.wide.matches) return;
        if (chat) this.unreadChat += k;
        else this.unreadLog += k;
        this.renderButtons();
    }
}

// The rating change after a rated match (the server's `rating` frame, docs/protocol.md):
// a note that stays until closed, read out politely, with a link to the player's profile.

import { h, replace } from "./dom.js";
import { lang, t } from "./i18n.js";
import "./strings/profiles.js";
import "./strings/handover.js";
import { botName, formatNumber, signed } from "./numbers.js";
import { variantText } from "./profile.js";
import { casualWords } from "./serverwords.js";

let note = null;

/** Show the frame's changes; `seat` is this browser's seat (null for a spectator). While
 * a modal dialog is open (the last hole's scores) the rest of the page is inert, so the
 * note waits until it closes: the result is not given away behind the hole's dialog. */
export function showRatingChange(frame, seat, names = {}) {
  const modal = document.querySelector("dialog[open]");
  if (modal) {
    modal.addEventListener("close", () => showRatingChange(frame, seat, names), { once: true });
    return;
  }
  if (!note) {
    note = h("section.rating-note", { role: "status", "aria-live": "polite",
      "aria-labelledby": "rating-note-title" });
  }
  placeRatingNote();
  const lines = [];
  let profile = null;
  if (!frame.rated) {
    // Why, in the page's words from the frame's cause; the server's sentence only for a
    // cause this page does not know.
    const reason = casualWords(frame.cause) || frame.reason || "";
    lines.push(h("p", { text: t("note.casual", { reason }) }));
  } else {
    for (const s of frame.seats) {
      const mine = s.seat === seat;
      const params = { variant: variantText(frame.variant), before: formatNumber(s.before),
        after: formatNumber(s.after), delta: signed(s.delta), name: names[s.seat] || `#${s.seat}` };
      // One who left is rated last: the note says so by the change, as the table and the
      // profile do.
      const key = mine ? "note.you" : s.abandoned ? "note.otherLeft" : "note.other";
      lines.push(h(mine ? "p.mine" : "p", { text: t(key, params) }));
      if (mine && s.abandoned) lines.push(h("p.left-note", { text: t("note.leftYou") }));
      if (mine && s.provisional) lines.push(h("p.muted", { text: t("note.provisional", { n: 10 }) }));
      if (mine && s.passed && s.passed.length) {
        lines.push(h("p.passed", { text: t("note.passed", {
          bots: new Intl.ListFormat(lang(), { type: "conjunction" }).format(s.passed.map(botName)) }) }));
      }
      if (mine) profile = `/players/${encodeURIComponent(s.player)}`;
    }
  }
  // The profile's link and the close button side by side and well apart (golf.css).
  replace(note,
    h("h2#rating-note-title", { text: t("note.title") }),
    lines,
    h("div.note-actions", {},
      profile ? h("a.button.small.ghost", { href: profile, text: t("note.profile") }) : null,
      h("button.small.ghost", { type: "button", "data-key": "rating-note-close", text: t("note.close"),
        onclick: () => { note.remove(); note = null; } })));
}

// A narrow screen: the note would float over the result's standings and its buttons.
const NARROW = "(max-width: 699px)";
let watching = false;

/** Put the note where it belongs: on a narrow screen in the result panel, after the
 * standings and their buttons, when there is one; else floating in a corner of the page.
 * The table calls this after each render (which builds a new result panel). */
export function placeRatingNote() {
  if (!note) return;
  if (!watching && window.matchMedia) {
    watching = true;
    window.matchMedia(NARROW).addEventListener("change", () => placeRatingNote());
  }
  const panel = window.matchMedia && window.matchMedia(NARROW).matches
    ? document.querySelector(".result-panel") : null;
  const home = panel || document.body;
  note.classList.toggle("docked", Boolean(panel));
  if (note.parentNode !== home) home.append(note);
}

/** Remove the note (leaving the table). */
export function hideRatingChange() {
  if (note) note.remove();
  note = null;
}

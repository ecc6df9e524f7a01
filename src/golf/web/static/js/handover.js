// A seat passes to a bot only by its person (issue 38, docs/protocol.md, host tools): the
// host's button first opens a confirmation saying what will happen to whom; a person who is
// present is asked and answers; one who is away from a rated table keeps the seat until the
// absence rules decide; a no is told to everyone.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { joinNames } from "./names.js";
import "./strings/handover.js";

/** Where the seat's person is, as the table summary says: "present" (the table open, or
 * another page of the site), "away", or "ratedAway" (away from a rated table: the absence
 * rules' to decide, the server refuses the host's request with rated_away). */
export function seatPresence(table, seat) {
  const info = table.seats[seat] || {};
  const away = Boolean(info.away) && !info.elsewhere;
  if (!away) return "present";
  return table.rated ? "ratedAway" : "away";
}

/** The people besides the host and the seat whose answer a request for `seat` waits for
 * (the server's rule: every other person seated who has not left the match). */
function othersAsked(table, seat) {
  return table.seats.filter((s) => s.kind === "human" && s.taken && s.seat !== seat
    && s.seat !== table.host && !s.abandoned).map((s) => s.seat);
}

/** The sentences of the host's confirmation: who is asked, what happens then, to whom. */
export function handoverLines(table, seat, name) {
  const who = name(seat);
  const others = othersAsked(table, seat).map(name);
  const lines = [];
  if (seatPresence(table, seat) === "present") {
    lines.push(t("handover.present", { name: who }));
    if (others.length) lines.push(t("handover.others", { names: joinNames(others) }));
  } else {
    lines.push(t("handover.away", { name: who }));
    lines.push(others.length ? t("handover.awayOthers", { names: joinNames(others) })
      : t("handover.awayNow"));
  }
  lines.push(t("handover.then", { name: who }));
  lines.push(t(table.rated ? "handover.rated" : "handover.casual", { name: who }));
  return lines;
}

let open = null;

/** The host's confirmation (a modal dialog over the table); `request()` is called only on
 * the host's yes. The dialog lives in the body: the table's redraws leave it alone. */
export function confirmHandover(table, seat, name, request) {
  if (open) open.close();
  const present = seatPresence(table, seat) === "present";
  const dialog = h("dialog.modal.handover-dialog", { "aria-labelledby": "handover-title",
    "aria-describedby": "handover-what", "data-kind": "handover" });
  const close = () => dialog.close();
  dialog.append(
    h("h2#handover-title", { text: t("handover.title", { name: name(seat) }) }),
    h("div#handover-what", {}, handoverLines(table, seat, name).map((line) => h("p", { text: line }))),
    h("div.form-actions", {},
      h("button.primary", { type: "button", "data-key": "handover-yes",
        text: present ? t("handover.ask", { name: name(seat) }) : t("handover.confirm"),
        onclick: () => { close(); request(); } }),
      h("button.ghost", { type: "button", "data-key": "handover-cancel", text: t("handover.cancel"),
        onclick: close })));
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (open === dialog) open = null;
  });
  document.body.append(dialog);
  open = dialog;
  dialog.showModal();
  // The safe answer has the focus: Enter or a stray tap does not hand a seat away.
  dialog.querySelector("[data-key=handover-cancel]").focus();
}

/** Close the host's confirmation (the match ended, or the page leaves the table). */
export function closeHandover() {
  if (open) open.close();
}

/** The host's control for one other person's seat: the button that opens the confirmation,
 * or, for a person away from a rated table, why there is none. */
export function handoverToolEl(table, seat, name, request) {
  const who = name(seat);
  const presence = seatPresence(table, seat);
  if (presence === "ratedAway") {
    return h("div.host-tool", {}, h("p.host-help", { "data-key": `bot-seat-${seat}-away`,
      text: t("handover.help.ratedAway", { name: who }) }));
  }
  return h("div.host-tool", {},
    h("button.ghost.small.danger", { type: "button", "data-key": `bot-seat-${seat}`,
      "aria-haspopup": "dialog", text: t("handover.button", { name: who }),
      onclick: () => confirmHandover(table, seat, name, request) }),
    h("p.host-help", { text: t(presence === "present" ? "handover.help.present"
      : "handover.help.away", { name: who }) }));
}

/** The question to the person whose own seat the host asked for: what a yes and a no do. */
export function askYouEl(table, name, answer) {
  return h("div.bot-ask.handover-ask", { role: "alert" },
    h("p", { text: t("handover.askYou", { host: name(table.host) }) }),
    h("p.handover-then", { text: t(table.rated ? "handover.askYou.rated" : "handover.askYou.casual") }),
    h("button.primary.small", { type: "button", "data-key": "bot-no", text: t("handover.no"),
      onclick: () => answer(false) }),
    " ",
    h("button.ghost.small.danger", { type: "button", "data-key": "bot-yes", text: t("handover.yes"),
      onclick: () => answer(true) }));
}

/** A `bot_declined` frame in words for this reader. */
export function declinedText(msg, mySeat, name) {
  if (msg.by === mySeat) {
    return msg.seat === mySeat ? t("handover.declined.you")
      : t("handover.declined.youOther", { name: name(msg.seat) });
  }
  if (msg.seat === mySeat) return t("handover.declined.yours", { by: name(msg.by) });
  if (msg.by === msg.seat) return t("handover.declined.self", { name: name(msg.seat) });
  return t("handover.declined.other", { by: name(msg.by), name: name(msg.seat) });
}

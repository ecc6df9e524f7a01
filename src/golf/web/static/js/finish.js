// The end of a hole and of a match at the table: the break's clock before the next hole, the
// rematch invitation each person accepts (docs/protocol.md, "Between holes" and the table
// summary's `rematch`), and a short celebration for the winner.

import { h } from "./dom.js";
import { joinNames, t } from "./i18n.js";
import "./strings/finish.js";

/** The break's clock: "Next hole in 9 s – waiting for Bob". */
export function breakClockText(clock, secs, name) {
  const waiting = (clock.waiting || []).map(name);
  const text = t("break.clock", { s: secs });
  return waiting.length ? `${text} – ${t("break.waiting", { names: joinNames(waiting) })}` : text;
}

/**
 * The rematch part of the result: the host offers, each person accepts; everyone sees who
 * is still awaited. `offer()` and `accept()` call the server.
 */
export function rematchEl({ table, mySeat, isHost, name, offer, accept }) {
  const r = table.rematch;
  const waiting = r ? joinNames(r.waiting.map(name)) : "";
  if (!r) {
    return isHost
      ? h("button.primary.big", { type: "button", "data-key": "rematch", text: t("rematch.offer"),
        onclick: offer })
      : h("p.muted.rematch-note", { text: t("rematch.none") });
  }
  if (r.accepted.includes(mySeat)) {
    return h("p.muted.rematch-note", { role: "status",
      text: t(isHost ? "rematch.offered" : "rematch.accepted", { names: waiting }) });
  }
  return h("div.rematch-invite", { role: "status" },
    h("p", { text: t("rematch.invited", { name: name(table.host) }) }),
    h("button.primary.big", { type: "button", "data-key": "rematch-accept",
      text: t("rematch.accept"), onclick: accept }));
}

/** A moment of celebration above the standings: for the winner, and for all to see. */
export function celebrationEl(view, mySeat) {
  const winners = view.winners || [];
  if (!winners.length) return null;
  const mine = winners.includes(mySeat);
  return h("div.celebration" + (mine ? ".mine" : ""), { "aria-hidden": "true" },
    ["★", "✦", "★", "✦", "★", "✦", "★"].map((mark, i) => h("span.spark", { text: mark,
      style: `--i:${i}` })),
    mine ? h("strong.cheer", { text: t("match.celebrate") }) : null);
}

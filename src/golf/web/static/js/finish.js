// The end of a hole and of a match at the table: the break's clock before the next hole, the
// rematch invitation each person accepts (docs/protocol.md, "Between holes" and the table
// summary's `rematch`), and a short celebration for the winner.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { joinNames } from "./names.js";
import { aboutSeats } from "./narrate.js";
import { leftSeats, matchWinners } from "./holeend.js";
import "./strings/finish.js";

/** The break's clock: "Next hole in 9 s – waiting for Bob" ("waiting for you and Bob"). */
export function breakClockText(clock, secs, name, mySeat = null) {
  const waiting = clock.waiting || [];
  const text = t("break.clock", { s: secs });
  return waiting.length ? `${text} – ${aboutSeats("break.waiting", waiting, mySeat, name)}` : text;
}

/**
 * The rematch part of the result: the host offers, each person accepts or declines; everyone
 * sees who is still awaited, and who declined the last offer (`declinedBy`, a seat).
 * `offer()`, `accept()` and `decline()` call the server.
 */
export function rematchEl({ table, mySeat, isHost, name, offer, accept, decline,
  declinedBy = null }) {
  const r = table.rematch;
  const waiting = r ? joinNames(r.waiting.map(name)) : "";
  if (!r) {
    const declined = declinedBy === null || declinedBy === undefined ? null
      : h("p.muted.rematch-declined", { role: "status", text: declinedBy === mySeat
        ? t("rematch.declined.you") : t("rematch.declined", { name: name(declinedBy) }) });
    return h("div.rematch-wrap", {}, declined, isHost
      ? h("button.primary.big", { type: "button", "data-key": "rematch", text: t("rematch.offer"),
        onclick: offer })
      : h("p.muted.rematch-note", { text: t("rematch.none") }));
  }
  if (r.accepted.includes(mySeat)) {
    return h("p.muted.rematch-note", { role: "status",
      text: t(isHost ? "rematch.offered" : "rematch.accepted", { names: waiting }) });
  }
  return h("div.rematch-invite", { role: "status" },
    h("p", { text: t("rematch.invited", { name: name(table.host) }) }),
    h("button.primary.big", { type: "button", "data-key": "rematch-accept",
      text: t("rematch.accept"), onclick: accept }),
    decline ? h("button.ghost.big", { type: "button", "data-key": "rematch-decline",
      text: t("rematch.decline"), onclick: decline }) : null);
}

/** A moment of celebration above the standings: for the winner as the match counts them
 * (never one who left), and for all to see. */
export function celebrationEl(view, mySeat, table = null) {
  const winners = matchWinners(view, leftSeats(table));
  if (!winners.length) return null;
  const mine = winners.includes(mySeat);
  return h("div.celebration" + (mine ? ".mine" : ""), { "aria-hidden": "true" },
    ["★", "✦", "★", "✦", "★", "✦", "★"].map((mark, i) => h("span.spark", { text: mark,
      style: `--i:${i}` })),
    mine ? h("strong.cheer", { text: t("match.celebrate") }) : null);
}

/**
 * Why a match ended before its last hole (or, without a number of holes, why it ended at
 * all): a total passed the points target. `rules` holds the table's `target` and
 * `target_ends`; null when the points target did not end the match.
 */
export function targetEndText(view, rules, mySeat, name) {
  const target = rules && rules.target;
  if (!view.is_over || !target) return null;
  const reach = rules.target_ends === "reach";
  const over = view.totals.map((total, seat) => ({ seat, total }))
    .filter((x) => (reach ? x.total >= target : x.total > target));
  const played = (view.hole_scores || []).length;
  if (!over.length || (view.holes && played >= view.holes)) return null;
  const passed = t(`match.passed.${rules.target_ends === "reach" ? "reach" : "exceed"}`);
  const head = view.holes
    ? t("match.endedAfter", { n: played, holes: view.holes, target, passed })
    : t("match.endedAt", { n: played, target, passed });
  const who = joinNames(over.map((x) => (x.seat === mySeat
    ? t("match.over.you", { points: x.total })
    : t("match.over.seat", { name: name(x.seat), points: x.total }))));
  return `${head} ${t("match.over.by", { who })}`;
}

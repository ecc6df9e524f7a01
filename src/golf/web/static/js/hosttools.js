// What the host can do for a slow friend while a match runs (docs/protocol.md, host tools):
// nudge the person whose turn it is, add a turn timer the table lacked, or propose a bot in a
// person's seat (js/handover.js: confirmed first; that person is asked when present, and the
// others); and the proposal as the people asked answer it.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { joinNames } from "./names.js";
import { askYouEl, handoverToolEl } from "./handover.js";
import "./strings/host.js";

const TIMER_CHOICES = [30, 60, 120];

/**
 * ctx: {table, view, mySeat, isHost, name(seat), call(method, path, body), open, onToggle}.
 * The host's tools (a details element, open as the host left it) and, for a person asked, the bot proposal to answer; null when there is
 * nothing to show.
 */
export function hostToolsEl(ctx) {
  const { table, view, mySeat, isHost, name, call, open, onToggle } = ctx;
  if (!table || table.status !== "playing" || !view || view.is_over) return null;
  const base = `/api/tables/${encodeURIComponent(table.id)}`;
  const people = table.seats.filter((s) => s.kind === "human" && s.seat !== mySeat
    && !s.stand_in && !s.abandoned);
  const proposal = table.bot_proposal || null;
  const parts = [];
  if (proposal) {
    const seat = proposal.seat;
    const asked = (proposal.waiting || []).includes(mySeat);
    const answer = (consent) => call("POST", `${base}/seats/${seat}/bot/consent`, { consent });
    if (asked && seat === mySeat) {
      parts.push(askYouEl(table, name, answer));
    } else if (asked) {
      parts.push(h("div.bot-ask", { role: "alert" },
        h("p", { text: t("host.bot.ask", { host: name(table.host), name: name(seat) }) }),
        h("button.primary.small", { type: "button", "data-key": "bot-yes", text: t("host.bot.yes"),
          onclick: () => answer(true) }),
        " ",
        h("button.ghost.small", { type: "button", "data-key": "bot-no", text: t("host.bot.no"),
          onclick: () => answer(false) })));
    } else if (isHost && (proposal.waiting || []).length) {
      parts.push(h("p.muted.bot-waiting", { role: "status", text: t("host.bot.waiting", {
        name: name(seat), names: joinNames(proposal.waiting.map(name)) }) }));
    }
  }
  // The tools are for a slow friend: a table of the host and bots has none.
  if (!isHost || !people.length) return parts.length ? h("div.host-tools", {}, parts) : null;

  const current = view.current_player;
  const currentSeat = table.seats[current] || {};
  const tools = [];
  if (current !== mySeat && currentSeat.kind === "human" && !currentSeat.stand_in) {
    tools.push(h("div.host-tool", {},
      h("button.ghost.small", { type: "button", "data-key": "nudge",
        text: t("host.nudge", { name: name(current) }),
        onclick: () => call("POST", `${base}/nudge`) }),
      h("p.host-help", { text: t("host.nudge.help") })));
  }
  const timer = table.options && table.options.turn_timer;
  if (!timer) {
    const pick = h("select#host-timer.small", { "aria-label": t("host.timer.seconds") },
      TIMER_CHOICES.map((s) => h("option", { value: s, text: `${s} s`, selected: s === 60 })));
    tools.push(h("div.host-tool", {},
      h("label.sr-only", { for: "host-timer", text: t("host.timer.seconds") }), pick, " ",
      h("button.ghost.small", { type: "button", "data-key": "add-timer", text: t("host.timer"),
        onclick: () => call("POST", `${base}/timer`, { turn_timer: Number(pick.value) }) }),
      h("p.host-help", { text: t("host.timer.help") })));
  } else {
    tools.push(h("p.host-help", { text: t("host.timer.set", { s: timer }) }));
  }
  for (const s of people) {
    tools.push(handoverToolEl(table, s.seat, name, () => call("POST", `${base}/seats/${s.seat}/bot`)));
  }
  return h("div.host-tools", {}, parts,
    h("details.host-menu", { open: open || null, ontoggle: (e) => onToggle(e.target.open) },
      h("summary", { "data-key": "host-tools", text: t("host.tools") }), tools));
}

/** A nudge frame in words for this reader: a reminder for the nudged, a line for the rest. */
export function nudgeText(msg, mySeat, name) {
  if (msg.seat === mySeat) return t("nudge.you", { host: name(msg.by) });
  return t(msg.by === mySeat ? "nudge.byYou" : "nudge.other",
    { host: name(msg.by), name: name(msg.seat) });
}

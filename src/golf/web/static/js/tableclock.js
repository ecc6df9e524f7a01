// The table's clocks in its header (#clock): a turn's time and the seat's reserve, an absent
// player's grace period, the break before the next hole. The server sends each clock with the
// time left when it was sent (docs/protocol.md, the state's `clock`); the page counts it
// down from the moment it arrived (S.clockAt), redrawn four times a second.

import { t } from "./i18n.js";
import { seatName } from "./narrate.js";
import { breakClockText } from "./finish.js";
import "./strings/table.js";

/** How often the clock is redrawn, in ms. */
export const CLOCK_TICK_MS = 250;

// Each tick writes only what changed: the text changes once a second at most, and a write
// of the same text still makes the page lay itself out again, four times a second on every
// open table.
function put(el, text, label) {
  if (el.textContent !== text) el.textContent = text;
  if (label !== undefined && el.getAttribute("aria-label") !== label) el.setAttribute("aria-label", label);
}

function showIf(el, shown) {
  if (el.hidden === shown) el.hidden = !shown;
}

function mark(el, icon) {
  if (el.dataset.icon !== icon) el.dataset.icon = icon;
}

/** The clock in board's header as it stands now (hidden when there is none), and the
 * break's countdown in the hole-end dialog (#break-clock), the same for everyone. */
export function renderClock(board, S) {
  renderBreakClock(S);
  const el = board.querySelector("#clock");
  if (!el) return;
  const c = S.clock;
  if (!c || !S.state || S.state.view.is_over) {
    put(el, "");
    showIf(el, false);
    return;
  }
  showIf(el, true);
  const elapsed = Date.now() - S.clockAt;
  const left = Math.max(0, c.remaining - elapsed);
  // A turn's clock: `remaining` is the turn's own time, `reserve` the seat's reserve, which
  // runs down once the turn's time is spent (docs/protocol.md, the state's `clock`).
  const reserve = c.kind === "turn" ? c.reserve || 0 : 0;
  const total = Math.max(0, c.remaining + reserve - elapsed);
  const secs = Math.ceil((c.kind === "turn" ? total : left) / 1000);
  const name = seatName(S.table, c.seat, S.seat);
  if (c.kind === "next_hole") {
    mark(el, "wait");
    put(el, breakClockText(c, secs, (s) => seatName(S.table, s, S.seat), S.seat),
      t("break.label", { s: secs }));
    el.classList.toggle("low", false);
    return;
  }
  let text;
  if (c.kind === "absence") {
    mark(el, "wait");
    text = t(c.seat === S.seat ? "timer.absence.you" : "timer.absence", { name, s: secs });
  } else {
    const turn = Math.ceil(left / 1000);
    mark(el, "turn");
    text = turn > 0
      ? t("timer.turn", { s: turn }) + (reserve ? " " + t("timer.reserve", { s: Math.ceil(reserve / 1000) }) : "")
      : t("timer.inReserve", { s: secs });
  }
  put(el, text, t(c.seat === S.seat ? "timer.turnLabel.you" : "timer.turnLabel", { name, s: secs }));
  el.classList.toggle("low", secs <= 10);
}

function renderBreakClock(S) {
  const el = document.getElementById("break-clock");
  if (!el) return;
  const c = S.clock;
  if (!c || c.kind !== "next_hole") {
    showIf(el, false);
    put(el, "");
    return;
  }
  const secs = Math.ceil(Math.max(0, c.remaining - (Date.now() - S.clockAt)) / 1000);
  showIf(el, true);
  mark(el, "wait");
  put(el, breakClockText(c, secs, (s) => seatName(S.table, s, S.seat), S.seat));
}

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

/** The clock in board's header as it stands now (hidden when there is none), and the
 * break's countdown in the hole-end dialog (#break-clock), the same for everyone. */
export function renderClock(board, S) {
  renderBreakClock(S);
  const el = board.querySelector("#clock");
  if (!el) return;
  const c = S.clock;
  if (!c || !S.state || S.state.view.is_over) {
    el.textContent = "";
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const elapsed = Date.now() - S.clockAt;
  const left = Math.max(0, c.remaining - elapsed);
  // A turn's clock: `remaining` is the turn's own time, `reserve` the seat's reserve, which
  // runs down once the turn's time is spent (docs/protocol.md, the state's `clock`).
  const reserve = c.kind === "turn" ? c.reserve || 0 : 0;
  const total = Math.max(0, c.remaining + reserve - elapsed);
  const secs = Math.ceil((c.kind === "turn" ? total : left) / 1000);
  const name = seatName(S.table, c.seat, S.seat);
  if (c.kind === "next_hole") {
    el.dataset.icon = "wait";
    el.textContent = breakClockText(c, secs, (s) => seatName(S.table, s, S.seat), S.seat);
    el.setAttribute("aria-label", t("break.label", { s: secs }));
    el.classList.remove("low");
    return;
  }
  if (c.kind === "absence") {
    el.dataset.icon = "wait";
    el.textContent = t(c.seat === S.seat ? "timer.absence.you" : "timer.absence", { name, s: secs });
  } else {
    const turn = Math.ceil(left / 1000);
    el.dataset.icon = "turn";
    el.textContent = turn > 0
      ? t("timer.turn", { s: turn }) + (reserve ? " " + t("timer.reserve", { s: Math.ceil(reserve / 1000) }) : "")
      : t("timer.inReserve", { s: secs });
  }
  el.setAttribute("aria-label", t(c.seat === S.seat ? "timer.turnLabel.you" : "timer.turnLabel", { name, s: secs }));
  el.classList.toggle("low", secs <= 10);
}

function renderBreakClock(S) {
  const el = document.getElementById("break-clock");
  if (!el) return;
  const c = S.clock;
  if (!c || c.kind !== "next_hole") {
    el.hidden = true;
    el.textContent = "";
    return;
  }
  const secs = Math.ceil(Math.max(0, c.remaining - (Date.now() - S.clockAt)) / 1000);
  el.hidden = false;
  el.dataset.icon = "wait";
  el.textContent = breakClockText(c, secs, (s) => seatName(S.table, s, S.seat), S.seat);
}

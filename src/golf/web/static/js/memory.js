// Memory mode (presets whose setup is a private peek: four-card-wild, german). The engine's
// view shows a player the cards they peeked at for the whole hole (docs/rules.md, decision
// 14: what a player with a good memory knows); the table plays them from memory instead:
// once the player has drawn for the first time in a hole, this page forgets the peeked
// cards' identities. They are removed from the state frame as it arrives, so they are in no
// grid, no accessible name and no log line afterwards. The table option `show_peeked` and
// the display setting "keep the cards I looked at visible" turn this off.

import { pref } from "./api.js";

/** True when peeked cards are to be forgotten at this table (neither setting keeps them). */
export function memoryMode(table) {
  const kept = pref("showPeeked", false) || Boolean(table && table.options && table.options.show_peeked);
  return !kept;
}

/**
 * True once `seat` has drawn in the view's hole: a finished turn, or its own turn past the
 * draw (holding a card, or turning one up after a discard).
 */
export function pastFirstDraw(view, seat) {
  if (seat === null || seat === undefined || !view || view.phase === "setup") return false;
  if (view.turns && view.turns[seat] > 0) return true;
  if (view.held_by === seat) return true;
  return view.current_player === seat && (view.phase === "hold" || view.phase === "flip");
}

/**
 * The state frame as this page keeps it: in memory mode, past the first draw, the seat's
 * peeked face-down cards become unknown (null). The positions stay in `view.peeked`: where a
 * player looked is public (`peeked_cells`), only the cards are forgotten. `latch` remembers
 * per match and hole that the draw happened (a Set of "match:hole"), so that no later frame
 * brings the cards back.
 */
export function forgetPeeks(msg, seat, table, latch) {
  const view = msg && msg.view;
  if (!view || !memoryMode(table) || seat === null || seat === undefined) return msg;
  const key = `${msg.match}:${view.hole}:${view.playoff ? "p" : ""}`;
  if (pastFirstDraw(view, seat)) latch.add(key);
  if (!latch.has(key) || view.phase === "over" || !view.grids[seat]) return msg;
  const up = view.face_up[seat] || [];
  const grid = view.grids[seat].map((card, i) =>
    (view.peeked || []).includes(i + 1) && !up[i] ? null : card);
  const grids = view.grids.slice();
  grids[seat] = grid;
  return { ...msg, view: { ...view, grids } };
}

/** True when this page has forgotten the seat's peeked cards in `view` (for the labels). */
export function forgotten(view, seat, pos) {
  return Boolean(view && seat === view.seat && view.peeked && view.peeked.includes(pos)
    && view.grids[seat] && view.grids[seat][pos - 1] === null
    && !(view.face_up[seat] || [])[pos - 1]);
}

// Memory mode (presets whose setup is a private peek: four-card-wild, german): once a player
// has drawn in a hole, the server sends their peeked cards as unknown (golf.view.remembered,
// the engine's statement of the rule), so they are in no grid and no accessible name. This
// page only words it: a hidden peeked card is "one you looked at", and the log never names
// a peeked card (it would outlive the first draw). The table option `show_peeked` and the
// display setting "keep the cards I looked at visible" (sent as `show_peeks`) turn it off.

import { pref } from "./api.js";

// Whether the page shows a rated table: there memory mode is the table's rule, the same for
// everyone, and the display setting is neither offered nor sent (docs/protocol.md, `rated`).
let ratedShown = false;

/** The table on the page is rated (or not): the display menu hides "keep … visible". */
export function setRatedTable(rated) {
  ratedShown = Boolean(rated);
  const row = document.getElementById("pref-peeked-row");
  const note = document.getElementById("pref-peeked-rated");
  if (row) row.hidden = ratedShown;
  if (note) note.hidden = !ratedShown;
}

/** True while the page shows a rated table. */
export function ratedTable() {
  return ratedShown;
}

/** True when peeked cards are to be forgotten at this table (neither setting keeps them). */
export function memoryMode(table) {
  if (table && table.memory === false) return false;
  const own = !(table && table.rated) && pref("showPeeked", false);
  const kept = own || Boolean(table && table.options && table.options.show_peeked);
  return !kept;
}

/** True when the seat's peeked card at `pos` is hidden again in `view` (for the labels). */
export function forgotten(view, seat, pos) {
  return Boolean(view && seat === view.seat && view.peeked && view.peeked.includes(pos)
    && view.grids[seat] && view.grids[seat][pos - 1] === null
    && !(view.face_up[seat] || [])[pos - 1]);
}

// Cards that move (issue 22): a drawn card travels from the stock or the discard pile to the
// hand, a swapped card from the grid to the discard pile (and the held card into the grid), a
// discarded card from the hand to the pile. FLIP: the page is redrawn at once, then each card
// that moved starts where it was before (First), is measured where it is now (Last), is moved
// back by a transform (Invert) and slides home (Play). Under 300 ms; nothing at all when the
// reader asked for reduced motion. What moved is read from the engine's event facts only.

import { prefersReducedMotion } from "./dom.js";

export const DURATION_MS = 240;
const EASING = "cubic-bezier(.2, .7, .3, 1)";

const STOCK = ".center > .pile-wrap:nth-child(1) .pile";
const DISCARD = ".center > .pile-wrap:nth-child(2) .pile";

function heldSelector(seat, mySeat) {
  return seat === mySeat ? ".center .held-card" : `[data-seat="${seat}"] .held-card`;
}

function cellSelector(seat, position) {
  return `[data-seat="${seat}"] .grid > :nth-child(${position})`;
}

/** The card drawing inside a place on the table (what actually moves). */
function artOf(board, selector) {
  const place = board.querySelector(selector);
  return place ? place.querySelector(".card-svg") || place : null;
}

// Where a place is. Measured on the place, not on its drawing: a card that flips over is
// squeezed to no width at the start of its turn (the CSS flip-in), its place is not.
function rectOf(board, selector) {
  const place = board.querySelector(selector);
  return place ? place.getBoundingClientRect() : null;
}

/**
 * Where the places of the table are before a redraw: the piles, each seat's card in hand and
 * its grid cells, by selector. Call it before the board is redrawn.
 */
export function capture(board) {
  const rects = new Map();
  const note = (selector) => {
    const rect = rectOf(board, selector);
    if (rect) rects.set(selector, rect);
  };
  note(STOCK);
  note(DISCARD);
  note(".center .held-card");
  for (const seat of board.querySelectorAll("[data-seat]")) {
    const s = seat.dataset.seat;
    note(`[data-seat="${s}"] .held-card`);
    seat.querySelectorAll(".grid > *").forEach((_, i) => note(cellSelector(s, i + 1)));
  }
  return rects;
}

/** Slide `art` (now at the place `to`) from the rectangle `from`. */
function travel(art, to, from) {
  if (!art || !to || !from) return null;
  if (!to.width || !from.width) return null;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return null;
  const k = from.width / to.width;
  art.classList.add("moving");
  const animation = art.animate(
    [{ transform: `translate(${dx.toFixed(1)}px, ${dy.toFixed(1)}px) scale(${k.toFixed(3)})` },
      { transform: "none" }],
    { duration: DURATION_MS, easing: EASING });
  animation.addEventListener("finish", () => art.classList.remove("moving"));
  animation.addEventListener("cancel", () => art.classList.remove("moving"));
  return animation;
}

// The moves one event's facts describe: [where the card was (a selector of the old page),
// where it is now (a selector of the new page)].
function movesOf(event, mySeat) {
  const moves = [];
  for (const f of (event && event.facts) || []) {
    const held = heldSelector(f.seat, mySeat);
    if (f.type === "draw") moves.push([f.from === "stock" ? STOCK : DISCARD, held]);
    else if (f.type === "swap") {
      moves.push([cellSelector(f.seat, f.position), DISCARD]);
      moves.push([held, cellSelector(f.seat, f.position)]);
    } else if (f.type === "discard") moves.push([held, DISCARD]);
  }
  return moves;
}

let played = null; // the match:version last animated, so that a mere redraw does not repeat it

/**
 * After a redraw: play the moves of the event that led to this state.
 * `before` is capture()'s result, `key` names the state (match and version), `fresh` is
 * false when there is no earlier state on this page (a load or reconnect: nothing moved).
 */
export function playMoves(board, before, { event, key, fresh, mySeat }) {
  if (played === key) return [];
  played = key;
  if (!fresh || !event || prefersReducedMotion()) return [];
  const out = [];
  for (const [from, to] of movesOf(event, mySeat)) {
    // A swapped card's cell is in the same place before and after: read it from either page.
    const start = before.get(from) || (from.includes(".grid") ? rectOf(board, from) : null);
    const animation = travel(artOf(board, to), rectOf(board, to), start);
    if (animation) out.push(animation);
  }
  return out;
}

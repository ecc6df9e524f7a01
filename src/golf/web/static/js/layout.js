// Keeping the table in view (issue 22, "Always in view"): after every render the card sizes
// are chosen so that the player's own grid, the piles, the card in hand, the prompt and the
// action buttons fit the window without scrolling, from a 1366×768 laptop down to a 360×640
// phone, with up to eight seats and a 3×3 grid. CSS lays the table out (golf.css, section
// "layout: the table in view"); this module only sets three widths on the board:
// --my-card-w, --opp-card-w and --pile-card-w. The layout is measured, not predicted, so a
// final-turns banner, a long prompt or a wrapped header are all accounted for.

// Card widths in CSS pixels: [smallest, largest]. One number s in [0, 1] moves all three
// between their bounds together; the largest s that fits wins.
// The smallest opponent's card is 17 px wide: its big index (cards.js) is then 12 px high,
// the smallest rank the sweep of issue 30 accepts.
// The own card goes down to 28 px (its big index still 20 px high), so that a 3×3 grid, a
// three-line German prompt and four buttons in two rows (knocking) fit a 360×640 phone.
const RANGE = {
  my: [28, 96],
  opp: [17, 46],
  oppWatching: [20, 72],
  pile: [36, 84],
};
// Cards narrower than this show their big index instead of the full face (golf.css, "small
// cards"): the corner's rank of a full face would be drawn under 12 px.
const SMALL = 42;
const GAP = 0.12; // the grid's gap, as a fraction of the card width (golf.css .grid)
// The own grid's columns are at least this far apart: room for two targets' rings (golf.css).
const RING_GAP = 6;
const MARGIN = 6; // room left under the last thing that must be seen, in px
const STEPS = 8; // bisection steps: 1/256 of the range is below a pixel
const NARROW = 700; // px: golf.css puts the piles in a column below this width

function lerp([lo, hi], s) {
  return lo + (hi - lo) * s;
}

/** The widest card for which `cols` cards and their gaps (at least `least` px) fit in
 * `width` pixels. */
function widthCap(width, cols, least = 0) {
  return Math.min(width / (cols + GAP * (cols - 1)), (width - least * (cols - 1)) / cols);
}

/** The elements that must be seen without scrolling, in this board as rendered. */
function mustSee(board) {
  const mine = board.querySelector(".my-area");
  const list = [".center", ".held-card"];
  if (mine) list.push(".my-area .grid", ".my-area .prompt", ".my-area .actions");
  else list.push(".opponents");
  return list.map((sel) => board.querySelectorAll(sel)).flatMap((nodes) => [...nodes])
    .filter((el) => el.getClientRects().length);
}

function set(board, my, opp, pile) {
  board.style.setProperty("--my-card-w", `${my.toFixed(1)}px`);
  board.style.setProperty("--opp-card-w", `${opp.toFixed(1)}px`);
  board.style.setProperty("--pile-card-w", `${pile.toFixed(1)}px`);
  board.classList.toggle("small-my", my < SMALL);
  board.classList.toggle("small-opp", opp < SMALL);
  board.classList.toggle("small-pile", pile < SMALL);
}

// How far the lowest must-see element reaches below the window's bottom edge (positive:
// it does not fit), measured from the top of the page so that a scrolled page fits too.
function overflow(elements) {
  let bottom = 0;
  let right = 0;
  for (const el of elements) {
    const r = el.getBoundingClientRect();
    bottom = Math.max(bottom, r.bottom + window.scrollY);
    right = Math.max(right, r.right + window.scrollX);
  }
  const tooLow = bottom - (window.innerHeight - MARGIN);
  const tooWide = right - document.documentElement.clientWidth;
  return Math.max(tooLow, tooWide);
}

// Upper bounds from the width alone: each opponent's grid shares one row of the strip, and
// the own grid fits its area.
function caps(board) {
  const grid = board.querySelector(".grid");
  const cols = grid ? Number(getComputedStyle(grid).getPropertyValue("--cols")) || 3 : 3;
  const strip = board.querySelector(".opponents");
  const panels = strip ? strip.querySelectorAll(".seat-panel") : [];
  let opp = Infinity;
  if (strip && panels.length) {
    const style = getComputedStyle(strip);
    const gap = parseFloat(style.columnGap) || 0;
    const panel = getComputedStyle(panels[0]);
    const chrome = parseFloat(panel.paddingLeft) + parseFloat(panel.paddingRight)
      + parseFloat(panel.borderLeftWidth) + parseFloat(panel.borderRightWidth);
    const each = (strip.clientWidth - gap * (panels.length - 1)) / panels.length - chrome;
    opp = widthCap(each, cols);
  }
  let my = Infinity;
  const area = board.querySelector(".my-area");
  if (area) {
    const style = getComputedStyle(area);
    const inner = area.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    // A little room for the targets' outline and the key badges at the sides.
    my = widthCap(inner - 16, cols, RING_GAP);
  }
  return { my, opp };
}

/** Choose the card sizes for this board so that what must be seen is in view: in the
 * moment shown and, for a seated player, in the two tallest moments of a turn (before the
 * draw; with a card in hand: golf.css, ".room"), so that the cards keep their size and
 * place when a draw comes. The sizes that fit all of them win. */
export function fitTable(board) {
  if (!board || !board.querySelector(".felt")) return;
  const now = fitMoment(board, null);
  let s = now.s;
  if (board.querySelector(".my-area .room")) {
    // The turn's two moments cost a fit each; they change only with the window, the words
    // (the language), the grids and a banner, so their scale is kept for those.
    const key = roomKey(board);
    let rooms = roomFits.get(board);
    if (!rooms || rooms.key !== key) {
      rooms = { key, s: Math.min(fitMoment(board, "fit-draw").s, fitMoment(board, "fit-hold").s) };
      roomFits.set(board, rooms);
    }
    s = Math.min(s, rooms.s);
  }
  now.apply(s);
}

// board -> { key, s }: the scale that fits both moments of a turn, and what it was fitted for.
const roomFits = new WeakMap();

function roomKey(board) {
  const rooms = [...board.querySelectorAll(".my-area .room")].map((el) => el.textContent);
  return [window.innerWidth, window.innerHeight, ...rooms,
    board.querySelectorAll(".cell").length, board.querySelectorAll(".final-banner").length]
    .join("|");
}

/** fit() with one moment's stand-ins shown (null: the moment itself). */
function fitMoment(board, moment) {
  board.classList.add("fitting");
  if (moment) board.classList.add(moment);
  try {
    return fit(board);
  } finally {
    board.classList.remove("fitting");
    if (moment) board.classList.remove(moment);
  }
}

/** The largest scale (0 to 1) at which what must be seen is in view, and how to apply one. */
function fit(board) {
  const watching = !board.querySelector(".my-area");
  const oppRange = watching ? RANGE.oppWatching : RANGE.opp;
  // Start from the largest sizes so that the width caps are measured on the real layout.
  set(board, RANGE.my[1], oppRange[1], RANGE.pile[1]);
  const cap = caps(board);
  // On a narrow screen the piles stand in a column beside the own grid: never wider than its
  // cards, so that the column leaves the grid its width.
  const narrow = document.documentElement.clientWidth < NARROW;
  const apply = (s) => {
    const my = Math.min(cap.my, lerp(RANGE.my, s));
    const pile = lerp(RANGE.pile, s);
    set(board, my, Math.max(Math.min(cap.opp, lerp(oppRange, s)), oppRange[0]),
      narrow && !watching ? Math.max(RANGE.pile[0], Math.min(pile, my)) : pile);
  };
  const elements = mustSee(board);
  apply(1);
  // Once the match is over nothing is left to do on the table: the result stands above it,
  // and the cards keep their size (the page scrolls) rather than shrink to fit under it.
  if (board.querySelector(".result-panel") || overflow(elements) <= 0) return { s: 1, apply };
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < STEPS; i++) {
    const mid = (lo + hi) / 2;
    apply(mid);
    if (overflow(elements) <= 0) lo = mid;
    else hi = mid;
  }
  return { s: lo, apply };
}

/** The height of the sticky top bar, for what is pinned under it (the connection banner). */
function noteTopbar() {
  const bar = document.getElementById("topbar");
  if (bar) {
    document.documentElement.style.setProperty("--topbar-h", `${bar.getBoundingClientRect().height}px`);
  }
}

/** Refit when the window changes size or turns; returns the function that stops it. */
export function keepFitted(board) {
  let frame = 0;
  const again = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      noteTopbar();
      fitTable(board);
    });
  };
  noteTopbar();
  window.addEventListener("resize", again);
  window.addEventListener("orientationchange", again);
  return () => {
    cancelAnimationFrame(frame);
    window.removeEventListener("resize", again);
    window.removeEventListener("orientationchange", again);
  };
}

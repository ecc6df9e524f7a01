// Playing cards drawn as SVG by our own code: a face for a card the viewer may see, a back for
// every other card. A back carries nothing about the card under it (no id, no data, no text):
// the page only ever gets the cards the server's view lets this viewer see.

import { svg } from "./dom.js";
import { lang } from "./i18n.js";
import { cardName } from "./names.js";

// German cards name the jack Bube (B) and the queen Dame (D); king and ace keep K and A.
const RANK_LETTERS = { de: { J: "B", Q: "D" } };

/** The rank as printed on a card in the page's language ("J" in English, "B" in German). */
export function rankLetter(rank) {
  return (RANK_LETTERS[lang()] || {})[rank] || rank;
}

const SUITS = {
  S: { symbol: "\u2660", two: "#1b1b1f", four: "#1b1b1f" },
  H: { symbol: "\u2665", two: "#c3202b", four: "#c3202b" },
  D: { symbol: "\u2666", two: "#c3202b", four: "#1f5fbf" },
  C: { symbol: "\u2663", two: "#1b1b1f", four: "#1d7a36" },
};

/** "10H" -> {rank: "10", suit: "H"}; "JK" -> {rank: "JK", suit: null} */
export function parseCard(card) {
  if (card === "JK" || card === "JOKER") return { rank: "JK", suit: null };
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

export function suitSymbol(suit) {
  return SUITS[suit] ? SUITS[suit].symbol : "\u2605";
}

/** A short visible form for text ("7♣", "Joker" as "★"). */
export function cardText(card) {
  const { rank, suit } = parseCard(card);
  return rank === "JK" ? "\u2605" : `${rankLetter(rank)}${suitSymbol(suit)}`;
}

export function suitColour(card, fourColour) {
  const { suit } = parseCard(card);
  if (!suit) return "#6b2a8f";
  return fourColour ? SUITS[suit].four : SUITS[suit].two;
}

/** The face of a card the viewer may see. Beside the full drawing (its corner and its pips or
 * court figure) it holds the card's big index, a rank and suit filling the card, which a small
 * card shows instead (golf.css, "small cards"; js/layout.js marks the board's small cards):
 * a rank drawn in the corner of a 30-px card would be 7 px high, too small to read. */
export function cardFace(card, { fourColour = false, label = null, decorative = false } = {}) {
  const { rank, suit } = parseCard(card);
  const colour = suitColour(card, fourColour);
  const name = label || cardName(card);
  // A decorative card (the logo, the lobby's fan) carries no name: it is no card in play.
  const root = svg("svg", decorative
    ? { viewBox: "0 0 60 84", class: "card-svg face", "aria-hidden": "true", focusable: "false" }
    : { viewBox: "0 0 60 84", class: "card-svg face", role: "img", "aria-label": name,
      focusable: "false" });
  if (!decorative) root.append(svg("title", {}, name));
  root.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-paper" }));
  const full = svg("g", { class: "face-full" });
  const index = svg("g", { class: "face-index" });
  root.append(full, index);
  if (rank === "JK") {
    full.append(svg("text", { x: 30, y: 50, "text-anchor": "middle", class: "pip-big",
      fill: colour, "font-size": 34 }, "\u2605"));
    full.append(svg("text", { x: 6, y: 17, class: "corner-rank", fill: colour,
      "font-size": 11 }, "JOKER"));
    full.append(svg("text", { x: 54, y: 78, "text-anchor": "end", class: "corner-rank",
      fill: colour, "font-size": 11 }, "JOKER"));
    index.append(svg("text", { x: 30, y: 58, "text-anchor": "middle", class: "corner-rank",
      fill: colour, "font-size": 50 }, "\u2605"));
    return root;
  }
  const symbol = SUITS[suit].symbol;
  const wide = rank.length > 1;
  full.append(svg("text", { x: wide ? 4 : 6, y: 21, class: "corner-rank", fill: colour,
    "font-size": wide ? 18 : 20, "letter-spacing": wide ? -1.5 : 0 }, rankLetter(rank)));
  full.append(svg("text", { x: 6.5, y: 36, class: "corner-suit", fill: colour,
    "font-size": 14 }, symbol));
  if ("JQK".includes(rank)) {
    full.append(svg("rect", { x: 20, y: 16, width: 34, height: 62, rx: 5, class: "court-frame",
      stroke: colour }));
    full.append(svg("text", { x: 37, y: 55, "text-anchor": "middle", class: "court-letter",
      fill: colour, "font-size": 28 }, rankLetter(rank)));
    full.append(svg("text", { x: 37, y: 71, "text-anchor": "middle", fill: colour,
      "font-size": 13 }, symbol));
  } else {
    full.append(svg("text", { x: 36, y: 66, "text-anchor": "middle", class: "pip-big",
      fill: colour, "font-size": 36 }, symbol));
  }
  // The index: the rank across the card's upper half, the suit under it.
  index.append(svg("text", { x: 30, y: 44, "text-anchor": "middle", class: "corner-rank",
    fill: colour, "font-size": wide ? 44 : 48, "letter-spacing": wide ? -5 : 0 },
  rankLetter(rank)));
  index.append(svg("text", { x: 30, y: 76, "text-anchor": "middle", class: "corner-suit",
    fill: colour, "font-size": 30 }, symbol));
  return root;
}

/** The back of a card: the same drawing for every hidden card. */
export function cardBack({ label = null } = {}) {
  const root = svg("svg", { viewBox: "0 0 60 84", class: "card-svg back", role: "img",
    "aria-label": label || cardName(null), focusable: "false" });
  root.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "back-paper" }));
  root.append(svg("rect", { x: 5, y: 5, width: 50, height: 74, rx: 4, class: "back-field" }));
  // A little golf flag on a green: our card back.
  root.append(svg("circle", { cx: 30, cy: 42, r: 13, class: "back-green" }));
  root.append(svg("path", { d: "M28 52 V30 L39 34.5 L28 39", class: "back-flag" }));
  return root;
}

/** An empty place (an empty stock or discard pile). */
export function cardSpace(label) {
  const root = svg("svg", { viewBox: "0 0 60 84", class: "card-svg space", role: "img",
    "aria-label": label, focusable: "false" });
  root.append(svg("rect", { x: 2, y: 2, width: 56, height: 80, rx: 6, class: "space-line" }));
  return root;
}

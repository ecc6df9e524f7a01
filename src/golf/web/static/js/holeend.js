// The end of a hole (every grid face up, what cancelled and why: the hole_end fact's result
// with the frame's scoring, the engine scorer's explanation) and the match result.

import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import "./strings/holeend.js";
import { cardFace } from "./cards.js";
import { aboutSeats, seatName } from "./narrate.js";
import "./strings/handover.js";

const WHERE = { column: "columns", row: "rows", "row-pair": "row-pairs", diagonal: "diagonals",
  adjacent: "adjacent",
  pair: "pairs", block: "blocks" };
// A matched group is shown by a coloured outline and a shape, never a letter (an "A" would
// read as an ace); the sentence under the grid starts with the same shape.
const GROUP_MARKS = ["●", "▲", "■", "◆", "✚", "★", "⬟", "▼"];
const groupMark = (i) => GROUP_MARKS[i % GROUP_MARKS.length];

function whereText(match) {
  const rule = String(match.rule || "").replace(/s$/, "");
  const key = WHERE[rule];
  const n = (String(match.label || "").match(/(\d+)/) || [])[1];
  if (!key) return match.label || t("where.match");
  return t(`where.${key}`, { n: n || "" });
}

/** Matched groups of one grid, as plain sentences. */
export function explainLines(explained) {
  if (!explained || !explained.matches || !explained.matches.length) return [t("holeEnd.none")];
  const byPos = new Map((explained.cards || []).map((c) => [c.position, c.card]));
  return explained.matches.map((m, i) => `${groupMark(i)} – ` + t("holeEnd.match", {
    where: whereText(m),
    cards: m.cells.map((p) => byPos.get(p)).join(", "),
    points: m.points,
  }));
}

function revealedGrid(cards, rows, cols, explained, fourColour) {
  const groups = new Map();
  (explained && explained.matches ? explained.matches : []).forEach((m, i) => {
    for (const p of m.cells) {
      if (!groups.has(p)) groups.set(p, []);
      groups.get(p).push(i);
    }
  });
  const points = new Map(((explained && explained.cards) || []).map((c) => [c.position, c.points]));
  return h("div.grid.small", { style: `--cols:${cols};--rows:${rows}` },
    cards.map((card, i) => {
      const pos = i + 1;
      const marks = groups.get(pos) || [];
      const art = cardFace(card, { fourColour });
      art.setAttribute("aria-hidden", "true");
      // The marks and the points sit in a line under the card, never over its corners.
      return h("div.cell" + (marks.length ? `.matched.group-${marks[0] % GROUP_MARKS.length}` : ""), {
        role: "img",
        "aria-label": `${pos}: ${art.querySelector("title").textContent}, ${points.get(pos) ?? ""}` },
        art,
        h("span.cell-foot", { "aria-hidden": "true" },
          marks.length ? h("span.group-tag", { text: marks.map(groupMark).join("") }) : null,
          h("span.points-tag", { text: String(points.get(pos) ?? "") })));
    }));
}

/** The body of the hole-end dialog. */
export function holeEndEl(holeOver, view, table, mySeat, fourColour) {
  const rows = view.rows;
  const cols = view.cols;
  const order = holeOver.grids.map((g, s) => s).filter((s) => holeOver.grids[s]);
  const best = Math.min(...order.map((s) => holeOver.scores[s]));
  const title = holeOver.playoff ? t("holeEnd.playoff") : t("holeEnd.title", { n: holeOver.number });
  const who = [];
  if (holeOver.knocked_by !== null && holeOver.knocked_by !== undefined) {
    who.push(holeOver.knocked_by === mySeat ? t("holeEnd.knockedYou")
      : t("holeEnd.knocked", { name: seatName(table, holeOver.knocked_by, mySeat) }));
  } else if (holeOver.went_out !== null && holeOver.went_out !== undefined) {
    who.push(holeOver.went_out === mySeat ? t("holeEnd.wentOutYou")
      : t("holeEnd.wentOut", { name: seatName(table, holeOver.went_out, mySeat) }));
  }
  return h("div.hole-end", {},
    h("h2#dialog-title", { text: title }),
    who.length ? h("p", { text: who.join(" ") }) : null,
    h("div.reveal-list", {}, order.map((s) => {
      const ex = holeOver.explained ? holeOver.explained[s] : null;
      const score = holeOver.scores[s];
      return h("section.reveal" + (score === best ? ".best" : ""), {
        "aria-label": `${seatName(table, s, mySeat)}: ${tn("holeEnd.points", score, { n: score })}` },
        h("div.reveal-head", {},
          h("strong", { text: seatName(table, s, mySeat) }),
          h("span.score-pill", { text: tn("holeEnd.points", score, { n: score }) }),
          score === best ? h("span.star", { text: "★", "aria-hidden": "true" }) : null),
        revealedGrid(holeOver.grids[s], rows, cols, ex, fourColour),
        h("ul.explain", {}, explainLines(ex).map((line) => h("li", { text: line }))));
    })));
}

/** The seats whose person left the match (the table summary's `abandoned`, which at the
 * match's end is its stored result's: docs/protocol.md). */
export function leftSeats(table) {
  return new Set(((table && table.seats) || []).filter((s) => s.abandoned).map((s) => s.seat));
}

/**
 * Seats in the order the match counts them, with shared places: [{seat, total, place, left}].
 * As the server places them (golf.results.placings, golf.ratings.effective_places): those
 * who left last whatever their total, then the winners (a playoff may settle a tie), then
 * by total, lower first.
 */
export function placings(view, left = new Set()) {
  const winners = view.winners || [];
  const key = (s) => [left.has(s.seat) ? 1 : 0, winners.includes(s.seat) ? 0 : 1,
    left.has(s.seat) ? 0 : s.total];
  const cmp = (a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i += 1) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return 0;
  };
  const seats = view.totals.map((total, seat) => ({ seat, total, left: left.has(seat) }));
  seats.sort((a, b) => cmp(a, b) || a.seat - b.seat);
  seats.forEach((s, i) => {
    s.place = i && !cmp(s, seats[i - 1]) ? seats[i - 1].place : i + 1;
  });
  return seats;
}

/** Who won as the match counts it: the first place, never one who left (the cards' winners
 * when everybody left). */
export function matchWinners(view, left = new Set()) {
  const first = placings(view, left).filter((p) => p.place === 1 && !p.left).map((p) => p.seat);
  return first.length ? first : view.winners || [];
}

export function resultEl(view, table, mySeat, left = leftSeats(table)) {
  const winners = matchWinners(view, left);
  const names = winners.map((s) => seatName(table, s, mySeat));
  let headline;
  if (winners.length === 1 && winners[0] === mySeat) headline = t("match.youWin");
  else if (winners.length === 1) headline = t("match.wins", { names: names[0] });
  else headline = aboutSeats("match.share", winners, mySeat, (s) => seatName(table, s, mySeat));
  return h("div.result", {},
    h("h2", { text: t("match.over") }),
    h("p.headline", { text: headline }),
    h("ol.placings", {}, placings(view, left).map((p) => h("li" + (winners.includes(p.seat) ? ".winner" : "")
      + (p.left ? ".left" : ""), {},
      h("span.place", { text: t("match.place", { n: p.place }) }),
      h("span.who", { text: seatName(table, p.seat, mySeat) }),
      h("span.total", { text: tn("match.points", p.total, { n: p.total }) }),
      p.left ? h("span.tag.left-mark", { text: t("result.left") }) : null,
      winners.includes(p.seat) ? h("span.trophy", { text: "★", "aria-hidden": "true" }) : null))));
}

/** The scorecard: one row per hole, one column per seat, totals at the bottom. */
export function scorecardEl(view, table, mySeat) {
  const seats = view.totals.map((_, s) => s);
  const holes = view.hole_scores || [];
  const playoffs = view.playoff_scores || [];
  return h("table.scorecard", {},
    h("caption.sr-only", { text: t("score.title") }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("score.hole") }),
      seats.map((s) => h("th", { scope: "col", text: seatName(table, s, mySeat) })))),
    h("tbody", {},
      holes.map((row, i) => h("tr", {}, h("th", { scope: "row", text: String(i + 1) }),
        seats.map((s) => h("td", { text: row[s] === null || row[s] === undefined ? "–" : String(row[s]) })))),
      playoffs.map((row) => h("tr.playoff", {}, h("th", { scope: "row", text: t("score.playoff") }),
        seats.map((s) => h("td", { text: row[s] === null || row[s] === undefined ? "–" : String(row[s]) }))))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: t("score.total") }),
      seats.map((s) => h("td", { text: String(view.totals[s]) })))));
}

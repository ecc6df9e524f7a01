// Sentences for the engine's turn events (docs/protocol.md, "state": its event), for the log,
// the live region and the "last move" line: one sentence per fact the engine reports
// (docs/events.md). Only what the event and the receiver's view say is used: a card the
// receiver may not see arrives as null and is never named. A peek's card is the peeker's
// alone, read from its own view (the event never holds it).

import { isolate, t } from "./i18n.js";
import { cardName, joinNames } from "./names.js";
import "./strings/common.js";
import "./strings/narrate.js";
import "./strings/errors.js";
import { cardText } from "./cards.js";

export function parseAction(text) {
  const [kind, pos] = String(text).split(" ");
  return { kind, pos: pos === undefined ? null : Number(pos) };
}

export function seatName(table, seat, mySeat) {
  if (seat === mySeat && mySeat !== null && mySeat !== undefined) return t("common.you");
  const info = table && table.seats && table.seats[seat];
  if (info && info.kind === "bot" && ["easy", "medium", "hard"].includes(info.bot)) {
    // Bots of one level are told apart by the server's number (the seat's `bot_number`,
    // golf.server.tables.seating): "Easy bot", "Easy bot 2", in the page's language.
    const n = info.bot_number || 1;
    return n > 1 ? `${t(`lobby.seat.${info.bot}`)} ${n}` : t(`lobby.seat.${info.bot}`);
  }
  return info && info.name ? isolate(info.name) : `#${seat + 1}`;
}

/**
 * A sentence about several seats that may include the reader: its own wording then (key
 * ".you" alone, ".youAnd" with the others in {names}), never "You and Bob play" built from a
 * name. `nameOf(seat)` names the others.
 */
export function aboutSeats(key, seats, mySeat, nameOf, params = {}) {
  const list = seats || [];
  const mine = mySeat !== null && mySeat !== undefined && list.includes(mySeat);
  const others = joinNames(list.filter((s) => s !== mySeat || !mine).map(nameOf));
  if (!mine) return t(key, { ...params, names: others });
  return t(list.length > 1 ? `${key}.youAnd` : `${key}.you`, { ...params, names: others });
}

/** The hole_end fact's result, when the event ended a hole (else null). */
export function holeEnd(event) {
  const f = event && event.facts ? event.facts.find((x) => x.type === "hole_end") : null;
  return f && f.result ? f.result : null;
}

/** True when the event ended the match (a match_end fact). */
export function matchEnded(event) {
  return Boolean(event && event.facts && event.facts.some((x) => x.type === "match_end"));
}

// A fact's sentence: its i18n key (".you" for the receiver's own) and parameters; cards are
// named by `named` (symbols for text, words for speech).
function factSentence(f, ctx, named) {
  const mine = f.seat !== undefined && f.seat === ctx.mySeat;
  const who = f.seat === undefined ? "" : seatName(ctx.table, f.seat, ctx.mySeat);
  const names = (key, seats, params) => aboutSeats(key, seats, ctx.mySeat,
    (s) => seatName(ctx.table, s, ctx.mySeat), params);
  const card = (c) => (c ? named(c) : "?");
  const you = (key) => (mine ? `${key}.you` : key);
  switch (f.type) {
    case "draw":
      return t(you(f.from === "stock" ? "ev.draw" : "ev.take"), { name: who, card: card(f.card) });
    case "swap":
      return t(you("ev.swap"), { name: who, card: card(f.card), old: card(f.discarded),
        n: f.position });
    case "discard":
      return t(you("ev.discard"), { name: who, card: card(f.card) });
    case "flip":
    case "reveal":
      return t(you(`ev.${f.type}`), { name: who, card: card(f.card), n: f.position });
    case "pass":
    case "knock":
      return t(you(`ev.${f.type}`), { name: who });
    case "peek": {
      // The peeked card is in the peeker's own view while that view still shows it (the
      // position is still among its peeked ones, face down).
      const v = ctx.view;
      const seen = mine && v && v.peeked && v.peeked.includes(f.position) && v.grids[f.seat]
        ? v.grids[f.seat][f.position - 1] : null;
      if (mine && !seen) return t("ev.peek.youUnseen", { n: f.position });
      return t(you("ev.peek"), { name: who, n: f.position, card: card(seen) });
    }
    case "reshuffle":
      return t("ev.reshuffle", { size: f.stock_size });
    case "final_turns":
      return names("ev.finalTurns", f.seats, { name: who });
    case "hole_end":
      return t(f.playoff ? "ev.playoffOver" : "ev.holeOver", { n: f.hole });
    case "playoff":
      return names("ev.playoff", f.seats, { n: f.hole });
    case "hole_start":
      return t(f.dealer === ctx.mySeat ? "ev.holeStart.you" : "ev.holeStart",
        { n: f.hole, name: seatName(ctx.table, f.dealer, ctx.mySeat) });
    case "match_end": {
      // As the match counts it: one who left never won, whatever the cards said (the
      // seats' `abandoned`, the stored result's at the match's end: docs/protocol.md).
      const left = new Set(((ctx.table && ctx.table.seats) || []).filter((s) => s.abandoned)
        .map((s) => s.seat));
      const won = (f.winners || []).filter((s) => !left.has(s));
      return won.length ? names("ev.matchWon", won) : t("ev.matchOver");
    }
    default:
      return "";
  }
}

/**
 * Why a match ended early (an event's `ended`), in the page's words: the absence policy's
 * end names the seat's person; another reason keeps the server's sentence.
 */
export function endedWords(event, table) {
  const info = table && table.seats && table.seats[event.seat];
  if (event.by === "absence" && info) {
    return t("ended.absent", { name: info.name || `#${event.seat + 1}` });
  }
  return event.ended;
}

/**
 * {text, spoken, lines}: every fact of the event as a sentence (lines), joined in text (card
 * symbols, 7♣) and spoken (card names, 7 of clubs). `view` is the receiver's current view
 * (for the peeker's own card, named only while that view still shows it); null in replays.
 */
export function narrate(event, table, mySeat, view = null) {
  if (!event) return null;
  if (event.action === null || event.action === undefined) {
    const text = event.ended ? t("match.ended", { reason: endedWords(event, table) }) : "";
    return { text, spoken: text, lines: text ? [text] : [] };
  }
  const ctx = { table, mySeat, view };
  const build = (named) => {
    const lines = (event.facts || []).map((f) => factSentence(f, ctx, named)).filter(Boolean);
    if (!lines.length) {
      lines.push(t("ev.other", { name: seatName(table, event.seat, mySeat), action: event.action }));
    }
    if (event.by === "timeout" || event.by === "stand_in") {
      const own = event.seat === mySeat && event.by === "stand_in" ? ".you" : "";
      lines[0] += " " + t(`ev.by.${event.by}${own}`);
    }
    return lines;
  };
  const lines = build(cardText);
  const spoken = build(cardName);
  return { text: lines.join(" "), spoken: spoken.join(" "), lines };
}

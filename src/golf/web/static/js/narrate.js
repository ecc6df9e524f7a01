// Sentences for the server's turn events (docs/protocol.md, "event"), for the log, the
// live region and the "last move" line. Only what the event says is used: a card the
// receiver may not see arrives as null and is never named.

import { cardName, t } from "./i18n.js";
import { cardText } from "./cards.js";

export function parseAction(text) {
  const [kind, pos] = String(text).split(" ");
  return { kind, pos: pos === undefined ? null : Number(pos) };
}

export function seatName(table, seat, mySeat) {
  if (seat === mySeat && mySeat !== null && mySeat !== undefined) return t("common.you");
  const info = table && table.seats && table.seats[seat];
  if (info && info.kind === "bot" && ["easy", "medium", "hard"].includes(info.bot)) {
    return t(`lobby.seat.${info.bot}`);
  }
  return (info && info.name) || `#${seat + 1}`;
}

/** {text, spoken}: text uses card symbols (7♣), spoken the card names (7 of clubs). */
export function narrate(event, table, mySeat) {
  if (!event) return null;
  if (event.action === null || event.action === undefined) {
    const text = event.ended ? t("match.ended", { reason: event.ended }) : "";
    return { text, spoken: text };
  }
  const { kind, pos } = parseAction(event.action);
  const mine = event.seat === mySeat;
  const key = `ev.${kind}${mine ? ".you" : ""}`;
  const base = { name: seatName(table, event.seat, mySeat), n: pos, action: event.action };
  const build = (named) => {
    const params = { ...base,
      card: event.card ? named(event.card) : "?",
      old: event.replaced ? named(event.replaced) : "?" };
    let text = t(key, params);
    if (text === key) text = t("ev.other", params);
    if (event.by === "timeout" || event.by === "stand_in") text += " " + t(`ev.by.${event.by}`);
    return text;
  };
  return { text: build(cardText), spoken: build(cardName) };
}

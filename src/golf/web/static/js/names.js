// The page's names of the game's things, in the page's language: a card ("7 of clubs", "Kreuz
// 7") and its article, a preset ("Six-card Golf") and its summary, a table's title, a player
// (a bot of a level a table seats), a list of names ("Ann, Bob and Cy"). Their words are in
// strings/names.js.

import { hasString, isolate, keyOfEnglish, t } from "./i18n.js";
import "./strings/names.js";

/** A preset's display name ("Six-card Golf"); unknown presets keep their own name. */
export function presetName(name) {
  const key = `preset.name.${name}`;
  return hasString(key) ? t(key) : name;
}

/** A preset's summary in plain words (the engine's descriptions are English one-liners). */
export function presetText(name, fallback) {
  const key = `preset.about.${name}`;
  return hasString(key) ? t(key) : fallback || name;
}

/** A rank's spoken name: "jack", "Bube", "7"; "JK" is the joker. */
export function rankName(code) {
  if (code === "JK") return t("card.joker");
  return ["A", "J", "Q", "K"].includes(code) ? t(`rank.${code}`) : code;
}

/** A card's spoken name: "7 of clubs", "Kreuz 7"; null is a face-down card. */
export function cardName(card) {
  if (card === null || card === undefined) return t("card.back");
  if (card === "JK") return rankName(card);
  return t("card.name", { rank: rankName(card.slice(0, -1)), suit: t(`suit.${card.slice(-1)}`) });
}

/** The article a card takes as an object ("den B♣", "die D♥", "das A♠", "die 7♦"; "the"). */
export function cardArticle(card) {
  const rank = card === "JK" ? "JK" : String(card).slice(0, -1);
  const gender = rank === "Q" || /^\d+$/.test(rank) ? "f" : rank === "A" ? "n" : "m";
  return t(`card.the.${gender}`);
}

/**
 * A table's name in the page's language: the names the server gives by default ("Ann's
 * table", "Quick play · Six-card Golf", which names the game as golf.rules.PRESET_TITLES
 * does; before, "Quick play: six-card") are worded here; a name someone typed stays as it is.
 */
export function tableTitle(title) {
  const text = String(title || "");
  const own = text.match(/^(.+)'s table$/);
  if (own) return t("lobby.defaultTitle", { name: own[1] });
  const quick = text.match(/^Quick play · (.+)$/);
  const preset = quick && keyOfEnglish("preset.name.", quick[1]);
  if (preset) return t("title.quick", { preset: presetName(preset) });
  const older = text.match(/^Quick play: ([\w-]+)$/);
  if (older) return t("title.quick", { preset: presetName(older[1]) });
  return isolate(text);
}

/**
 * A player's name in the page's language: the names the server gives bots of a level a table
 * seats ("Easy bot", "Easy bot 2": golf.server.core.bridge.bot_label and its numbering) are worded
 * here ("Leichter Bot 2"), as at the table; any other name stays as it is.
 */
export function playerName(name) {
  const text = String(name ?? "");
  const bot = text.match(/^(Easy|Medium|Hard) bot(?: (\d+))?$/);
  if (!bot) return isolate(text);
  const level = t(`lobby.seat.${bot[1].toLowerCase()}`);
  return bot[2] ? `${level} ${bot[2]}` : level;
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy" (each name isolated: see isolate) */
export function joinNames(names) {
  const each = names.map(isolate);
  if (each.length <= 1) return each.join("");
  return each.slice(0, -1).join(", ") + t("match.and") + each[each.length - 1];
}

// What the server says, in the page's language (strings/errors.js): a refusal by its code,
// more precisely by its field or cause where the page has words for them; why a rated match
// was not rated; why a match ended early; why the server closed the connection. The server's
// own sentence is shown in English (it names its figures), and in another language only for
// a code this page does not know (a newer server's).

import { hasString, lang, t } from "./i18n.js";
import { presetName } from "./names.js";
import "./strings/errors.js";
import "./strings/profiles.js";

/** A rated variant's key ("six-card/3-4") in words: "Six-card Golf · 3-4 players". */
function variantWords(key) {
  const [preset, band] = String(key || "").split("/");
  return `${presetName(preset)} · ${t("profile.players", { band })}`;
}

function botWords(bot) {
  if (bot === "external") return t("error.not_rateable.external");
  return hasString(`lobby.seat.${bot}`) ? t(`lobby.seat.${bot}`) : bot;
}

/** The cause's placeholders: its bot and rated variant in words. */
function causeParams(cause) {
  return { bot: botWords(cause.bot), variant: variantWords(cause.variant) };
}

/** The page's own words for the refusal `err` ({code, field, cause, message, ...}), or null
 * where the server's sentence says it: in English, and for a code this page does not know. */
export function serverWords(err) {
  if (!err || !err.code) return null;
  if (err.code === "not_rateable" && err.cause && hasString(`error.not_rateable.${err.cause.reason}`)) {
    return t(`error.not_rateable.${err.cause.reason}`, causeParams(err.cause));
  }
  const precise = `error.${err.code}.${err.field}`;
  if (err.field && hasString(precise)) return t(precise);
  // In English the server's own sentence says the refusal, with its figures ("bot_delay must
  // be a number from 0 to 5, got 10"), as the engine's does (enginewords.js); another
  // language words the code generally rather than show that English.
  if (lang() === "en" && err.message) return null;
  return hasString(`error.${err.code}`) ? t(`error.${err.code}`) : null;
}

/** Why a table or match is casual, from its cause ({reason, bot?, variant?}: the summary's
 * `casual_cause`, the rating frame's `cause`), or null for a reason this page does not know. */
export function casualWords(cause) {
  const key = cause && `casual.${cause.reason}`;
  return key && hasString(key) ? t(key, causeParams(cause)) : null;
}

/** Why the server closed the connection (the `bye` frame's reason), or null. */
export function byeWords(reason) {
  return hasString(`bye.${reason}`) ? t(`bye.${reason}`) : null;
}

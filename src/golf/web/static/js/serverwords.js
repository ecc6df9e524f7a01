// The server's refusals in the page's language: a refusal whose code (and fields) this page
// has words for is worded here (strings/errors.js); any other keeps the server's sentence.

import { hasString, t } from "./i18n.js";
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

/** The page's own words for the refusal `err` ({code, field, cause, ...}), or null. */
export function serverWords(err) {
  if (!err) return null;
  if (err.code === "not_rateable" && err.cause && err.cause.reason) {
    const key = `error.not_rateable.${err.cause.reason}`;
    if (!hasString(key)) return null;
    return t(key, { bot: botWords(err.cause.bot), variant: variantWords(err.cause.variant) });
  }
  const key = `error.${err.code}.${err.field}`;
  return err.field && hasString(key) ? t(key) : null;
}

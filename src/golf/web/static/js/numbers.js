// Numbers in the reader's language (Intl.NumberFormat): ratings, rates, averages.

import { lang, t } from "./i18n.js";
import "./strings/names.js";

export function formatNumber(n, digits = 0) {
  if (n === null || n === undefined) return "–";
  return new Intl.NumberFormat(lang(), { maximumFractionDigits: digits,
    minimumFractionDigits: digits }).format(n);
}

export function formatPercent(share) {
  if (share === null || share === undefined) return "–";
  return new Intl.NumberFormat(lang(), { style: "percent", maximumFractionDigits: 0 }).format(share);
}

export function signed(n) {
  return new Intl.NumberFormat(lang(), { signDisplay: "exceptZero" }).format(n);
}

/** A bot's display name from its spec or difficulty: a level a table seats by the lobby's
 * words ("medium" -> "Medium bot", "Mittlerer Bot"), another by its name ("expert" -> "Expert"). */
export function botName(spec) {
  const name = String(spec).split(":")[0];
  if (["easy", "medium", "hard"].includes(name)) return t(`lobby.seat.${name}`);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

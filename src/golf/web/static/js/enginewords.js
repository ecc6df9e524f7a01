// The engine's validation messages in the page's language, from their error code and
// parameters (POST /api/rules/check's `codes`); a message without a code, or with a code
// this page does not know, stays the engine's own English sentence.

import { lang, t } from "./i18n.js";
import { presetName } from "./names.js";
import { choiceWords, settingWords } from "./rulewords.js";
import { num } from "./tablebits.js";
import "./strings/engine.js";

/** A setting's name in the page's language (an unknown one keeps its own key). */
function settingName(key) {
  return (key && settingWords(key).name) || key || "";
}

/** The code's parameters ready to fill in: numbers per locale, settings and choices named. */
function filled(code, p) {
  const out = {};
  // Every number in the page's digits and separators ("1.000" in German).
  for (const [k, v] of Object.entries(p)) out[k] = typeof v === "number" ? num(v) : v;
  out.name = settingName(p.key);
  out.allowed = (p.allowed || []).map((c) => {
    const words = p.key ? choiceWords(p.key, c) : null;
    return (words && words.name) || c;
  }).join(", ");
  out.ranks = (p.ranks || []).join(", ");
  out.preset = p.preset ? presetName(p.preset) : "";
  // unknown_setting: "did you mean …?" only when the engine found a close name.
  out.close = p.close ? t("engine.unknown_setting.close", { close: settingName(p.close) }) : "";
  // setup_count_over_cells: where the setup cards may lie.
  if (code === "setup_count_over_cells") out.where = t(p.where === "bottom-row" ? "engine.where.row" : "engine.where.grid");
  return out;
}

/** The message for one field: worded from `coded` ({code, params}) when known, else `message`. */
export function engineMessage(message, coded) {
  // In English the engine's own sentence is the message (it is written in English).
  if (!coded || !coded.code || lang() === "en") return message;
  const key = `engine.${coded.code}`;
  const text = t(key, filled(coded.code, coded.params || {}));
  return text === key ? message : text;
}

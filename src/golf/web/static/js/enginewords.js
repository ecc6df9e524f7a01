// The engine's validation messages in the page's language, from their error code and
// parameters (POST /api/rules/check's `codes`); a message without a code, or with a code
// this page does not know, stays the engine's own English sentence.

import { lang, presetName, t } from "./i18n.js";
import { choiceWords, settingWords } from "./rulewords.js";
import { num } from "./tablebits.js";
import "./strings/engine.js";

/** The message for one field: worded from `coded` ({code, params}) when known, else `message`. */
export function engineMessage(message, coded) {
  // In English the engine's own sentence is the message (it is written in English).
  if (!coded || !coded.code || lang() === "en") return message;
  const key = `engine.${coded.code}`;
  const p = coded.params || {};
  const setting = p.key ? settingWords(p.key).name || p.key : "";
  const allowed = (p.allowed || []).map((c) => {
    const words = p.key ? choiceWords(p.key, c) : null;
    return (words && words.name) || c;
  }).join(", ");
  const text = t(key, {
    ...p, name: setting, allowed,
    lo: typeof p.lo === "number" ? num(p.lo) : p.lo,
    hi: typeof p.hi === "number" ? num(p.hi) : p.hi,
    got: typeof p.got === "number" ? num(p.got) : p.got,
    preset: p.preset ? presetName(p.preset) : "",
  });
  return text === key ? message : text;
}

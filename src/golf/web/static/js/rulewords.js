// The words of the rule settings: each setting's name and explanation and the names of its
// choices, in every language, come from the engine (golf.rules.setting_schema, served as
// "settings" by GET /api/presets) and are written nowhere in the client. This module
// fetches them once per page and picks the page's language.

import { get } from "./api.js";
import { fill, lang, t } from "./i18n.js";
import "./strings/rules.js";

let pending = null;
let schema = null;

/** GET /api/presets, once per page (again after a failure): {presets, settings}. */
export function loadPresets() {
  if (!pending) {
    pending = get("/api/presets").then((data) => {
      schema = data.settings;
      return data;
    });
    pending.catch(() => { pending = null; });
  }
  return pending;
}

/** The schema of setting key (type, choices, range), or null before it has loaded. */
export function settingKind(key) {
  return (schema && schema[key]) || null;
}

function wordsOf(key) {
  const words = schema && schema[key] && schema[key].words;
  return words ? words[lang()] || words.en : null;
}

/** A setting's {name, explain} in the page's language (its key until the words arrive). */
export function settingWords(key) {
  return wordsOf(key) || { name: key, explain: "" };
}

/** A choice's {name, explain}; the explanation's fields ({rows}) are filled from params. */
export function choiceWords(key, value, params) {
  const words = wordsOf(key);
  const choice = words && words.choices && words.choices[value];
  if (!choice) return { name: String(value), explain: "" };
  return { name: choice.name, explain: fill(choice.explain, params) };
}

/** A setting's value in words: "on", "looked at in secret", "columns, rows", "2–6 players". */
export function valueText(key, value) {
  if (typeof value === "boolean") return t(value ? "rules.on" : "rules.off");
  if (key === "players" && Array.isArray(value)) {
    return t("lobby.players", { lo: value[0], hi: value[1] });
  }
  if (Array.isArray(value)) {
    // An empty list says so ("What cancels: nothing"), never an empty label.
    return value.length ? value.map((v) => choiceWords(key, v).name).join(", ") : t("rules.nothing");
  }
  if (value && typeof value === "object") {
    return Object.entries(value).map(([a, b]) => `${a} = ${b}`).join(", ");
  }
  return choiceWords(key, value).name;
}

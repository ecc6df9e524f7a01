// Small pieces of the table and its pages (issue 22, "small things"): mouse or touch words,
// the table options as a list, the house rules as a list, numbers in the page's language.

import { h, replace } from "./dom.js";
import { lang, t } from "./i18n.js";
import "./strings/options.js";
import { loadPresets, settingWords, valueText } from "./rulewords.js";
import "./strings/tablebits.js";

/** True on a touch screen (coarse pointer): prompts say "tap" there, "click" elsewhere. */
export function touch() {
  return Boolean(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
}

/** The prompt key for this pointer: `prompt.hold` on touch, `prompt.hold.click` with a mouse. */
export function pointerKey(key) {
  return touch() ? key : `${key}.click`;
}

/** A number in the page's language ("0.8", "0,8"). */
export function num(x) {
  return new Intl.NumberFormat(lang(), { maximumFractionDigits: 2 }).format(x);
}

const OPTION_ORDER = ["bot_delay", "absence", "grace", "turn_timer", "reserve", "show_peeked"];

function optionValue(key, value) {
  if (key === "absence") return t(`opt.absence.${value}`);
  if (key === "show_peeked") return t(value ? "opt.value.on" : "opt.value.off");
  if (value === null || value === undefined) return t("opt.value.none");
  return t("opt.value.seconds", { x: num(value) });
}

/** The table's options (bot speed, absence policy, clocks, memory mode) as a list. */
export function optionsEl(options) {
  const keys = OPTION_ORDER.filter((k) => options && k in options);
  return h("ul.table-options", {}, keys.map((k) => h("li", { "data-option": k },
    h("strong", { text: t(`opt.${k}`) + ": " }), optionValue(k, options[k]))));
}

/** The table's house rules (its changed settings) in the engine's words, or "unchanged". */
export function houseRulesEl(rules) {
  const overrides = Object.entries(rules || {});
  if (!overrides.length) return h("p.muted.house-rules", { text: t("invite.rules.none") });
  const list = h("ul.rule-list.house-rules");
  const fill = () => replace(list, overrides.map(([k, v]) => h("li", {},
    h("strong", { text: settingWords(k).name + ": " }), valueText(k, v))));
  fill();
  loadPresets().then(fill, () => {});
  return list;
}

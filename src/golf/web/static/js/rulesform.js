// The lobby's house rules: one field per rule setting of the chosen game, each in the
// engine's own words (js/rulewords.js, GET /api/presets), with the game's value when it was
// changed and what the rules lab measured for it (docs/lab.md). The lobby (js/lobby.js) keeps
// the chosen values and has the engine check them.

import { h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { rankName } from "./names.js";
import { rankLetter } from "./cards.js";
import { choiceWords, settingKind, settingWords, valueText } from "./rulewords.js";
import "./strings/lobby.js";

// The numbers a choice's explanation names ("a column of {rows} equal cards").
function explainParams(form) {
  return { rows: form.value("rows"), cols: form.value("cols"),
    block_points: form.value("block_points") };
}

/**
 * The field of one rule setting: its control by the setting's kind, its name and explanation
 * in the engine's words, the preset's value when changed, what the rules lab measured and
 * the slot of the engine's message. form: {settings (the preset's), lab (the preset's, or
 * none), value(key) (as chosen now), changed(key), set(key, value), errorSlot(key)}.
 */
export function settingField(key, form) {
  const value = form.value(key);
  const kind = settingKind(key) || { type: "text" };
  const { name: label, explain: help } = settingWords(key);
  const choice = (c) => choiceWords(key, c, explainParams(form));
  const id = `rule-${key}`;
  const described = `${id}-help err-${key}`;
  let control;
  if (kind.type === "bool") {
    control = h("label.switch", {},
      h("input", { id, type: "checkbox", checked: value, "aria-describedby": described,
        onchange: (e) => form.set(key, e.target.checked) }),
      h("span", { text: t("rules.on") }));
  } else if (kind.type === "int") {
    control = h("input.num", { id, type: "number", step: 1, value: String(value),
      min: kind.min, max: kind.max, "aria-describedby": described,
      onchange: (e) => form.set(key, e.target.value === "" ? e.target.value
        : Number(e.target.value)) });
  } else if (kind.type === "choice") {
    const all = kind.choices.includes(value) ? kind.choices : [...kind.choices, value];
    control = h("select", { id, "aria-describedby": described,
      onchange: (e) => form.set(key, e.target.value) },
      all.map((c) => h("option", { value: c, selected: c === value,
        text: choice(c).name, title: choice(c).explain || null })));
  } else if (kind.type === "patterns") {
    const chosen = new Set(value);
    const choices = [...new Set([...kind.choices, ...value])];
    control = h("div.chips", { id, role: "group", "aria-label": label,
      "aria-describedby": described },
      choices.map((c) => h("label.chip", { title: choice(c).explain || null },
        h("input", { type: "checkbox", checked: chosen.has(c), onchange: (e) => {
          const next = new Set(form.value(key));
          if (e.target.checked) next.add(c); else next.delete(c);
          form.set(key, choices.filter((x) => next.has(x)));
        } }), " ", choice(c).name)));
  } else if (kind.type === "players") {
    const [lo, hi] = value;
    const both = () => [Number(loIn.value), Number(hiIn.value)];
    const loIn = h("input.num", { type: "number", value: lo, min: kind.min, max: kind.max,
      "aria-label": `${label}: ${t("rules.atLeast")}`,
      onchange: () => form.set(key, both()) });
    const hiIn = h("input.num", { type: "number", value: hi, min: kind.min, max: kind.max,
      "aria-label": `${label}: ${t("rules.atMost")}`,
      onchange: () => form.set(key, both()) });
    control = h("div.inline", { id, "aria-describedby": described },
      t("rules.atLeast"), " ", loIn, " ", t("rules.atMost"), " ", hiIn);
  } else if (kind.type === "decks") {
    const steps = Object.entries(value);
    const from = (n) => t(Number(n) === 1 ? "rules.decksFromOne" : "rules.decksFrom", { n });
    const inputs = steps.map(([start, n]) => h("input.num", { type: "number", value: n,
      min: kind.min, max: kind.max, "aria-label": `${label} ${from(start)}`,
      onchange: () => {
        const out = {};
        steps.forEach(([f], i) => { out[f] = Number(inputs[i].value); });
        form.set(key, out);
      } }));
    control = h("div.inline", { id, "aria-describedby": described },
      steps.map(([start], i) => h("span.step", {}, from(start), " ", inputs[i])));
  } else if (kind.type === "points") {
    control = h("div.points", { id, role: "group", "aria-label": label,
      "aria-describedby": described },
      // In the engine's rank order (an object lists "2".."10" before "A").
      kind.ranks.filter((rank) => rank in value).map((rank) => h("label.pt", {},
        // The letter printed on the card in the page's language (B, D, K in German).
        h("span", { text: rank === "JK" ? "★" : rankLetter(rank) }),
        h("input.num", { type: "number", value: value[rank], min: kind.min, max: kind.max,
          "aria-label": `${label}: ${rankName(rank)}`, onchange: (e) => {
            const next = { ...form.value(key), [rank]: Number(e.target.value) };
            form.set(key, next);
          } }))));
  } else {
    // A setting of a kind this page does not know yet: its value as text.
    control = h("input", { id, type: "text", value: String(value),
      "aria-describedby": described, onchange: (e) => form.set(key, e.target.value) });
  }
  const base = form.settings[key];
  return h("div.setting", { "data-setting": key },
    h("label.setting-label", { for: id, text: label }),
    control,
    h("p.help", { id: `${id}-help` }, help,
      form.changed(key) ? h("span.was", { text: " · " + t("lobby.rules.preset",
        { value: valueText(key, base) }) }) : null),
    labEffects(form.lab, key),
    form.errorSlot(key));
}

// What the rules lab measured for this setting at this preset (GET /api/presets' `lab`,
// docs/lab.md): one plain sentence per value, in the page's language.
function labEffects(lab, key) {
  const entries = ((lab && lab.settings && lab.settings[key]) || []).filter((e) => e[lang()]);
  if (!entries.length) return null;
  const valueLabel = (option) => Object.entries(option).map(([k, v]) => {
    // A points change ("points.2": 2) names the card and its new value.
    if (k.startsWith("points.")) {
      const rank = k.slice("points.".length);
      return `${rank === "JK" ? "★" : rankLetter(rank)} = ${v}`;
    }
    return k === key ? valueText(k, v) : `${settingWords(k).name}: ${valueText(k, v)}`;
  }).join(", ");
  const item = (e) => h("li", {}, h("b", { text: valueLabel(e.option) + ":" }), " ",
    h("span.lab-sentence", { text: e[lang()] }));
  const list = h("ul.lab-list", {}, entries.map(item));
  const title = entries.length === 1 ? t("lobby.lab.title")
    : t("lobby.lab.each", { n: entries.length });
  return h("div.lab-effects", { "data-lab": key }, h("p.lab-title", { text: title }), list);
}

/** Once above the house rules: how the sentences under them were measured (lab: the preset's). */
export function labSource(lab) {
  if (!lab || !lab.generated) return null;
  return h("p.lab-source", { text: t("lobby.lab.source",
    { deals: lab.deals, players: lab.players, date: lab.generated }) });
}

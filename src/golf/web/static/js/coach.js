// The coach's hint in players' words: the best move and by how much, in points of the hole,
// it beats the next one ("Draw: about 1.7 points better than taking the J♠"), with its parts
// one click away. The numbers are the server's `value` and `parts` (docs/protocol.md,
// `hint`): the coach's own explanation, the same `golf play` shows; nothing is recomputed
// here but the difference between two values.

import { h } from "./dom.js";
import { cardText } from "./cards.js";
import { lang, t } from "./i18n.js";
import { cardArticle } from "./names.js";
import "./strings/table.js";
import { parseAction } from "./narrate.js";
import "./strings/coach.js";

/** A number in the page's language with one decimal ("1.7", "1,7"); a minus as "−". */
export function points(x) {
  const text = new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 })
    .format(Math.abs(x));
  return x < 0 ? `−${text}` : text;
}

/** The move, capitalised, as a button would say it ("Draw", "Swap into position 3"). */
export function moveName(action) {
  const { kind, pos } = parseAction(action);
  const text = t(`act.${kind}`, { n: pos });
  return text === `act.${kind}` ? action : text;
}

// The other move as the tail of a comparison ("taking the J♠").
function otherName(action, view) {
  const { kind, pos } = parseAction(action);
  if (kind === "take") {
    return view && view.discard_top ? t("coach.vs.take", { the: cardArticle(view.discard_top), card: cardText(view.discard_top) })
      : t("coach.vs.takeAny");
  }
  const text = t(`coach.vs.${kind}`, { n: pos });
  return text === `coach.vs.${kind}` ? action : text;
}

function partName(what) {
  const key = `coach.part.${what}`;
  const text = t(key);
  return text === key ? what : text;
}

/** One option's value as the sum of its parts: "24,6 = your grid 25,7 − the pile … 1,1". */
export function partsText(option) {
  if (typeof option.value !== "number" || !option.parts || !option.parts.length) return "";
  const sum = option.parts.map(([what, p], i) => {
    if (i === 0) return `${partName(what)} ${points(p)}`;
    return `${p < 0 ? "−" : "+"} ${partName(what)} ${points(Math.abs(p))}`;
  }).join(" ");
  return `${points(option.value)} = ${sum}`;
}

/** The headline: the best move and its margin over the next one, in words. */
export function headline(options, view) {
  const best = options[0];
  const name = moveName(best.action);
  const next = options.find((o, i) => i > 0 && typeof o.value === "number");
  if (typeof best.value !== "number") return t("coach.noNumbers", { best: name });
  if (!next) return t("coach.only", { best: name });
  const margin = next.value - best.value;
  if (Math.abs(margin) < 0.05) return t("coach.same", { best: name, other: otherName(next.action, view) });
  return t("coach.better", { best: name, x: points(margin), other: otherName(next.action, view) });
}

/**
 * The hint box: the headline, "Play it", and under "Why?" each option's value and parts
 * (the best five). `hint` is the server's frame (or {loading: true}).
 */
export function coachEl(hint, view, { legal, onPlay }) {
  if (!hint) return null;
  if (hint.loading) return h("div.hint-box", { role: "status", text: t("hint.thinking") });
  const options = hint.options || [];
  if (!options.length) return h("div.hint-box", { role: "status", text: t("hint.none") });
  const best = options[0];
  const rows = options.slice(0, 5).filter((o) => partsText(o));
  return h("div.hint-box", { role: "status" },
    h("p.hint-line", {}, h("strong", { text: t("hint.title") + ": " }),
      h("span.hint-words", { text: headline(options, view) })),
    rows.length ? h("details.hint-details", {},
      h("summary", { text: t("coach.details") }),
      h("ul", {}, rows.map((o) => h("li", {},
        h("strong", { text: moveName(o.action) + ": " }), h("span", { text: partsText(o) })))),
      h("p.muted.small", { text: t("coach.lower") })) : null,
    legal.includes(best.action) ? h("button.small.primary", { type: "button", text: t("hint.play"),
      onclick: () => onPlay(best.action) }) : null);
}

/**
 * Bring the hint box under `root` into view once it is on the page: on a phone it sits
 * below the grid and the actions, out of sight of the button that asked for it. "nearest"
 * leaves a box already in view where it is; its scroll margin keeps it below the header.
 */
export function revealHint(root) {
  requestAnimationFrame(() => {
    const box = root.querySelector(".hint-box");
    if (box) box.scrollIntoView({ block: "nearest" });
  });
}

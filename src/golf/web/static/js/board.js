// Drawing a table from a state message: grids, stock, discard pile, the card in hand.
// Nothing here decides what is legal: targets are exactly the legal actions the server sent.

import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { cardName } from "./names.js";
import "./strings/table.js";
import { cardBack, cardFace, cardSpace } from "./cards.js";
import { parseAction } from "./narrate.js";
import { forgotten } from "./memory.js";
import "./strings/tablebits.js";
import { keyOf } from "./keys.js";

/** The legal actions split into grid targets (by position) and the others (by kind). */
export function targetsOf(legal) {
  const cells = new Map();
  const others = new Map();
  for (const action of legal || []) {
    const { kind, pos } = parseAction(action);
    if (pos === null) others.set(kind, action);
    else cells.set(pos, { kind, action });
  }
  return { cells, others };
}

/**
 * One grid. `opts.targets` maps position -> {kind, action}; `opts.onAct(action)`. In memory
 * mode the server sends a peeked card as unknown after the first draw (golf.view.remembered).
 */
export function gridEl(view, seat, opts) {
  const { rows, cols } = view;
  const cards = view.grids[seat] || [];
  const up = view.face_up[seat] || [];
  const wrap = h("div.grid", { role: "group", "aria-label": opts.label,
    style: `--cols:${cols};--rows:${rows}` });
  for (let i = 0; i < rows * cols; i++) {
    const pos = i + 1;
    const card = cards[i] ?? null;
    const faceUp = Boolean(up[i]);
    let art;
    let desc;
    let seen = false;
    let forgot = false;
    if (faceUp && card) {
      art = cardFace(card, { fourColour: opts.fourColour });
      desc = cardName(card);
    } else if (card) {
      art = cardFace(card, { fourColour: opts.fourColour });
      desc = t("cell.downSeen", { card: cardName(card) });
      seen = true;
    } else {
      // A peeked card hidden again (memory mode) is still one the player looked at.
      art = cardBack();
      forgot = forgotten(view, seat, pos);
      desc = forgot ? t("cell.downForgotten") : t("cell.down");
    }
    const target = opts.targets && opts.targets.get(pos);
    const isLast = opts.lastPos === pos;
    const classes = ["cell", seen ? "seen" : "", forgot ? "forgot" : "", isLast ? "last" : "", target ? "target" : "",
      opts.changed && opts.changed.has(pos) ? "changed" : ""].filter(Boolean).join(".");
    const label = t("cell.label", { n: pos, card: desc }) + (isLast ? `, ${t("cell.last")}` : "");
    let cell;
    if (target) {
      const verb = t(`act.${target.kind}`, { n: pos });
      cell = h(`button.${classes}`, { type: "button", "aria-label": `${verb} – ${label}`,
        "data-key": `cell-${seat}-${pos}`, title: `${verb} (${pos <= 9 ? pos : ""})`,
        onclick: () => opts.onAct(target.action) }, art);
    } else {
      cell = h(`div.${classes}`, { role: "img", "aria-label": label }, art);
    }
    // Its back says so too (memory mode): which cards you looked at is yours to know, not
    // what they are.
    if (seen || forgot) cell.append(h("span.seen-tag", { "aria-hidden": "true", text: t("table.peekedBadge") }));
    if (target && pos <= 9) cell.append(h("span.key-tag", { "aria-hidden": "true", text: String(pos) }));
    if (isLast) cell.append(h("span.last-tag", { "aria-hidden": "true", text: "●" }));
    art.removeAttribute("aria-label");
    art.setAttribute("aria-hidden", "true");
    wrap.append(cell);
  }
  return wrap;
}

/** The stock: a back with its size; a button when drawing is legal. */
export function stockEl(view, others, onAct) {
  const n = view.stock_size;
  const art = n > 0 ? cardBack() : cardSpace(t("table.stockLabel", { n }));
  art.setAttribute("aria-hidden", "true");
  const count = h("span.pile-count", { text: t("table.stockCards", { n }) });
  const label = t("table.stockLabel", { n });
  const draw = others.get("draw");
  const key = keyOf("draw").toUpperCase();
  const body = draw
    ? h("button.pile.target", { type: "button", "data-key": "stock",
      "aria-label": `${t("table.drawHere")} (${key}) – ${label}`, onclick: () => onAct(draw) },
    art, h("span.key-tag", { "aria-hidden": "true", text: key }))
    : h("div.pile", { role: "img", "aria-label": label }, art);
  return h("div.pile-wrap", {}, h("span.pile-name", { text: t("table.stock") }), body, count);
}

/** The discard pile: its top card; a target for take or discard; its history. */
export function discardEl(view, others, onAct, { fourColour, onHistory, changed }) {
  const top = view.discard_top;
  const art = top ? cardFace(top, { fourColour }) : cardSpace(t("table.discardEmpty"));
  art.setAttribute("aria-hidden", "true");
  const label = top ? t("table.discardTop", { card: cardName(top) }) : t("table.discardEmpty");
  const take = others.get("take");
  const discard = others.get("discard");
  let body;
  if (discard) {
    body = h("button.pile.target" + (changed ? ".changed" : ""), { type: "button",
      "data-key": "discard", "aria-label": `${t("table.discardHere")} (${keyOf("discard").toUpperCase()}) – ${label}`,
      onclick: () => onAct(discard) }, art, h("span.key-tag", { "aria-hidden": "true", text: keyOf("discard").toUpperCase() }));
  } else if (take && top) {
    body = h("button.pile.target" + (changed ? ".changed" : ""), { type: "button",
      "data-key": "discard", "aria-label": `${t("table.takeHere", { card: cardName(top) })} (${keyOf("take").toUpperCase()})`,
      onclick: () => onAct(take) }, art, h("span.key-tag", { "aria-hidden": "true", text: keyOf("take").toUpperCase() }));
  } else {
    body = h("div.pile" + (changed ? ".changed" : ""), { role: "img", "aria-label": label }, art);
  }
  const pile = view.discard || [];
  // Its history is a link once there is more than the top card; before, plain words.
  const history = pile.length < 2
    ? h("span.pile-count", { text: pile.length ? tn("table.pileSize", pile.length, { n: pile.length })
      : t("table.pileEmpty") })
    : h("button.link.small", { type: "button", "data-key": "history", onclick: onHistory,
      text: t("table.history", { n: pile.length }) });
  return h("div.pile-wrap", {}, h("span.pile-name", { text: t("table.discard") }), body, history);
}

/** The card in someone's hand (theirs: its face; others': a back unless it is public). */
export function heldEl(view, name, mine, fourColour, fresh = false) {
  if (view.held_by === null || view.held_by === undefined) return null;
  const card = view.held;
  const art = card ? cardFace(card, { fourColour }) : cardBack();
  art.setAttribute("aria-hidden", "true");
  const title = mine ? t("table.held") : t("table.heldBy", { name });
  const label = `${title}: ${card ? cardName(card) : t("table.heldHidden")}`;
  return h("div.pile-wrap.held", {}, h("span.pile-name", { text: title }),
    h("div.pile.held-card" + (fresh ? ".fresh" : ""), { role: "img", "aria-label": label }, art));
}

/** The hand's place while it is empty: the same size as a card in hand, never seen (golf.css),
 * so that the own grid keeps its place and size when a card is drawn. */
export function handSlotEl() {
  const art = cardBack();
  art.setAttribute("aria-hidden", "true");
  return h("div.pile-wrap.hand-slot", { "aria-hidden": "true" },
    h("span.pile-name", { text: t("table.held") }), h("div.pile", {}, art));
}

/** The discard pile's cards, newest first (for its dialog). */
export function historyEl(view, fourColour) {
  const pile = [...(view.discard || [])].reverse();
  return h("ol.history", { "aria-label": t("table.historyTitle") },
    pile.map((card) => {
      const art = cardFace(card, { fourColour });
      return h("li", {}, art);
    }));
}

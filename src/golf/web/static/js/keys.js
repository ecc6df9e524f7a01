// The keyboard shortcuts of the table, from the words of the page's language: English
// D draw, T take, X discard, K knock, P pass, H hint; German Z ziehen, N nehmen, A ablegen,
// K klopfen, P passen, T Tipp.

import { lang } from "./i18n.js";

const KEYS = {
  en: { draw: "d", take: "t", discard: "x", knock: "k", pass: "p", hint: "h" },
  de: { draw: "z", take: "n", discard: "a", knock: "k", pass: "p", hint: "t" },
};

/** The key (lower case) of a kind of move, or "hint", in the page's language. */
export function keyOf(kind) {
  return (KEYS[lang()] || KEYS.en)[kind];
}

/** The kind a pressed key stands for in the page's language (or undefined). */
export function kindOfKey(key) {
  const table = KEYS[lang()] || KEYS.en;
  return Object.keys(table).find((kind) => table[kind] === key);
}

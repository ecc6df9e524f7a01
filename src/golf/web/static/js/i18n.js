// The page's languages and the mechanism of its words: the language (from the browser,
// navigator.languages, unless the player picked one with the switch), the tables each feature
// fills with its own strings (js/strings/, extendStrings), the lookup t() with its
// {placeholders}, and isolate() for text a person wrote. The words themselves are beside the
// screens that say them (js/strings/*.js); the rule settings' words come from the engine
// (rulewords.js).

const EN = {};
const DE = {};
const TABLES = { en: EN, de: DE };
const listeners = new Set();
let current = pickLanguage();

function pickLanguage() {
  const saved = localStorage.getItem("golf.lang");
  if (saved && TABLES[saved]) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (TABLES[base]) return base;
  }
  return "en";
}

/**
 * Add a feature's own strings (a module under js/strings/). Every key must come in both
 * languages: a key missing from either is an error at load time, not an English word in
 * the German page. A key already defined is refused too, so that each string is written once.
 */
export function extendStrings(en, de) {
  const keys = new Set([...Object.keys(en), ...Object.keys(de)]);
  for (const key of keys) {
    if (!(key in en) || !(key in de)) throw new Error(`string ${key} needs English and German`);
    if (key in EN) throw new Error(`string ${key} is defined twice`);
  }
  Object.assign(EN, en);
  Object.assign(DE, de);
}

export function lang() {
  return current;
}

export function setLang(code) {
  if (!TABLES[code] || code === current) return;
  current = code;
  localStorage.setItem("golf.lang", code);
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// Right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko... and their presentation
// forms) and the bidirectional controls themselves.
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/**
 * Text a person wrote (a name, a table's title, a chat line) as it goes into the page's own
 * text: when it holds right-to-left letters, wrapped in FIRST STRONG ISOLATE ... POP
 * DIRECTIONAL ISOLATE (U+2068 ... U+2069, plain text's <bdi>), so that it is laid out on
 * its own and cannot reorder the sentence around it ("Bob: 5" stays "Bob: 5" for a
 * Hebrew name). Left-to-right text, and text whose right-to-left parts are isolated already,
 * stays exactly as it is. The server drops the bidirectional controls themselves
 * (docs/protocol.md, the `name` of POST /api/tables and `chat`).
 */
export function isolate(text) {
  const s = String(text ?? "");
  // What is isolated already (a name inside "{name} ({points})") does not count.
  let bare = s;
  for (let before = ""; bare !== before;) {
    before = bare;
    bare = bare.replace(/\u2068[^\u2068\u2069]*\u2069/g, "");
  }
  return RTL.test(bare) ? `\u2068${s}\u2069` : s;
}

/**
 * text with its {placeholders} filled from params (unknown ones are left as they are); each
 * value isolated (a name written right to left cannot reorder the sentence).
 */
export function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, key) => (key in params ? isolate(params[key]) : m));
}

/** The string for key in the current language, with {placeholders} filled in. */
export function t(key, params) {
  const text = TABLES[current][key] ?? EN[key];
  if (text === undefined) return key;
  return fill(text, params);
}

/** The string for a count: key + ".one" when n is 1 and that string exists, else key
 * ("1 more rated match", not "1 more rated matches"). */
export function tn(key, n, params) {
  return t(Number(n) === 1 && `${key}.one` in EN ? `${key}.one` : key, params);
}

/** Whether key has a string (a feature's strings loaded, or a name the page has words for). */
export function hasString(key) {
  return key in EN;
}

/**
 * A reverse lookup: of the keys that start with prefix, the rest of the one whose English
 * string is english ("preset.name." and "Six-card Golf" give "six-card"), or null.
 */
export function keyOfEnglish(prefix, english) {
  const key = Object.keys(EN).find((k) => k.startsWith(prefix) && EN[k] === english);
  return key === undefined ? null : key.slice(prefix.length);
}

/** A message shown as a sentence: its first letter a capital ("a password needs …" → "A …"). */
export function sentence(text) {
  const s = String(text ?? "");
  // A message that starts with a setting's key ("bot_delay must be …") keeps the key as it is.
  if (!/^\p{Ll}+(?![\w.])/u.test(s)) return s;
  return s[0].toLocaleUpperCase(current) + s.slice(1);
}

document.documentElement.lang = current;

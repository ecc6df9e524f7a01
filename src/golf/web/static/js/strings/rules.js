// The words around a rule setting's value (js/rulewords.js, the lobby's house rules): on and
// off, nothing (an empty list: nothing cancels), at least, at most, decks from a player
// count, a preset's range of players. The settings' own words come from the engine
// (golf.rules). English and German.

import { extendStrings } from "../i18n.js";

extendStrings({
  "rules.on": "on",
  "rules.off": "off",
  "rules.nothing": "nothing",
  "rules.atLeast": "at least",
  "rules.atMost": "at most",
  "rules.decksFrom": "from {n} players:",
  "rules.decksFromOne": "from {n} player:",
  "lobby.players": "{lo}–{hi} players",
}, {
  "rules.on": "an",
  "rules.off": "aus",
  "rules.nothing": "nichts",
  "rules.atLeast": "mindestens",
  "rules.atMost": "höchstens",
  "rules.decksFrom": "ab {n} Spielern:",
  "rules.decksFromOne": "ab {n} Spieler:",
  "lobby.players": "{lo}–{hi} Spieler",
});

// The engine's validation messages by error code (POST /api/rules/check's `codes`), worded
// in each language with the code's parameters; {name} is the setting's name in the page's
// language (from the engine's schema), {allowed} its choices' names.

import { extendStrings } from "../i18n.js";

extendStrings({
  "engine.not_integer": "{name} must be a whole number, not {got}.",
  "engine.out_of_range": "{name} must be between {lo} and {hi}, not {got}.",
  "engine.not_boolean": "{name} must be on or off, not {got}.",
  "engine.not_string": "{name} must be a word, not {got}.",
  "engine.not_a_choice": "{name} must be one of: {allowed} (not {got}).",
  "engine.players_out_of_range": "{preset} is for {lo} to {hi} players, not {got}.",
}, {
  "engine.not_integer": "{name} muss eine ganze Zahl sein, nicht {got}.",
  "engine.out_of_range": "{name} muss zwischen {lo} und {hi} liegen, nicht {got}.",
  "engine.not_boolean": "{name} muss an oder aus sein, nicht {got}.",
  "engine.not_string": "{name} muss ein Wort sein, nicht {got}.",
  "engine.not_a_choice": "{name} muss eines davon sein: {allowed} (nicht {got}).",
  "engine.players_out_of_range": "{preset} ist für {lo} bis {hi} Spieler, nicht für {got}.",
});

// The server's refusals that a page words itself, from their code and fields
// (js/serverwords.js; docs/protocol.md, "Errors"), in English and German.

import { extendStrings } from "../i18n.js";

extendStrings({
  "error.not_rateable.house_rules": "This table cannot be rated: house rules make a table casual. Rated tables play a game's rules unchanged.",
  "error.not_rateable.players": "This table cannot be rated with this number of players.",
  "error.not_rateable.unmeasured_bot": "This table cannot be rated: {bot} has no measured rating for {variant}, so a table with it is casual.",
  "error.not_rateable.external": "an external bot",
  "error.bad_message.reason": "Write what happened in 1 to 500 characters.",
}, {
  "error.not_rateable.house_rules": "Dieser Tisch kann nicht gewertet werden: Hausregeln machen einen Tisch ungewertet. Gewertete Tische spielen die Regeln eines Spiels unverändert.",
  "error.not_rateable.players": "Mit dieser Anzahl an Plätzen kann dieser Tisch nicht gewertet werden.",
  "error.not_rateable.unmeasured_bot": "Dieser Tisch kann nicht gewertet werden: {bot} hat keine gemessene Wertung für {variant}; ein Tisch mit diesem Bot ist ungewertet.",
  "error.not_rateable.external": "Ein externer Bot",
  "error.bad_message.reason": "Schreib in 1 bis 500 Zeichen, was passiert ist.",
});

// The table options (bot speed, absence policy, clocks, memory mode): their names and help in
// the lobby's form (js/lobby.js) and their values in the waiting room's list
// (js/tablebits.js). English and German.

import { extendStrings } from "../i18n.js";

extendStrings({
  "opt.bot_delay": "Bot speed (seconds per move)",
  "opt.bot_delay.help": "How long a bot waits before each move, so everyone can follow (0 to 5).",
  "opt.absence": "When someone loses their connection",
  "opt.absence.help": "What happens when a player is gone and their grace period has run out during their turn.",
  "opt.absence.wait": "Wait for them",
  "opt.absence.bot": "A bot plays for them until they are back",
  "opt.absence.end": "End the match",
  "opt.grace": "Grace period (seconds)",
  "opt.grace.help": "How long the table waits for a disconnected player on their turn (1 to 600).",
  "opt.turn_timer": "Turn timer (seconds)",
  "opt.turn_timer.help": "Empty for no timer. With a timer, the table plays a safe move when time and reserve are up (1 to 600).",
  "opt.reserve": "Reserve (seconds)",
  "opt.reserve.help": "Extra time each player may use over the whole match once a turn's time is up (0 to 600).",
  "opt.show_peeked": "Keep peeked cards visible",
  "opt.show_peeked.help": "Off: cards you looked at are hidden again after your first draw, so you play from memory.",
  "opt.value.seconds": "{x} s",
  "opt.value.none": "none",
  "opt.value.on": "on",
  "opt.value.off": "off",
}, {
  "opt.bot_delay": "Tempo der Bots (Sekunden pro Zug)",
  "opt.bot_delay.help": "So lange wartet ein Bot vor jedem Zug, damit alle folgen können (0 bis 5).",
  "opt.absence": "Wenn jemand die Verbindung verliert",
  "opt.absence.help": "Was passiert, wenn ein Spieler weg ist und seine Schonfrist in seinem Zug abläuft.",
  "opt.absence.wait": "Auf ihn warten",
  "opt.absence.bot": "Ein Bot spielt stellvertretend, bis die Person zurück ist",
  "opt.absence.end": "Die Partie beenden",
  "opt.grace": "Schonfrist (Sekunden)",
  "opt.grace.help": "So lange wartet der Tisch in seinem Zug auf einen getrennten Spieler (1 bis 600).",
  "opt.turn_timer": "Zeit pro Zug (Sekunden)",
  "opt.turn_timer.help": "Leer: ohne Zeitlimit. Mit Limit spielt der Tisch einen sicheren Zug, wenn Zeit und Reserve aufgebraucht sind (1 bis 600).",
  "opt.reserve": "Reserve (Sekunden)",
  "opt.reserve.help": "Zusätzliche Zeit, die jeder über die ganze Partie nutzen kann, wenn die Zugzeit abgelaufen ist (0 bis 600).",
  "opt.show_peeked": "Angeschaute Karten sichtbar lassen",
  "opt.show_peeked.help": "Aus: Angeschaute Karten werden nach dem ersten Ziehen wieder verdeckt – man spielt aus dem Gedächtnis.",
  "opt.value.seconds": "{x} s",
  "opt.value.none": "keine",
  "opt.value.on": "an",
  "opt.value.off": "aus",
});

// The words of blocking and reporting a player (js/care.js), in English and German.

import { extendStrings } from "../i18n.js";

extendStrings({
  "care.open": "Block or report {name}",
  "care.title": "{name}",
  "care.blockHelp": "Blocking keeps you and this player apart in quick play. They are not told.",
  "care.block": "Block {name}",
  "care.blocked": "{name} is blocked.",
  "care.report": "Report",
  "care.reason": "What happened?",
  "care.reasonHelp": "1 to 500 characters. The site's operators read reports.",
  "care.lines": "Keep these chat lines with the report",
  "care.send": "Send report",
  "care.reported": "Thank you: the report was sent.",
  "care.close": "Close",
}, {
  "care.open": "{name} blockieren oder melden",
  "care.title": "{name}",
  "care.blockHelp": "Blockieren hält dich und diese Person beim Schnellspiel getrennt. Sie erfährt nichts davon.",
  "care.block": "{name} blockieren",
  "care.blocked": "{name} ist blockiert.",
  "care.report": "Melden",
  "care.reason": "Was ist passiert?",
  "care.reasonHelp": "1 bis 500 Zeichen. Die Betreiber der Seite lesen Meldungen.",
  "care.lines": "Diese Chatzeilen mit der Meldung aufbewahren",
  "care.send": "Meldung senden",
  "care.reported": "Danke: Die Meldung wurde gesendet.",
  "care.close": "Schließen",
});

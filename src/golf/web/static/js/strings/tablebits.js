// Strings of the table's small things (issue 22): prompts that say "click" with a mouse
// ("tap" stays for touch screens), the waiting room's heading of the table options (their words
// are in strings/options.js), the house rules on the invite page, the spectators' chat note, the
// discard pile's size, the table's memory mode and rated marks.

import { extendStrings } from "../i18n.js";

extendStrings({
  "prompt.reveal.click": "Turn {n} of your cards face up: click them.",
  "prompt.peek.click": "Look at {n} of your cards in secret: click them.",
  "prompt.hold.click": "Click one of your cards to swap it for the card in your hand, or click the discard pile to throw it away.",
  "prompt.holdSwap.click": "Click the card in your grid that this card replaces.",
  "wait.options": "Table options",
  "invite.rules": "House rules",
  "invite.rules.none": "The game's own rules, unchanged.",
  "chat.spectators": "Spectators read the chat; only the players write in it.",
  "table.pileSize": "{n} cards in the pile",
  "table.pileSize.one": "{n} card in the pile",
  "table.pileEmpty": "The pile is empty",
  "table.memory": "Memory mode",
  "table.memory.help": "The table's rule: the cards you looked at are hidden again after your first draw, for everyone.",
  "rated.help.table": "A rated table: the match changes the players' ratings; the coach's hint is off.",
}, {
  "prompt.reveal.click": "Decke {n} deiner Karten auf: Klicke sie an.",
  "prompt.peek.click": "Schau dir heimlich {n} deiner Karten an: Klicke sie an.",
  "prompt.hold.click": "Klicke eine deiner Karten an, um sie gegen die Karte in deiner Hand zu tauschen, oder klicke die Ablage an, um sie abzulegen.",
  "prompt.holdSwap.click": "Klicke die Karte deiner Auslage an, die diese Karte ersetzt.",
  "wait.options": "Tischoptionen",
  "invite.rules": "Hausregeln",
  "invite.rules.none": "Die Regeln des Spiels, unverändert.",
  "chat.spectators": "Zuschauer können den Chat lesen; schreiben können nur die Spieler.",
  "table.pileSize": "{n} Karten auf der Ablage",
  "table.pileSize.one": "{n} Karte auf der Ablage",
  "table.pileEmpty": "Die Ablage ist leer",
  "table.memory": "Gedächtnis-Modus",
  "table.memory.help": "Regel des Tischs: Angeschaute Karten werden nach dem ersten Ziehen wieder verdeckt, für alle.",
  "rated.help.table": "Ein gewerteter Tisch: Die Partie ändert die Wertungen der Spieler; den Tipp des Trainers gibt es hier nicht.",
});

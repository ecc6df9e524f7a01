// The page's frame and the words every screen shares: the name and tagline, the language
// switch, the display menu (js/app.js), "Close", "Loading…", "Back to the lobby", "You", the
// network error (js/api.js). English and German.

import { extendStrings } from "../i18n.js";

extendStrings({
  "app.name": "Golf",
  "app.skip": "Skip to the game",
  "app.tagline": "The card game for friends and family: keep your score low.",
  "lang.label": "Language",
  "lang.en": "English",
  "lang.de": "Deutsch",
  "common.close": "Close",
  "common.cancel": "Cancel",
  "common.loading": "Loading…",
  "common.back": "Back to the lobby",
  "common.you": "You",
  "common.network": "The server cannot be reached. Check the connection and try again.",
  "common.settings": "Display",
  "pref.fourColour": "Four-colour suits (♦ blue, ♣ green)",
  "pref.showPeeked": "Keep the cards I looked at visible",
  "pref.showPeeked.help": "Off: as the rules intend, you must remember the cards you looked at once you have drawn.",
  "pref.showPeeked.rated": "At a rated table the table's rules decide which cards stay visible, the same for everyone.",
}, {
  "app.name": "Golf",
  "app.skip": "Zum Spiel springen",
  "app.tagline": "Das Kartenspiel für Freunde und Familie: Wer die wenigsten Punkte hat, gewinnt.",
  "lang.label": "Sprache",
  "lang.en": "English",
  "lang.de": "Deutsch",
  "common.close": "Schließen",
  "common.cancel": "Abbrechen",
  "common.loading": "Wird geladen …",
  "common.back": "Zurück zur Lobby",
  "common.you": "Du",
  "common.network": "Der Server ist nicht erreichbar. Prüfe die Verbindung und versuche es noch einmal.",
  "common.settings": "Anzeige",
  "pref.fourColour": "Vierfarbiges Blatt (♦ blau, ♣ grün)",
  "pref.showPeeked": "Angeschaute Karten sichtbar lassen",
  "pref.showPeeked.help": "Aus: Wie es die Regeln wollen, musst du dir angeschaute Karten nach deinem ersten Zug merken.",
  "pref.showPeeked.rated": "An einem gewerteten Tisch entscheiden die Regeln des Tischs, welche Karten sichtbar bleiben – für alle gleich.",
});

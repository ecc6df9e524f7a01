// Strings of the table's presentation (issue 22): sound, "your turn" attention, replay
// autoplay, every card in a finished match's replay, links to a hole's end.

import { extendStrings } from "../i18n.js";

extendStrings({
  "sound.switch": "Sounds",
  "sound.help": "Short sounds for your turn, a draw, a swap, a hole's end and a win. Off at first on phones.",
  "attention.switch": "Tell me when it is my turn (while this tab is hidden)",
  "attention.help": "A desktop notification; your browser asks for permission when you turn it on.",
  "attention.denied": "The browser does not allow notifications for this page.",
  "attention.unsupported": "This browser cannot show notifications.",
  "attention.title": "Your turn at Golf",
  "attention.body": "{table}: it is your turn.",
  "replay.play": "Play",
  "replay.pause": "Pause",
  "replay.speed": "Speed",
  "replay.speedValue": "{x}×",
  "replay.decimal": ".",
  "replay.allCards": "Show every card",
  "replay.allCardsHelp": "The match is over: the face-down cards can be shown.",
  "replay.holeLink": "Link to the end of hole {n}",
  "replay.downShown": "face down: {card}",
  "replay.downBadge": "down",
}, {
  "sound.switch": "Töne",
  "sound.help": "Kurze Töne, wenn du dran bist, beim Ziehen, beim Tauschen, am Ende einer Runde und beim Sieg. Auf Handys zuerst aus.",
  "attention.switch": "Melden, wenn ich dran bin (während dieser Tab verdeckt ist)",
  "attention.help": "Eine Desktop-Benachrichtigung; der Browser fragt um Erlaubnis, wenn du sie einschaltest.",
  "attention.denied": "Der Browser erlaubt dieser Seite keine Benachrichtigungen.",
  "attention.unsupported": "Dieser Browser kann keine Benachrichtigungen zeigen.",
  "attention.title": "Du bist dran bei Golf",
  "attention.body": "{table}: Du bist dran.",
  "replay.play": "Abspielen",
  "replay.pause": "Anhalten",
  "replay.speed": "Tempo",
  "replay.speedValue": "{x}×",
  "replay.decimal": ",",
  "replay.allCards": "Alle Karten zeigen",
  "replay.allCardsHelp": "Die Partie ist vorbei: Die verdeckten Karten dürfen gezeigt werden.",
  "replay.holeLink": "Link zum Ende von Runde {n}",
  "replay.downShown": "verdeckt: {card}",
  "replay.downBadge": "verdeckt",
});

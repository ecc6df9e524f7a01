// The invite page's words (js/invite.js). English and German.

import { extendStrings } from "../i18n.js";

extendStrings({
  "invite.title": "You are invited to {title}",
  "invite.game": "Game: {preset}",
  "invite.join": "Take a seat",
  "invite.started": "This game has already started.",
  "invite.full": "Every seat at this table is taken.",
  "invite.bad": "This invite link is not valid (any more).",
  "invite.presetChanged": "{preset}, with this table's house rules.",
  "invite.seated": "Who is there: {names}",
}, {
  "invite.title": "Du bist eingeladen: {title}",
  "invite.game": "Spiel: {preset}",
  "invite.join": "Platz nehmen",
  "invite.started": "Dieses Spiel hat schon begonnen.",
  "invite.full": "An diesem Tisch sind alle Plätze besetzt.",
  "invite.bad": "Dieser Einladungslink gilt nicht (mehr).",
  "invite.presetChanged": "{preset} mit den Hausregeln dieses Tisches.",
  "invite.seated": "Schon da: {names}",
});

// The table screen's layout: its pieces in their order (the connection banner, a toast for
// refusals and nudges, the board, the side panel, one dialog, the screen readers' live
// region), kept across renders, and the ways to speak through them. CSS places them
// (golf.css, .table-screen); js/layout.js sizes the cards on the board.

import { h, replace } from "./dom.js";

/** The frame in root, around the banner's and the side panel's elements. */
export function tableFrame(root, banner, side) {
  const live = h("div.sr-only#announcer", { "aria-live": "polite", "aria-atomic": "true" });
  const toast = h("div.toast", { role: "alert", hidden: true });
  const board = h("div.board-area");
  const dialog = h("dialog.modal", { "aria-labelledby": "dialog-title" });
  let toastTimer = null;
  replace(root, banner, toast, board, side, dialog, live);
  root.classList.add("table-screen");

  return {
    board, dialog, live,

    /** A sentence for screen readers (the live region). */
    announce(text) {
      if (!text) return;
      live.textContent = "";
      // A new text node each time so screen readers read repeated sentences too.
      setTimeout(() => { live.textContent = text; }, 30);
    },

    /** A short message over the table for six seconds; "" hides it. */
    showToast(text) {
      toast.textContent = text;
      toast.hidden = !text;
      clearTimeout(toastTimer);
      if (text) toastTimer = setTimeout(() => { toast.hidden = true; }, 6000);
    },

    /** The dialog with this content, of this kind (dialog.dataset.kind until it closes). */
    openDialog(kind, ...content) {
      replace(dialog, ...content);
      dialog.dataset.kind = kind;
      if (!dialog.open) dialog.showModal();
      const first = dialog.querySelector("button.primary") || dialog.querySelector("button");
      // Focus the main button without scrolling to it: the dialog opens at its title.
      if (first) first.focus({ preventScroll: true });
      dialog.scrollTop = 0;
    },

    /** The screen is left. */
    remove() {
      if (dialog.open) dialog.close();
      root.classList.remove("table-screen");
    },
  };
}

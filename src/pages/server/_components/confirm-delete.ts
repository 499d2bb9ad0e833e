// An inline "Delete this …? Delete / Keep" for the server page's reviews script (server-reviews.ts):
// a delete there removed a member's review, or an owner's reply, for good on one click. The
// question shows under the button (not window.confirm, which a screen reader announces poorly and
// a page cannot style), as a group (a fieldset whose legend is the question) with the focus on Keep, so a second
// click or Enter does not delete; Keep or Escape puts it away and the focus back on the button.
// The account page's reply form does the same in React (~/islands/account/ConfirmDelete.tsx),
// with the same words (~/lib/reviews/form.ts).

/**
 * Makes `trigger` ask before `remove` runs: on click the question takes the button's place (a
 * line of its own in the button's row, text first, so a double click lands on no button). `remove` decides where the focus goes once done; when it throws, the
 * question goes and the focus returns to the button (the caller shows the error).
 */
export function confirmBeforeDelete(trigger: HTMLButtonElement, question: string, remove: () => Promise<void>): void {
  let box: HTMLElement | null = null;
  const close = () => {
    box?.remove();
    box = null;
    trigger.hidden = false;
    trigger.setAttribute('aria-expanded', 'false');
  };
  trigger.setAttribute('aria-expanded', 'false');
  trigger.addEventListener('click', () => {
    if (box) return;
    box = document.createElement('fieldset');
    box.className = 'confirm-delete';
    const text = document.createElement('legend');
    text.textContent = question;
    const row = document.createElement('div');
    row.className = 'review-actions';
    const yes = document.createElement('button');
    yes.type = 'button';
    yes.className = 'btn btn-danger';
    yes.textContent = 'Delete';
    const keep = document.createElement('button');
    keep.type = 'button';
    keep.className = 'btn btn-outline';
    keep.textContent = 'Keep';
    row.append(yes, keep);
    box.append(text, row);
    trigger.after(box);
    trigger.setAttribute('aria-expanded', 'true');
    trigger.hidden = true;
    keep.focus();
    keep.addEventListener('click', () => {
      close();
      trigger.focus();
    });
    box.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      close();
      trigger.focus();
    });
    yes.addEventListener('click', async () => {
      yes.disabled = true;
      keep.disabled = true;
      try {
        await remove();
        close();
        // `remove` moves the focus where the page goes on; if it left it in the question, the button takes it.
        if (!document.activeElement || document.activeElement === document.body) {
          if (trigger.isConnected) trigger.focus();
        }
      } catch {
        close();
        trigger.focus();
      }
    });
  });
}

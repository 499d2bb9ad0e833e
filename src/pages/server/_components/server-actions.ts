// Save, Share and Report on the server page (ServerActions.astro), and the page-view event.
import { readSaved, track, writeSaved } from '~/lib/analytics';
import { COPIED_MS, REPORTED_MS } from '~/lib/timings';
import { resetTurnstile } from '~/lib/turnstile';

const FAILED = 'Failed to send the report. Please try again.';

/** The report's sender (./send-report.ts, with the API client), fetched when the dialog first opens. */
let reporting: Promise<typeof import('./send-report')> | undefined;
const loadReporting = () => (reporting ??= import('./send-report'));

/** Wires one Save/Share/Report box (there is one per server page). */
function serverActions(root: HTMLElement) {
  const id = Number(root.dataset.id);
  const name = root.dataset.name ?? '';
  const q = <T extends Element>(selector: string) => root.querySelector<T>(selector)!;
  const saveButton = q<HTMLButtonElement>('[data-save]');
  const shareButton = q<HTMLButtonElement>('[data-share]');
  const shareStatus = q<HTMLElement>('[data-share-status]');
  const opener = q<HTMLButtonElement>('[data-report-open]');
  const dialog = q<HTMLDialogElement>('dialog');
  const form = q<HTMLFormElement>('form');
  const error = q<HTMLElement>('.form-error');
  const submit = q<HTMLButtonElement>('button[type="submit"]');
  const done = q<HTMLElement>('.success');
  const server = { target_type: 'server', target_id: String(id), server_id: id } as const;

  // The script runs: Save and Share work now, and this script opens and closes the dialog (the
  // invoker commands are what a browser without it uses).
  saveButton.hidden = false;
  shareButton.hidden = false;
  for (const el of root.querySelectorAll('[commandfor]')) {
    el.removeAttribute('commandfor');
    el.removeAttribute('command');
  }

  // Saved state from localStorage; the view is recorded once per page load.
  const showSaved = (saved: boolean) => {
    saveButton.setAttribute('aria-pressed', String(saved));
    saveButton.textContent = saved ? 'Saved' : 'Save';
  };
  showSaved(readSaved().some((s) => s.id === id));
  track({ interaction_type: 'view', ...server });

  saveButton.addEventListener('click', () => {
    const next = saveButton.getAttribute('aria-pressed') !== 'true';
    const list = readSaved().filter((s) => s.id !== id);
    if (next) {
      const { category = '', image, slug = '' } = root.dataset;
      list.unshift({ id, name, category, image_url: image ?? null, slug, savedAt: Date.now() });
    }
    writeSaved(list);
    showSaved(next);
    track({ interaction_type: next ? 'save' : 'unsave', ...server });
  });

  // Web Share on touch devices, else copy the link; the copied indicator lasts COPIED_MS.
  let copiedTimer: ReturnType<typeof setTimeout> | undefined;
  shareButton.addEventListener('click', async () => {
    const url = location.href.split(/[?#]/)[0] ?? location.href;
    track({ interaction_type: 'share', ...server });
    if (typeof navigator.share === 'function' && matchMedia('(pointer: coarse)').matches) {
      try {
        await navigator.share({ title: name, url });
        return;
      } catch (err) {
        if (err instanceof DOMException && err.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // Clipboard refused (insecure context or no permission): show the link to copy by hand.
      // Nothing was copied, so the button does not say it was.
      window.prompt('Copy this link', url);
      return;
    }
    shareButton.textContent = 'Link copied!';
    shareStatus.textContent = 'Link copied to the clipboard';
    clearTimeout(copiedTimer);
    copiedTimer = setTimeout(() => {
      shareButton.textContent = 'Share';
      shareStatus.textContent = '';
    }, COPIED_MS);
  });

  // Report dialog: a reason enables Submit; 'Reported' shows for REPORTED_MS, then it closes.
  const radios = () => [...form.querySelectorAll<HTMLInputElement>('input[name="reason"]')];
  const reason = () => radios().find((r) => r.checked)?.value ?? '';
  const showError = (message: string) => {
    error.textContent = message;
    error.hidden = !message;
  };
  // Opening shows the form as the visitor left it (a reason picked, details typed, then Esc
  // or Cancel keeps them); only a sent report empties it.
  const showForm = () => {
    showError('');
    submit.disabled = !reason();
    submit.textContent = 'Submit Report';
    form.hidden = false;
    done.hidden = true;
    dialog.setAttribute('aria-labelledby', 'report-title');
  };
  const reset = () => {
    form.reset();
    showForm();
  };
  opener.addEventListener('click', () => {
    void loadReporting().catch(() => {
      reporting = undefined;
    });
    showForm();
    dialog.showModal();
  });
  q('[data-report-cancel]').addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => opener.focus());
  form.addEventListener('change', () => {
    submit.disabled = !reason();
  });

  // showModal makes the page inert; this keeps Tab cycling inside the dialog too.
  dialog.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab') return;
    const focusable = [
      ...dialog.querySelectorAll<HTMLElement>('button:not([disabled]), input:not([tabindex="-1"]), textarea'),
    ].filter((el) => {
      if (el.offsetParent === null) return false;
      // Only one radio of a group is a tab stop: the checked one, or the first when none is.
      if (el instanceof HTMLInputElement && el.type === 'radio') return reason() ? el.checked : el === radios()[0];
      return true;
    });
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  });

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!reason()) return;
    submit.disabled = true;
    submit.textContent = 'Sending…';
    showError('');
    let refused: string | null;
    try {
      const { sendReport } = await loadReporting();
      refused = await sendReport(form, id, FAILED);
    } catch {
      refused = FAILED;
    } finally {
      resetTurnstile(form);
    }
    if (refused !== null) {
      showError(refused);
      submit.disabled = false;
      submit.textContent = 'Submit Report';
      return;
    }
    // No event here: the server recorded the report when it stored it (one action, one row).
    form.hidden = true;
    done.hidden = false;
    dialog.setAttribute('aria-labelledby', 'report-done-title');
    setTimeout(() => {
      dialog.close();
      reset();
    }, REPORTED_MS);
  });
}

for (const root of document.querySelectorAll<HTMLElement>('[data-server-actions]')) serverActions(root);

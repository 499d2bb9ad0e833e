import { type ReactNode, type SubmitEvent, useState } from 'react';
import { messageOf } from './api';

/** Tells the build bar that something was written (it refreshes at once). */
const announceChange = (): void => {
  window.dispatchEvent(new Event('admin:changed'));
};

/** Short local date and time of an ISO timestamp. */
export const formatDate = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';

/** An error or notice line announced to screen readers. */
export function Notice({ kind = 'error', children }: { kind?: 'error' | 'ok'; children: ReactNode }) {
  if (!children) return null;
  return (
    <p className={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

/** A screen's error and success lines (useWrites' error and done). */
export const Notices = ({ error, done }: { error: string; done: string }) => (
  <>
    <Notice>{error}</Notice>
    <Notice kind="ok">{done}</Notice>
  </>
);

/**
 * An edit form's last line: its submit button, and Cancel; `error` says beside them why the last
 * save was refused (where the operator is looking, not only at the top of the screen).
 */
export const FormActions = ({
  submit,
  onCancel,
  error = '',
}: {
  submit: string;
  onCancel: () => void;
  error?: string;
}) => (
  <div className="actions">
    <button type="submit" className="btn btn-primary">
      {submit}
    </button>
    <button type="button" className="btn btn-ghost" onClick={onCancel}>
      Cancel
    </button>
    <Notice>{error}</Notice>
  </div>
);

/** A coloured label for a status value. */
export const Badge = ({ value }: { value: string }) => (
  <span className={`badge badge-${value}`}>{value.replace('_', ' ')}</span>
);

/** Previous/next paging with "page N of M"; `label` names it where a screen has two paged lists. */
export function Pager({
  page,
  perPage,
  total,
  onPage,
  label = 'Pages',
}: {
  page: number;
  perPage: number;
  total: number;
  onPage: (page: number) => void;
  label?: string;
}) {
  const pages = Math.max(1, Math.ceil(total / perPage));
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="btn" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages} · {total} total
      </span>
      <button type="button" className="btn" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** A row of labelled stat tiles, in the order given. */
export const Stats = ({ items }: { items: [label: string, value: number | string][] }) => (
  <div className="stats">
    {items.map(([label, value]) => (
      <div className="stat" key={label}>
        <span className="stat-value">{typeof value === 'number' ? value.toLocaleString() : value}</span>
        <span className="stat-label">{label}</span>
      </div>
    ))}
  </div>
);

/** A labelled select over a list's values, with an option for no filter first ("All"). */
export function FilterSelect<V extends string>({
  label,
  value,
  values,
  all = 'All',
  text = (v) => v,
  onChange,
}: {
  label: string;
  value: V | '';
  values: readonly V[];
  all?: string;
  /** What an option shows (the value itself by default). */
  text?: (value: V) => string;
  onChange: (value: V | '') => void;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(values.find((v) => v === e.target.value) ?? '')}>
        <option value="">{all}</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {text(v)}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * A list's search form: a search box read when sent, `filters` between it and the Search
 * button, `children` after it.
 */
export function SearchForm({
  label,
  placeholder,
  onSearch,
  filters,
  children,
}: {
  label: string;
  placeholder?: string;
  onSearch: (search: string) => void;
  filters?: ReactNode;
  children?: ReactNode;
}) {
  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    onSearch(String(new FormData(e.currentTarget).get('search') ?? '').trim());
  };
  return (
    <form className="toolbar" aria-label="Search" onSubmit={submit}>
      <label>
        {label}
        <input type="search" name="search" placeholder={placeholder} />
      </label>
      {filters}
      <button type="submit" className="btn">
        Search
      </button>
      {children}
    </form>
  );
}

/**
 * Gives the focus to the heading of the screen in `main` once it shows (a screen loading its data
 * shows its heading with it), unless the focus went somewhere meanwhile. Checked each frame, for
 * about ten seconds at most.
 */
export function focusScreenHeading(main: HTMLElement | null) {
  let frames = 600;
  const step = () => {
    const now = document.activeElement;
    if (!main || (now && now !== document.body)) return;
    const heading = main.querySelector<HTMLElement>('h1');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus();
      return;
    }
    if (--frames > 0) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

/**
 * A write that takes away the control it was started from (a row's Delete, with its row) leaves
 * the focus on the page, and a keyboard or screen reader user back at its top: the focus goes to
 * the screen's heading instead, once the control is gone. Called as the write starts (the control
 * still in its screen); what it returns is called when the write is done. Frames are waited for,
 * not a fixed time: the control leaves when the screen has rendered what the write changed.
 */
function keepFocusInScreen(): () => void {
  const from = document.activeElement;
  const heading =
    from instanceof HTMLElement && from !== document.body
      ? from.closest('main')?.querySelector<HTMLElement>('h1')
      : null;
  return () => {
    if (!heading || !from) return;
    let frames = 60;
    const check = () => {
      const now = document.activeElement;
      if (now && now !== document.body && now !== from) return; // The user moved on.
      if (!from.isConnected && (!now || now === document.body)) {
        heading.tabIndex = -1;
        heading.focus();
        return;
      }
      if (--frames > 0) requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  };
}

/**
 * Error and success messages of one console screen, and the one way its writes run: clear
 * the messages, do the write, say what happened, tell the build bar when a public page may
 * change, and reload the screen's list in every case so it shows what is stored.
 */
export function useWrites() {
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async (
    /** What happened; a function is read after the write (a message that depends on its answer). */
    label: string | (() => string),
    write: () => Promise<unknown>,
    reload: () => Promise<void>,
    { publishes = true }: { publishes?: boolean } = {},
  ): Promise<boolean> => {
    const refocus = keepFocusInScreen();
    setError('');
    setDone('');
    setBusy(true);
    try {
      await write();
      setDone(typeof label === 'function' ? label() : label);
      if (publishes) announceChange();
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    } finally {
      setBusy(false);
      await reload();
      refocus();
    }
  };
  return { error, setError, done, setDone, busy, run };
}

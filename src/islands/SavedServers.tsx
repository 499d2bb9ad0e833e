import { useEffect, useRef, useState } from 'react';
import { readSaved, type SavedServer, track, writeSaved } from '~/lib/analytics';
import { countOf } from '~/lib/format';
import { ServerIcon } from './ServerIcon';

/** Where focus goes once a server is removed: the remove button at this place in the list, or the empty state. */
type FocusAfter = number | 'empty' | null;

/** The servers saved in this browser (localStorage `savedServers`). */
export default function SavedServers() {
  const [list, setList] = useState<SavedServer[] | null>(null);
  useEffect(() => setList(readSaved()), []);
  // The removed item's button took focus with it (to the body): keep a keyboard user in the list.
  const [focusAfter, setFocusAfter] = useState<FocusAfter>(null);
  const items = useRef<HTMLUListElement>(null);
  const empty = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusAfter === null) return;
    if (focusAfter === 'empty') empty.current?.focus();
    else items.current?.querySelectorAll<HTMLButtonElement>('button[data-remove]')[focusAfter]?.focus();
    setFocusAfter(null);
  }, [focusAfter]);

  if (list === null) return <p className="count">Loading saved servers…</p>;
  if (list.length === 0) {
    return (
      <div className="state">
        {/* Focusable from script only: where focus lands when the last saved server is removed. */}
        <h2 ref={empty} tabIndex={-1}>
          No saved servers yet
        </h2>
        <p>Press Save on any server page to keep it here.</p>
        <a className="btn btn-primary" href="/servers">
          Browse Servers
        </a>
      </div>
    );
  }
  function remove(id: number) {
    const at = list?.findIndex((s) => s.id === id) ?? -1;
    const next = readSaved().filter((s) => s.id !== id);
    writeSaved(next);
    setList(next);
    // The next server's Remove (now at the same place), the previous one's after the last, or the empty state.
    setFocusAfter(next.length === 0 ? 'empty' : Math.min(Math.max(at, 0), next.length - 1));
    // Removing here is the same action as Unsave on the server page, and only this page sees it.
    track({ interaction_type: 'unsave', target_type: 'server', target_id: String(id), server_id: id });
  }
  return (
    <>
      <p className="count">{countOf(list.length, 'saved server')}</p>
      <ul className="saved-list" ref={items}>
        {list.map((s) => (
          <li key={s.id} className="saved-item">
            <ServerIcon name={s.name} src={s.image_url} size={48} />
            <div className="grow">
              <a href={s.slug ? `/server/${s.slug}` : '/servers'}>
                <strong>{s.name}</strong>
              </a>
              <p className="muted flush">
                {s.category} · saved {new Date(s.savedAt).toLocaleDateString()}
              </p>
            </div>
            <button type="button" className="btn btn-ghost" data-remove onClick={() => remove(s.id)}>
              Remove<span className="visually-hidden"> {s.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

import { useEffect, useState } from 'react';
import { readSaved, type SavedServer, track, writeSaved } from '~/lib/analytics';
import { countOf } from '~/lib/format';
import { ServerIcon } from './ServerIcon';

/** The servers saved in this browser (localStorage `savedServers`). */
export default function SavedServers() {
  const [list, setList] = useState<SavedServer[] | null>(null);
  useEffect(() => setList(readSaved()), []);

  if (list === null) return <p className="count">Loading saved servers…</p>;
  if (list.length === 0) {
    return (
      <div className="state">
        <h2>No saved servers yet</h2>
        <p>Press Save on any server page to keep it here.</p>
        <a className="btn btn-primary" href="/servers">
          Browse Servers
        </a>
      </div>
    );
  }
  function remove(id: number) {
    const next = readSaved().filter((s) => s.id !== id);
    writeSaved(next);
    setList(next);
    // Removing here is the same action as Unsave on the server page, and only this page sees it.
    track({ interaction_type: 'unsave', target_type: 'server', target_id: String(id), server_id: id });
  }
  return (
    <>
      <p className="count">{countOf(list.length, 'saved server')}</p>
      <ul className="saved-list">
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
            <button type="button" className="btn btn-ghost" onClick={() => remove(s.id)}>
              Remove<span className="visually-hidden"> {s.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

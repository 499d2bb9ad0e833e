import { type KeyboardEvent, useEffect, useRef, useState } from 'react';

interface Tab {
  id: string;
  label: string;
  items: { q: string; a: string; link?: { href: string; label: string } | undefined }[];
}

interface Props {
  tabs: Tab[];
}

/**
 * FAQ with search (case-insensitive, question and answer, active tab only), tabs and an accordion.
 * It hydrates when the visitor starts on it (client:interaction): a click on a tab or a question
 * made meanwhile is clicked again by the directive, and a search typed meanwhile is read here.
 * Every tab's panel is in the page (the inactive ones `hidden`), so without JavaScript the page
 * still holds every answer: the stylesheet's `(scripting: none)` rules then show each panel under
 * its title with its answers open, and leave out the search and the tabs, which need a script.
 */
export default function HelpFaq({ tabs }: Props) {
  const [active, setActive] = useState(tabs[0]?.id ?? '');
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const search = useRef<HTMLInputElement>(null);
  // One FAQ per page: fixed ids (no useId, so the build can render islands with renderToString).
  const uid = 'faq';

  // A search typed before the script ran (the island hydrates on interaction) is applied once it has.
  useEffect(() => {
    const typed = search.current?.value ?? '';
    if (typed) setQuery(typed);
  }, []);

  const tab = tabs.find((t) => t.id === active) ?? tabs[0];
  const q = query.trim().toLowerCase();
  /**
   * A panel's questions, each with its place in the tab (the open question and the ids are keyed by
   * it, so a search keeps the question being read open and never opens another): the search applies
   * to the active tab's.
   */
  const itemsOf = (t: Tab) => {
    const all = t.items.map((item, index) => ({ item, index }));
    return t !== tab || !q
      ? all
      : all.filter(({ item }) => item.q.toLowerCase().includes(q) || item.a.toLowerCase().includes(q));
  };

  function onTabKey(e: KeyboardEvent, index: number) {
    let next = -1;
    if (e.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    e.preventDefault();
    setActive(tabs[next]!.id);
    setOpen(null);
    tabRefs.current[next]?.focus();
  }

  return (
    <div>
      <div className="faq-tools">
        <div className="inline-search">
          <label htmlFor={`${uid}-q`} className="visually-hidden">
            Search the help center
          </label>
          <input
            ref={search}
            id={`${uid}-q`}
            type="search"
            placeholder="Search questions…"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        <div className="tabs" role="tablist" aria-label="Help topics">
          {tabs.map((t, i) => (
            <button
              key={t.id}
              ref={(el) => {
                tabRefs.current[i] = el;
              }}
              id={`${uid}-tab-${t.id}`}
              type="button"
              role="tab"
              className="chip tab"
              aria-selected={t.id === tab?.id}
              aria-controls={`${uid}-panel-${t.id}`}
              tabIndex={t.id === tab?.id ? 0 : -1}
              onClick={() => {
                setActive(t.id);
                setOpen(null);
              }}
              onKeyDown={(e) => onTabKey(e, i)}
            >
              {t.label}
            </button>
          ))}
        </div>
      </div>
      {tabs.map((t) => {
        const items = itemsOf(t);
        return (
          <div
            key={t.id}
            id={`${uid}-panel-${t.id}`}
            className="faq-panel"
            role="tabpanel"
            aria-labelledby={`${uid}-tab-${t.id}`}
            hidden={t.id !== tab?.id}
          >
            <p className="faq-panel-title" aria-hidden="true">
              {t.label}
            </p>
            {items.length === 0 ? (
              <p className="state">
                No questions match “{query}” in {t.label}.
              </p>
            ) : (
              <ul className="faq">
                {items.map(({ item, index }) => {
                  const key = `${t.id}-${index}`;
                  const expanded = open === key;
                  return (
                    <li key={key}>
                      <h2 className="faq-q-heading">
                        <button
                          type="button"
                          className="faq-q"
                          aria-expanded={expanded}
                          aria-controls={`${uid}-a-${key}`}
                          onClick={() => setOpen(expanded ? null : key)}
                        >
                          {item.q}
                          <span aria-hidden="true">+</span>
                        </button>
                      </h2>
                      <div id={`${uid}-a-${key}`} className="faq-a" hidden={!expanded}>
                        {item.a}
                        {item.link ? (
                          <>
                            {' '}
                            <a href={item.link.href}>{item.link.label}</a>
                          </>
                        ) : null}
                      </div>
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        );
      })}
    </div>
  );
}

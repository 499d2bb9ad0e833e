import { CLAIMS } from '~/lib/claims';
import { formatMembers } from '~/lib/format';
import { getLanguage } from '~/lib/languages';
import { organicRanks } from '~/lib/placement';
import { placementDay } from '~/lib/pricing/plans';
import { type CardServer, isPaidCard, joinProps } from './card-data';
import { ServerIcon } from './ServerIcon';

interface Props {
  server: CardServer;
  /** 1-based rank; #1-#3 get gold, silver and bronze badges. */
  rank?: number;
  headingLevel?: 2 | 3;
  eager?: boolean;
}

const RANK_CLASS = ['', 'rank-gold', 'rank-silver', 'rank-bronze'];

/** A day of an ISO time as "3 Jan 2027" in a <time>: the same on the server and in any browser (UTC). */
const day = (iso: string) => <time dateTime={iso}>{placementDay(iso)}</time>;

/**
 * "About this placement" (#19, #30): who paid (the listing's owner) or that operators granted it
 * free, until when (the paid-until of its order), and that it does not change the organic rank.
 * Without a recorded end it says nothing about the period. A <details> element: keyboard
 * accessible and working without JavaScript, so static cards (never hydrated) open it too.
 */
function PlacementNote({ s }: { s: CardServer }) {
  const kind = s.is_sponsored ? 'Sponsored' : 'Premium';
  const until = s.placement_ends_at;
  return (
    <details className="placement">
      <summary>About this placement</summary>
      <div className="placement-body">
        <p>
          {s.placement_kind === 'comp' ? (
            <>{kind} placement granted free of charge by the operators of this site</>
          ) : (
            <>
              {kind} placement paid for by the owner of {s.name}
            </>
          )}
          {until ? <>, until {day(until)}</> : null}.
        </p>
        <p>
          {CLAIMS.placementRank} <a href="/ranking#placement">How ranking works</a>
        </p>
      </div>
    </details>
  );
}

/** One server in a grid: badges, name, two-line description, members, tags, View Details and Join. */
export function ServerCard({ server: s, rank, headingLevel = 3, eager = false }: Props) {
  const join = s.invite_notice ? null : joinProps(s);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const paid = isPaidCard(s);
  const language = getLanguage(s.language);
  return (
    <article className={`card${paid ? ' card-paid' : ''}`} data-paid={paid ? 'true' : undefined}>
      {rank ? (
        <span className={`rank ${RANK_CLASS[rank] ?? 'rank-other'}`} role="img" aria-label={`Rank ${rank}`}>
          #{rank}
        </span>
      ) : null}
      <div className="card-head">
        <ServerIcon name={s.name} src={s.image_url} size={56} eager={eager} />
        <div className="card-title">
          <div className="badges">
            {s.is_sponsored ? <span className="badge badge-sponsored">Sponsored</span> : null}
            {s.is_premium ? <span className="badge badge-premium">Premium</span> : null}
            <span className="badge badge-cat">{s.category}</span>
            {language ? (
              <span
                className="badge badge-lang"
                title={s.region ? `${language.name}, region ${s.region}` : language.name}
              >
                <span className="visually-hidden">Language: </span>
                {language.name}
                {s.region ? ` · ${s.region}` : ''}
              </span>
            ) : null}
          </div>
          <Heading className="card-name">
            <a href={`/server/${s.slug}`}>{s.name}</a>
          </Heading>
        </div>
      </div>
      <p className="card-desc">{s.description}</p>
      {paid ? <PlacementNote s={s} /> : null}
      <p className="card-members">
        <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
          <path
            fill="currentColor"
            d="M16 11a4 4 0 1 0-4-4 4 4 0 0 0 4 4Zm-8 0a3 3 0 1 0-3-3 3 3 0 0 0 3 3Zm0 2c-2.7 0-6 1.3-6 3.5V19h6v-2.5c0-1.2.5-2.3 1.4-3.2A9 9 0 0 0 8 13Zm8 0c-3 0-6 1.5-6 3.5V19h12v-2.5c0-2-3-3.5-6-3.5Z"
          />
        </svg>
        <span>{formatMembers(s.members)} members</span>
        {s.rating !== null ? (
          <span className="card-rating" title="Average of verified members' reviews">
            <span aria-hidden="true">★</span> {s.rating.toFixed(1)}
            <span className="muted"> ({s.review_count} reviews)</span>
          </span>
        ) : null}
      </p>
      {s.tags.length > 0 ? (
        <ul className="tags" aria-label="Tags">
          {s.tags.slice(0, 3).map((t) => (
            <li key={t} className="tag">
              {t}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="card-actions">
        <a className="btn btn-ghost" href={`/server/${s.slug}`} aria-label={`View details of ${s.name}`}>
          View Details
        </a>
        {s.invite_notice ? <p className="card-invite-notice">{s.invite_notice}</p> : null}
        {join ? (
          <a
            className={`btn ${join.paid ? 'btn-premium' : 'btn-primary'}`}
            href={join.href}
            target={join.target}
            rel={join.rel}
            aria-label={`${join.label}: ${s.name} (opens in a new tab)`}
          >
            {join.label}
          </a>
        ) : null}
      </div>
    </article>
  );
}

interface GridProps {
  servers: CardServer[];
  /** Organic rank of the first unpaid card (unpaid cards before this page + 1). */
  firstRank?: number;
}

/**
 * A ranked grid of cards for static listing pages. One React render for the whole grid: a
 * build renders hundreds of listing pages, and each framework component costs a render call.
 */
export function ServerCardGrid({ servers, firstRank = 1 }: GridProps) {
  // Organic rank numbers skip paid cards (src/lib/placement.ts placed them).
  const ranks = organicRanks(servers, isPaidCard, firstRank);
  return (
    <div className="grid">
      {servers.map((s, i) => (
        <ServerCard key={s.id} server={s} {...(ranks[i] ? { rank: ranks[i] } : {})} eager={i < 3} />
      ))}
    </div>
  );
}

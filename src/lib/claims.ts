/**
 * Every statement the site makes about the product itself (review, publishing, freshness, ranking,
 * placements, money, mail, the newsletter, support), edited here and only here: pages, islands
 * and the FAQ import them. Each must be true of the product as it stands; tests/api/claims.test.ts
 * lists every claim with the behaviour that backs it, so changing the behaviour fails that test
 * until the copy says what is true again. Pure data: this module runs in the browser too.
 *
 * The mail claims (`outcomeMail`, `contactReply`, `subscribed`, `newsletter`) hold because the
 * mails exist (functions/_app/mail/, written to the outbox with their event) and are tested.
 */

import { MIN_INDEXED_SEARCH, SHORT_TERM_WINDOW } from './listing';
import { formatPrice, formatTerm, type Plan, REFUND_RULE } from './pricing/plans';

/** Facts read once per build (src/data/site-data.ts) that some claims state. */
export interface ClaimFacts {
  /**
   * The listings the refresh job can look up again each day on this deployment: listingsPerDay of
   * REFRESH_PER_10MIN at the pace of REFRESH_LOOKUPS_PER_PASS (the Worker's 50 subrequests a minute).
   */
  refreshPerDay: number;
  /** The SUPPORT_EMAIL setting, else support@ the site's own host. */
  supportEmail: string;
  /** Active newsletter subscribers when the site was built. */
  subscribers: number;
  /** The plans on sale (the plans table, #30), cheapest first within each placement. */
  plans: Pick<Plan, 'name' | 'placement' | 'term_days' | 'price_cents' | 'currency'>[];
  /** Whether buying is open: both Stripe keys are set. */
  payments: boolean;
  /** SPONSORED_SLOTS_PER_CATEGORY. */
  sponsoredSlots: number;
  /** MIN_MEMBERS: the member requirement (#32, src/lib/requirements/). */
  minMembers: number;
}

/** The claims, each a sentence or two; those that state a build-time fact are the functions below. */
export const CLAIMS = {
  /** Submitting costs nothing: no route takes a payment. */
  free: 'Listing is free.',
  /** Submissions wait as 'pending' until an operator approves them in the console. */
  reviewedByHand: 'A moderator reviews every submission by hand before it is listed.',
  /**
   * No review time is promised; the queue as it stands is shown instead (#32: the submit page and
   * the "received" mail state queueSentence, from the decisions themselves).
   */
  reviewTime:
    'We do not promise a review time. The submit page and the "received" email show the queue as it stands: how many submissions wait, and how long recent decisions took, measured from the decisions themselves.',
  /**
   * Approval creates the listing and requests the site rebuild in the same call; a listing that is
   * not prerendered has its page rendered on request (#18), so the page is live at once. No
   * duration is promised for the listings: seconds to minutes for `npm start`'s in-process
   * build (BENCHMARKS.md), longer for a hosted build hook.
   */
  liveOnApproval:
    "There is no waiting period after approval: the server's own page is live and search finds it at once, and approving starts a rebuild of the site, so it is on its category's listing as soon as that rebuild is live.",
  /** Short form of liveOnApproval, for the home page's hero line. */
  rebuiltOnApproval: 'rebuilt with every approval',
  /**
   * The submitter's mails (#16): "received" is written with the submission, "approved" (the live
   * page's address) and "rejected" (reasons, note, signed appeal link: #32) with the decision.
   */
  outcomeMail:
    "We are sending you an email confirming we received it, and we will email you the outcome: your server's page when it is approved, or the reasons, the moderator's note and a link to appeal once when it is not.",
  /**
   * Rejections and hides (#32): reasons from MODERATION_REASONS, an optional note, the mail with a
   * signed appeal link, one appeal per decision (up to 1,000 characters, no account), decided by
   * another moderator where there is one, the outcome mailed; /moderation publishes monthly counts.
   */
  appeals:
    'A rejection or a hidden listing always comes with its reasons (and the requirement, when one is not met) by email, with a link to appeal once, without an account. Another moderator than the one who decided reviews the appeal where there is one, and we email you the outcome. The moderation log (/moderation) publishes the decisions each month as counts.',
  /** What the visitor reads after submitting (SubmitForm, the no-JavaScript received page). */
  received:
    'A moderator will review your server by hand. Approval publishes it straight away: the site is rebuilt at once, with no waiting period.',
  /** Followed by the contact address the owner gave: a moderator writes by hand, if at all. */
  moderatorWrites: 'If a moderator needs anything, they will write to',
  /**
   * Public lists sort by members unless a visitor picks another order; the rank score behind Most
   * Active reads checked signals only (src/lib/ranking/formula.ts), never a paid placement, and
   * /ranking publishes its weights from the same constants.
   */
  /**
   * Member reviews (#31) do not enter the rank score: src/lib/ranking/formula.ts reads checked
   * signals only, and /ranking says so.
   */
  reviewsInRank:
    'Member reviews do not count in the rank: the score reads only the signals above, so a server cannot raise its place with reviews, bought or real. Reviews show on the server page, with their average once at least 3 show.',
  ranking:
    "Lists show the most members first unless you pick another order: Most Active (a score from checked signals only, explained on How ranking works), Newest or Growing. Paid placement never changes a rank: the numbers on the cards of a list count unpaid servers only. Paid servers stand ahead of others only in the labelled Premium Picks and, for Sponsored ones, at the head of their own category's list, labelled.",
  /**
   * How paid cards stand in lists (src/lib/placement.ts, used by the pages, the islands and
   * GET /api/servers) and how they are disclosed (ServerCard: label, colours, "About this placement").
   */
  /** The last line of every "About this placement" note (ServerCard). */
  placementRank:
    'It does not change the organic rank: the numbers on the cards of a list count unpaid servers only. Listings give paid cards at most one position in five (any that no other server is left to space out end the list); Sponsored cards lead the list of their category; Premium Picks shows paid cards only.',
  placement:
    'Every Premium or Sponsored card says so in words, has its own background and border, and an "About this placement" note saying who paid for it (the listing\'s owner), for how long, and that it does not change the organic rank. In any list of servers, paid cards take at most one position in five. Sponsored cards lead the list of their category and of its subcategories (not a search): the first stands first, each next one five positions after the one before. Any other paid card is never moved up, only down behind other servers when it would stand closer than that to another paid card; paid cards that no other server is left to space out stand at the end of the list, so every listed server has a card in every list it belongs to and every count counts it. The numbers on the cards of a list count the other servers only. Premium Picks on the home page and a list filtered to Premium Only hold paid cards alone.',
  /**
   * Owner accounts (#17): sign-in with Discord claims the listings whose guild the owner's guild list
   * shows them owning or managing; edits (EDITABLE_FIELDS) wait for a moderator (listing_edits), a replaced invite is
   * checked with Discord at once, and /account shows views, join clicks and conversion for 7, 30 and
   * 90 days (user_interactions) and the member history (server_snapshots). Open to every owner, paid or not.
   */
  ownerAccounts:
    'Owners sign in with Discord to manage their listing: a listing is yours when Discord shows you own the server or have the Manage Server permission in it. You can edit its description, tags, features, subcategory and links (a moderator reviews every edit before it goes live), replace its invite (checked with Discord at once) or remove it, and see its views, join clicks and conversion over the last week, month and three months, and its member history. Every owner gets this, Premium or not.',
  /** A checked listing's counts are Discord's answer to its invite (applyCheck writes them). */
  countsFromDiscord: 'Counts are approximate, from Discord.',
  /** A listing no check has answered for yet keeps what its owner gave. */
  notYetChecked: 'Counts as the owner gave them: not yet checked with Discord.',
  /** What the premium flag changes on the site. */
  premium:
    'Premium servers get a Premium badge, a Join Premium button that opens their invite directly, and a turn in Premium Picks on the home page (six at a time, in our curated order).',
  /** What the sponsored flag changes, and what it does not. */
  sponsored:
    "Sponsored servers get a Sponsored label, a turn in Premium Picks on the home page like Premium ones, and the head of their category's list (and of its subcategory's): the first Sponsored card stands first, the next one five positions later. In any other list, and in a search, they are never moved up, and a paid placement never changes a rank.",
  /** Checkout (#30): Stripe Checkout in payment mode, a fixed term, no subscription; the flags follow the order. */
  payments:
    'Premium and Sponsored placements are a one-off card payment through Stripe Checkout for a fixed term. Nothing renews by itself: when the term ends, the placement ends. Listing stays free.',
  /** The owner's refund route (30 days from payment), the admins' refund of any order, disputes suspending. */
  refunds: `${REFUND_RULE} A card dispute suspends the placement while it lasts.`,
  /** Without Stripe keys the pricing page shows the plans and this instead of a buy button. */
  paymentsClosed: 'Buying online is not open on this site yet: write to us and an operator answers by email.',
  /** A comp order (an operator's free grant) says so on the card. */
  compPlacement:
    'Operators can also grant a placement free of charge; its card then says so in "About this placement".',
  /** What the premium call to action leads to. */
  premiumCta: 'Tell us about your server and the placement you want; an operator answers by email.',
  /** Contact messages land in the console's inbox. */
  /** The message reaches SUPPORT_EMAIL and the console inbox; the visitor gets an acknowledgement by mail (#16). */
  contactReply:
    'A person reads every message in our inbox and answers by email. We email you a short acknowledgement that it arrived; it never repeats what you wrote.',
  /** After a signup (#16, double opt-in): pending, with the confirmation mail and nothing else until it is followed. */
  subscribed:
    'We are sending you a confirmation link by email: your subscription starts when you follow it, and until then we send nothing else.',
  /**
   * The weekly issue (#16: jobs/newsletter.ts, Mondays) to confirmed subscribers, double opt-in, and
   * a one-click unsubscribe link in every mail (RFC 8058).
   */
  newsletter:
    "Weekly premium picks: our premium and sponsored servers and the week's fastest-growing ones, once a week. We send a confirmation link first; unsubscribe any time with one click.",
  /**
   * A search of one or two characters looks among the order's first SHORT_TERM_WINDOW listings only
   * (db/queries/servers.ts); three characters or more search every listing (the trigram index).
   */
  shortSearch: `A search of one or two characters looks among the first ${SHORT_TERM_WINDOW.toLocaleString('en-US')} servers in this order; type ${MIN_INDEXED_SEARCH} characters or more to search every server.`,
} as const;

/** A claim's key. */
export type ClaimKey = keyof typeof CLAIMS;

/** The smallest subscriber count the site states (below it, a number only draws attention). */
export const MIN_STATED_SUBSCRIBERS = 100;

/**
 * The subscriber figure the newsletter box may state, or null: the build's real count rounded
 * down to two significant figures ("1,200+" for 1,234), and nothing at all below 100.
 */
export function subscriberFigure(subscribers: number): string | null {
  if (!Number.isFinite(subscribers) || subscribers < MIN_STATED_SUBSCRIBERS) return null;
  const step = 10 ** (Math.floor(Math.log10(subscribers)) - 1);
  return `${(Math.floor(subscribers / step) * step).toLocaleString('en-US')}+`;
}

/** The newsletter box's text: the real subscriber figure when there is one worth stating. */
export function newsletterPitch(facts: Pick<ClaimFacts, 'subscribers'>): string {
  const figure = subscriberFigure(facts.subscribers);
  return figure ? `${CLAIMS.newsletter} ${figure} readers have signed up so far.` : CLAIMS.newsletter;
}

/**
 * How fresh the counts are (the refresh job, functions/_app/jobs/refresh.ts): each listing's invite
 * looked up, Discord's counts written; a working invite due again within a day (SCHEDULE.okMs with
 * its jitter) for as many listings as this deployment's lookups cover (`refreshPerDay`).
 */
export function countsClaim(facts: Pick<ClaimFacts, 'refreshPerDay'>): string {
  return `A refresh job looks up every listing's invite with Discord and takes its member and online counts from the answer (Discord's approximate figures). A working invite is looked up again within a day, for up to ${facts.refreshPerDay.toLocaleString('en-US')} listings (the lookups Discord's limits leave us); beyond that, the listings checked longest ago go first. Each server page says when it was last checked.`;
}

/** Each plan as one line: "Sponsored week: $49.00 for 7 days". */
export const planLines = (facts: Pick<ClaimFacts, 'plans'>): string[] =>
  facts.plans.map((p) => `${p.name}: ${formatPrice(p.price_cents, p.currency)} for ${formatTerm(p.term_days)}`);

/** The prices as the FAQ states them, from the plans table (or that none is on sale). */
export function pricingAnswer(facts: Pick<ClaimFacts, 'plans' | 'payments'>): string {
  const lines = planLines(facts);
  const prices = lines.length > 0 ? `${lines.join('; ')}. ` : 'No plan is on sale at the moment. ';
  return `${prices}${facts.payments ? CLAIMS.payments : CLAIMS.paymentsClosed} The pricing page (/pricing) lists every plan.`;
}

/** The sponsored cap as pages state it (SPONSORED_SLOTS_PER_CATEGORY). */
export const sponsoredCap = (facts: Pick<ClaimFacts, 'sponsoredSlots'>): string =>
  `At most ${facts.sponsoredSlots} listings per category are Sponsored at once. When a category is full, a purchase is scheduled to start when the next slot frees, never overbooked.`;

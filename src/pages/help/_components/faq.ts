import { CLAIMS, type ClaimFacts, countsClaim, pricingAnswer, sponsoredCap } from '~/lib/claims';
import { requirementsSummary } from '~/lib/requirements';

/** One FAQ tab of the help page. */
export interface FaqTab {
  id: string;
  label: string;
  /** An answer may end with one link (the Pricing & Billing answers link /pricing). */
  items: { q: string; a: string; link?: { href: string; label: string } }[];
}

/**
 * The help page's questions. Answers that state something about the product come from
 * src/lib/claims.ts (where they are kept true), never written here.
 */
export const faqTabs = (facts: ClaimFacts): FaqTab[] => [
  {
    id: 'general',
    label: 'General',
    items: [
      {
        q: 'What is GuildRank?',
        a: `GuildRank is a directory of Discord communities for gaming, crypto, trading, investing and sports betting. ${CLAIMS.reviewedByHand} ${CLAIMS.ranking}`,
      },
      {
        q: 'How are servers ranked?',
        a: `${CLAIMS.ranking} The How ranking works page (/ranking) lists every signal, weight and cap of the score, from the code that computes it.`,
      },
      {
        q: 'How often is the data updated?',
        a: `${countsClaim(facts)} ${CLAIMS.liveOnApproval}`,
      },
      {
        q: 'How do I save a server?',
        a: 'Press Save on a server page. Saved servers are kept in this browser only and are listed on the Saved page.',
      },
      {
        q: 'How do I report a server?',
        a: 'Open the server page and press Report. Pick a reason, add details if you like, and a moderator reviews it.',
      },
    ],
  },
  {
    id: 'submission',
    label: 'Server Submission',
    items: [
      {
        q: 'How long does review take?',
        a: `${CLAIMS.reviewedByHand} ${CLAIMS.reviewTime} ${CLAIMS.liveOnApproval}`,
      },
      {
        q: 'What are the requirements?',
        // From the requirements module the submit check applies (#32), never written here.
        a: requirementsSummary(facts.minMembers),
        link: { href: '/requirements', label: 'Listing requirements' },
      },
      {
        q: 'What if my server is rejected or hidden?',
        a: CLAIMS.appeals,
        link: { href: '/moderation', label: 'Moderation log' },
      },

      {
        q: 'What icon should I use?',
        a: 'A square icon of at least 512x512 pixels, PNG or JPG, under 2MB.',
      },
      {
        q: 'Is listing free?',
        a: `Yes. ${CLAIMS.free} Premium and Sponsored placements are optional and never change a rank.`,
      },
      {
        q: 'How do I manage my listing and see its numbers?',
        a: `${CLAIMS.ownerAccounts} Sign in from My listings (/account).`,
      },
    ],
  },
  {
    id: 'pricing',
    label: 'Pricing & Billing',
    items: [
      {
        q: 'What does Premium include?',
        a: CLAIMS.premium,
        link: { href: '/pricing', label: 'Pricing' },
      },
      {
        q: 'What does Sponsored mean?',
        a: CLAIMS.sponsored,
      },
      {
        q: 'How are paid placements shown?',
        a: CLAIMS.placement,
      },
      {
        q: 'What does it cost?',
        a: pricingAnswer(facts),
        link: { href: '/pricing', label: 'Pricing' },
      },
      {
        q: 'How many Sponsored listings can a category have?',
        a: sponsoredCap(facts),
      },
      {
        q: 'How do I pay, and can I get a refund?',
        a: `${facts.payments ? `${CLAIMS.payments} Press Promote beside your listing in My listings (/account).` : CLAIMS.paymentsClosed} ${CLAIMS.refunds}`,
      },
      {
        q: 'Can a placement be free?',
        a: CLAIMS.compPlacement,
      },
    ],
  },
  {
    id: 'technical',
    label: 'Technical Support',
    items: [
      {
        q: 'The Join button does not work',
        a: 'Join opens the server invite in a new tab. If the invite has expired, report the server with the reason "Broken invite link" and we will contact the owner.',
      },
      {
        q: 'My server does not show up in search',
        a: `${CLAIMS.liveOnApproval} If it is approved and still missing, check that the name you search matches the listing.`,
      },
      {
        q: 'How do I contact support?',
        a: `Use the contact form or email ${facts.supportEmail}. ${CLAIMS.contactReply}`,
      },
    ],
  },
];

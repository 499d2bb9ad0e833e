import { SUPPORT_EMAIL } from '~/lib/enums';

/** One FAQ tab of the help page. */
export interface FaqTab {
  id: string;
  label: string;
  items: { q: string; a: string }[];
}

// Answers follow SPEC section 9 (claims and promises).
export const FAQ: FaqTab[] = [
  {
    id: 'general',
    label: 'General',
    items: [
      {
        q: 'What is GuildRank?',
        a: 'GuildRank is a directory of Discord communities for gaming, crypto, trading, investing and sports betting. Every server is reviewed by a person before it is listed, and lists are ranked by member count.',
      },
      {
        q: 'How often is the data updated?',
        a: 'Member counts and listings are updated every 24 hours, and the site is rebuilt whenever a new server is approved.',
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
        a: 'Reviews usually take 48-72 hours. Once approved, a new server can take 24-48 hours to appear in search.',
      },
      {
        q: 'What are the requirements?',
        a: 'Your server needs at least 50 members, a permanent invite link, and must fit one of the five categories: Gaming, Crypto, Trading, Investing or Sports Betting.',
      },
      {
        q: 'What icon should I use?',
        a: 'A square icon of at least 512x512 pixels, PNG or JPG, under 2MB.',
      },
      {
        q: 'Is listing free?',
        a: 'Yes. A standard listing is free. Premium and sponsored placements are optional.',
      },
    ],
  },
  {
    id: 'pricing',
    label: 'Pricing & Billing',
    items: [
      {
        q: 'What does Premium include?',
        a: 'Premium includes priority placement, Premium badges, analytics on views and clicks, and priority support.',
      },
      {
        q: 'What does Sponsored mean?',
        a: 'Sponsored servers appear at the top of listings and on the home page, marked with a Sponsored badge.',
      },
      {
        q: 'Can I get a refund?',
        a: 'Premium and Sponsored placements come with a 30-day money-back guarantee.',
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
        a: 'New servers can take 24-48 hours to appear in search after approval. Check that the name you search matches the listing.',
      },
      {
        q: 'How do I contact support?',
        a: `Use the contact form or email ${SUPPORT_EMAIL}. We reply within 24 hours.`,
      },
    ],
  },
];

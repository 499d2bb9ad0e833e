// `npm run stripe:stand-in [-- --port 8791 --site http://localhost:4321]`: the tests' loopback Stripe
// stand-in (tests/helpers/stripe-stand-in.ts) as a process, for trying a purchase locally without a
// Stripe account. Start `npm start` with the three settings it prints; in My listings press Promote,
// and on the stand-in's checkout page press Pay: it sends the signed events to the site's webhook
// (/api/webhooks/stripe), as Stripe does.
import { parseArgs } from 'node:util';
import { STAND_IN_KEYS, startStripeStandIn } from '../tests/helpers/stripe-stand-in';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8791' },
    site: { type: 'string', default: 'http://localhost:4321' },
  },
});
const standIn = await startStripeStandIn({ port: Number(values.port) });
standIn.webhookUrl = `${values.site.replace(/\/+$/, '')}/api/webhooks/stripe`;
console.log(`Stripe stand-in listening on ${standIn.url}, sending events to ${standIn.webhookUrl}`);
console.log('Start the site with:');
console.log(`  STRIPE_API_BASE=${standIn.url}`);
console.log(`  STRIPE_SECRET_KEY=${STAND_IN_KEYS.secretKey}`);
console.log(`  STRIPE_WEBHOOK_SECRET=${STAND_IN_KEYS.webhookSecret}`);

// Rewrites the build's "N hours ago" texts with the visitor's clock: a page built hours ago would
// otherwise say the check was more recent than it was. The datetime stays the source of truth.
import { timeAgo } from '~/lib/invite-checks/display';

const now = new Date();
for (const el of document.querySelectorAll<HTMLTimeElement>('time[data-ago]')) {
  el.textContent = timeAgo(el.dateTime, now);
}

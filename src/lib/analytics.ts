import type { z } from 'zod';
import type { TargetType } from './enums';
import type { BrowserInteractionType, interactionSchema } from './schemas/interaction';

/** sessionStorage key of the per-tab analytics session id. */
export const SESSION_KEY = 'gr_session_id';

/** The per-tab session id, created once and reused (empty when storage is unavailable). */
export function sessionId(): string {
  try {
    let id = sessionStorage.getItem(SESSION_KEY);
    if (!id) {
      id = crypto.randomUUID();
      sessionStorage.setItem(SESSION_KEY, id);
    }
    return id;
  } catch {
    return '';
  }
}

/** What the page may report: views and clicks (signups, joins and conversions are the server's to record). */
export interface TrackEvent {
  interaction_type: BrowserInteractionType;
  target_type: TargetType;
  target_id?: string;
  server_id?: number;
  metadata?: Record<string, string | number | boolean | null>;
}

/** One event as `POST /api/events` takes it (its schema's input: a type, so no zod in the bundle). */
type EventBody = z.input<typeof interactionSchema>;

/**
 * Sends one analytics event without ever blocking the page: sendBeacon, else fetch keepalive.
 * Referrer and UTM come from the current page; failures are swallowed on purpose. Not through the
 * `api` client: a beacon must outlive the page that sends it, which `hc`'s fetch does not promise.
 */
export function track(event: TrackEvent): void {
  try {
    const params = new URLSearchParams(location.search);
    const body: EventBody = { ...event, session_id: sessionId() || undefined };
    if (document.referrer) body.referrer = document.referrer.slice(0, 2048);
    for (const key of ['utm_source', 'utm_medium', 'utm_campaign'] as const) {
      const v = params.get(key);
      if (v) body[key] = v.slice(0, 100);
    }
    const json = JSON.stringify(body);
    if (navigator.sendBeacon?.('/api/events', json)) return;
    void fetch('/api/events', {
      method: 'POST',
      body: json,
      keepalive: true,
      headers: { 'Content-Type': 'application/json' },
    }).catch(() => {});
  } catch {
    // Analytics must never break the page.
  }
}

/** One saved server, as stored in localStorage under `savedServers`. */
export interface SavedServer {
  id: number;
  name: string;
  category: string;
  image_url: string | null;
  slug?: string;
  savedAt: number;
}

/** localStorage key of the saved servers list. */
export const SAVED_KEY = 'savedServers';

/** Saved servers from localStorage (empty when missing or unreadable). */
export function readSaved(): SavedServer[] {
  try {
    const raw = JSON.parse(localStorage.getItem(SAVED_KEY) ?? '[]');
    return Array.isArray(raw) ? (raw as SavedServer[]) : [];
  } catch {
    return [];
  }
}

/** Replaces the saved servers list. */
export function writeSaved(list: SavedServer[]): void {
  try {
    localStorage.setItem(SAVED_KEY, JSON.stringify(list));
  } catch {
    // Private mode or full storage: saving is best effort.
  }
}

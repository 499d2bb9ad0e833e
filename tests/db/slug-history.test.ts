import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createServer,
  deleteServer,
  findServerSlug,
  getServerBySlug,
  type ServerWrite,
  setServerActive,
  updateServer,
} from '../../db/queries/servers';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(() => t.cleanup());

const server = (name: string, extra: Partial<ServerWrite> = {}): ServerWrite => ({
  name,
  description: `${name} community`,
  category: 'Gaming',
  members: 100,
  ...extra,
});

describe('slug history', () => {
  it('finds a renamed server by its former slug, through every rename', async () => {
    const row = await createServer(t.db, server('Pixel Raiders'));
    await updateServer(t.db, row.id, { name: 'Pixel Legends' });
    await updateServer(t.db, row.id, { name: 'Retro Legends', slug: 'retro-legends' });
    expect(await findServerSlug(t.db, 'pixel-raiders')).toBe('retro-legends');
    expect(await findServerSlug(t.db, 'pixel-legends')).toBe('retro-legends');
    expect(await findServerSlug(t.db, 'retro-legends')).toBe('retro-legends');
  });

  it('keeps a former slug for its server: a new server with that name gets another slug', async () => {
    const renamed = await createServer(t.db, server('Alpha Squad'));
    await updateServer(t.db, renamed.id, { name: 'Beta Squad' });
    const newcomer = await createServer(t.db, server('Alpha Squad'));
    expect(newcomer.slug).toBe('alpha-squad-2');
    expect(await findServerSlug(t.db, 'alpha-squad')).toBe('beta-squad');
  });

  it('lets a server take back its own former slug, and the slug it leaves then redirects', async () => {
    const row = await createServer(t.db, server('Alpha Squad'));
    await updateServer(t.db, row.id, { name: 'Beta Squad' });
    expect((await updateServer(t.db, row.id, { name: 'Alpha Squad' }))?.slug).toBe('alpha-squad');
    expect(await findServerSlug(t.db, 'beta-squad')).toBe('alpha-squad');
    expect(await findServerSlug(t.db, 'alpha-squad')).toBe('alpha-squad');
  });

  it('records nothing when an edit keeps the slug', async () => {
    const row = await createServer(t.db, server('Steady Guild'));
    await updateServer(t.db, row.id, { members: 5, name: 'Steady Guild' });
    const rs = await t.client.execute('SELECT count(*) AS n FROM server_slugs');
    expect(Number(rs.rows[0]?.n)).toBe(0);
  });

  it('never leads to a hidden, unlisted or deleted server', async () => {
    const hidden = await createServer(t.db, server('Hidden Guild'));
    await updateServer(t.db, hidden.id, { name: 'Hidden Guild Two' });
    await setServerActive(t.db, hidden.id, false);
    const unlisted = await createServer(t.db, server('Study Circle', { category: 'Education' }));
    await updateServer(t.db, unlisted.id, { name: 'Study Hall' });
    const gone = await createServer(t.db, server('Gone Guild'));
    await updateServer(t.db, gone.id, { name: 'Gone Again' });
    await deleteServer(t.db, gone.id);
    expect(await findServerSlug(t.db, 'hidden-guild')).toBeNull();
    expect(await findServerSlug(t.db, 'study-circle')).toBeNull();
    expect(await findServerSlug(t.db, 'study-hall')).toBeNull();
    expect(await findServerSlug(t.db, 'gone-guild')).toBeNull();
    const rs = await t.client.execute('SELECT count(*) AS n FROM server_slugs WHERE slug = ?', ['gone-guild']);
    expect(Number(rs.rows[0]?.n)).toBe(0);
  });
});

describe('the slug fallback (name variants)', () => {
  it('matches generated variants of the name: name slug, without a trailing word, alphanumerics, first word', async () => {
    await createServer(t.db, server('Apex Legends Hub', { slug: 'apex-custom' }));
    expect(await findServerSlug(t.db, 'apex-legends-hub')).toBe('apex-custom');
    expect(await findServerSlug(t.db, 'apex-legends')).toBe('apex-custom');
    expect(await findServerSlug(t.db, 'apexlegendshub')).toBe('apex-custom');
    expect(await findServerSlug(t.db, 'apex')).toBe('apex-custom');
    expect(await findServerSlug(t.db, 'Apex-Legends-Hub')).toBe('apex-custom');
  });

  it('falls back to a fuzzy word match, and finds nothing for unrelated slugs', async () => {
    await createServer(t.db, server('Forex Signals Room', { slug: 'fsr' }));
    expect(await findServerSlug(t.db, 'room-forex')).toBe('fsr');
    expect(await findServerSlug(t.db, 'nothing-like-it')).toBeNull();
    expect(await findServerSlug(t.db, '-')).toBeNull();
  });

  it('gives getServerBySlug the same answers, as full rows', async () => {
    const row = await createServer(t.db, server('Night Owls'));
    await updateServer(t.db, row.id, { name: 'Early Birds' });
    expect((await getServerBySlug(t.db, 'night-owls'))?.id).toBe(row.id);
    expect(await getServerBySlug(t.db, 'unknown-thing')).toBeNull();
  });
});

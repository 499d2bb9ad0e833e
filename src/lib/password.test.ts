import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, PBKDF2_ITERATIONS, verifyPassword } from './password';

describe('password hashing', () => {
  it('stores pbkdf2-sha256 with 100,000 iterations, a 16-byte salt and a 32-byte hash', async () => {
    const stored = await hashPassword('hunter2 but longer');
    const [scheme, iterations, salt, hash] = stored.split('$');
    expect(scheme).toBe('pbkdf2-sha256');
    expect(Number(iterations)).toBe(PBKDF2_ITERATIONS);
    expect(PBKDF2_ITERATIONS).toBe(100_000);
    expect(salt).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse');
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsf', stored)).toBe(false);
  });

  it('salts: the same password hashes differently each time', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('refuses malformed or over-limit hashes instead of throwing', async () => {
    for (const bad of ['', 'plain', 'md5$1$a$b', 'pbkdf2-sha256$x$a$b', 'pbkdf2-sha256$1000000$AAAA$AAAA']) {
      expect(await verifyPassword('x', bad)).toBe(false);
    }
  });

  it('asks for a rehash when the iteration count differs', async () => {
    expect(needsRehash(await hashPassword('x', 1000))).toBe(true);
    expect(needsRehash(await hashPassword('x'))).toBe(false);
  });
});

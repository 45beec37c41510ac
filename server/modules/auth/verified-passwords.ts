import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const MAX_ENTRIES = 10000;

/**
 * Remembers passwords already verified against a stored scrypt hash, so that a script
 * sending basic auth on every request pays for scrypt once, not on every call. Entries are
 * keyed by the stored hash itself: a changed password has a new hash, so an old entry can
 * never vouch for it, on this node or any other. Only an HMAC of the password under a key
 * that lives in this process's memory is kept.
 */
export class VerifiedPasswords {
  private readonly key = randomBytes(32);
  private readonly entries = new Map<string, Buffer>();

  private digest(password: string): Buffer {
    return createHmac('sha256', this.key).update(password).digest();
  }

  has(storedHash: string, password: string): boolean {
    const known = this.entries.get(storedHash);
    return known !== undefined && timingSafeEqual(known, this.digest(password));
  }

  remember(storedHash: string, password: string): void {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(storedHash, this.digest(password));
  }
}

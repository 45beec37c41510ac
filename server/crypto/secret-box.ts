import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DepotConfig } from '../config.ts';

/** Where a generated master key is kept, relative to DEPOT_HOME. */
export const MASTER_KEY_FILE = join('security', 'master.key');

const KEY_TEXT = /^[0-9a-f]{64}$/i;
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function parseKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  if (!KEY_TEXT.test(trimmed)) {
    throw new Error(`The master key in ${source} must be 64 hexadecimal characters (32 bytes)`);
  }
  return Buffer.from(trimmed, 'hex');
}

/**
 * The instance master key: DEPOT_MASTER_KEY when set, else `$DEPOT_HOME/security/master.key`,
 * generated at the first start (mode 0600). Several nodes sharing one database must share the
 * key (the same file or the same variable), or they cannot read each other's secrets.
 */
export function loadMasterKey(config: Pick<DepotConfig, 'home' | 'masterKey'>): Buffer {
  if (config.masterKey) return parseKey(config.masterKey, 'DEPOT_MASTER_KEY');
  const file = join(config.home, MASTER_KEY_FILE);
  try {
    return parseKey(readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    // 'wx': when two nodes start at once on a shared home, the second reads the first's key.
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    chmodSync(file, 0o600); // the umask may have narrowed the mode, never widened it; be sure
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parseKey(readFileSync(file, 'utf8'), file);
}

/** A stored secret that this instance's master key cannot open (another key, or damaged). */
export class UndecryptableSecret extends Error {}

/**
 * Encrypts configuration secrets (remote repository passwords, ...) at rest: AES-256-GCM with
 * a random 96-bit IV per value, stored as `enc:v1:<key id>:<base64 iv|tag|ciphertext>`. The
 * key id (first bytes of the key's SHA-256) tells a wrong key from damaged data.
 */
export class SecretBox {
  private readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The master key must be 32 bytes');
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 8);
  }

  /** A key for one purpose (signing tokens, say), derived from the master key with HKDF. */
  deriveKey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), purpose, 32));
  }

  static isEncrypted(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const sealed = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    return `${PREFIX}${this.keyId}:${sealed}`;
  }

  decrypt(stored: string): string {
    if (!SecretBox.isEncrypted(stored)) throw new UndecryptableSecret('not an encrypted value');
    const [keyId, sealed] = stored.slice(PREFIX.length).split(':');
    if (keyId !== this.keyId) {
      throw new UndecryptableSecret('it was encrypted with another master key');
    }
    const bytes = Buffer.from(sealed ?? '', 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const body = bytes.subarray(IV_BYTES + TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      throw new UndecryptableSecret('the stored value is damaged');
    }
  }
}

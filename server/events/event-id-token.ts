import crypto from 'node:crypto';
import type { Db } from '../db/database';
import { readOrCreateInstallationSecret } from '../db/installation-secrets.repo';

const SECRET_NAME = 'event-id-key';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PLAIN_BYTES = 16;
const TOKEN_BYTES = IV_BYTES + PLAIN_BYTES + TAG_BYTES;
// binds a token to this one use of the key
const PURPOSE = Buffer.from('wm live event id v1');

/**
 * The id a company's browser sees for a point in the event log: (company, event id) sealed with AES-256-GCM under a
 * key the whole installation shares. It says nothing about the log's global numbering, so gaps and counts of other
 * companies' events stay hidden; a token altered, made up or taken from another company does not open.
 */
export class EventIdTokens {
  private constructor(private readonly key: Buffer) {}

  static async load(db: Db): Promise<EventIdTokens> {
    const secret = await readOrCreateInstallationSecret(db, SECRET_NAME, () =>
      crypto.randomBytes(32).toString('base64'),
    );
    const key = Buffer.from(secret, 'base64');
    if (key.length !== 32) throw new Error(`The installation secret ${SECRET_NAME} is not a 256-bit key.`);
    return new EventIdTokens(key);
  }

  seal(companyId: number, eventId: number): string {
    const plain = Buffer.alloc(PLAIN_BYTES);
    plain.writeBigUInt64BE(BigInt(companyId), 0);
    plain.writeBigUInt64BE(BigInt(eventId), 8);
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(PURPOSE);
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  /** The event id the token stands for, or null when it is not a token of this installation for this company. */
  open(token: string, companyId: number): number | null {
    if (!/^[A-Za-z0-9_-]+$/.test(token)) return null;
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length !== TOKEN_BYTES) return null;
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(PURPOSE);
      decipher.setAuthTag(bytes.subarray(IV_BYTES + PLAIN_BYTES));
      const plain = Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES, IV_BYTES + PLAIN_BYTES)),
        decipher.final(),
      ]);
      if (plain.readBigUInt64BE(0) !== BigInt(companyId)) return null;
      const eventId = plain.readBigUInt64BE(8);
      return eventId <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(eventId) : null;
    } catch {
      return null;
    }
  }
}

import type { Db } from '../db/database';

/** Whether this process mails (SMTP_URL) and where the customer portal is, for mails a service queues by itself. */
export interface MailSettings {
  on: boolean;
  /** the portal's address, when the server knows its public URL */
  portalUrl: string | null;
}

const OFF: MailSettings = { on: false, portalUrl: null };

// Keyed by the app's database handle: the billing run and the billing day's job are called with the database only
// (from a route or a timer), and each app in a process (tests run several) has its own handle and settings.
const settingsByDb = new WeakMap<Db, MailSettings>();

/** Set once when the app starts (`startMailOutbox`). */
export function setMailSettings(db: Db, settings: MailSettings): void {
  settingsByDb.set(db, settings);
}

/** The app's mail settings for this database; mail is off for a handle no app registered (scripts, benches). */
export function mailSettingsOf(db: Db): MailSettings {
  return settingsByDb.get(db) ?? OFF;
}

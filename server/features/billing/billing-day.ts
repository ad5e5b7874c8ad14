import type { FastifyInstance } from 'fastify';
import { Cron } from 'croner';
import { systemActor } from '../../auth/actor';
import type { Db } from '../../db/database';
import { mailSettingsOf } from '../../mail/mail-settings';
import { findCompaniesWithOpenSit } from '../accounts/account-mails.repo';
import { mailSitNotices } from '../accounts/account-mails.service';
import { convertDueSitAccounts, today } from '../accounts/accounts.service';
import { findAutoBillingCompanies } from '../accounts/billing-settings.repo';
import { issueRun } from './billing-run.service';

// Issue 28, point 3 (decision 051): billing "lets it run by itself on the billing day". Every process runs the same
// job once a day; each company that turned automatic billing on gets the billing run of the current month for the
// periods that have begun by that day (a calendar account's on the 1st, a 30-day account's on its own day). The run
// is the one a Manager starts: it locks the company's invoice counter and skips the periods already invoiced, so the
// job of two servers, a missed day caught up the next, or a Manager's run the same day issue each invoice once.

/** Every day at 00:20 UTC (the product's days are UTC days, as `today()` is). */
export const BILLING_DAY_SCHEDULE = '20 0 * * *';

export interface BillingDayResult {
  companyId: number;
  /** the numbers of the invoices this run issued */
  issued: number[];
  /** SIT conversion notices queued (decision 042) */
  sitNotices?: number;
  /** why the company's run failed (the others still ran) */
  error?: string;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The billing day's run for `day` (YYYY-MM-DD): in every company with automatic billing on, the month's billing run
 * (its invoices mailed when mail is on); in every company with SIT accounts, the conversions that are due (each
 * mailed) and, with mail on, the SIT notices of the accounts converting within 30 days, each sent once.
 */
export async function runBillingDay(db: Db, day: string = today()): Promise<BillingDayResult[]> {
  const results = new Map<number, BillingDayResult>();
  const mail = mailSettingsOf(db);
  for (const companyId of await findAutoBillingCompanies(db)) {
    try {
      const run = await issueRun(db, systemActor(companyId), day.slice(0, 7), {
        asOf: day,
        billingDay: true,
        mail,
      });
      results.set(companyId, { companyId, issued: run.issued.map((i) => i.number) });
    } catch (error) {
      results.set(companyId, { companyId, issued: [], error: messageOf(error) });
    }
  }
  for (const companyId of await findCompaniesWithOpenSit(db)) {
    const result = results.get(companyId) ?? { companyId, issued: [] };
    results.set(companyId, result);
    try {
      await convertDueSitAccounts(db, companyId, day);
      result.sitNotices = await mailSitNotices(db, companyId, day, mail);
    } catch (error) {
      result.error = [result.error, messageOf(error)].filter(Boolean).join('; ');
    }
  }
  return [...results.values()];
}

/** Starts the daily job with the app, on a timer that keeps no process alive; the app's close waits for a run. */
export function startBillingDay(app: FastifyInstance, db: Db, schedule = BILLING_DAY_SCHEDULE) {
  let job: Cron | undefined;
  let running: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', async () => {
    job = new Cron(schedule, { unref: true, protect: true, catch: true, timezone: 'UTC' }, async () => {
      running = runBillingDay(db).then(
        (results) => {
          for (const r of results)
            if (r.error) app.log.warn({ companyId: r.companyId, error: r.error }, 'billing day: run failed');
            else if (r.issued.length > 0 || r.sitNotices)
              app.log.info(
                { companyId: r.companyId, invoices: r.issued.length, sitNotices: r.sitNotices ?? 0 },
                'billing day: invoices issued, SIT notices queued',
              );
        },
        (error: unknown) => app.log.warn({ err: error }, 'billing day failed; trying again tomorrow'),
      );
      await running;
    });
  });
  app.addHook('onClose', async () => {
    job?.stop();
    await running;
  });
}

import crypto from 'node:crypto';

// The signature a receiver checks (decision 044): HMAC-SHA256 with the endpoint's secret over `timestamp.body`, where
// the timestamp is the X-Webhook-Timestamp header (Unix seconds). Receivers should refuse old timestamps (replays)
// and drop repeated X-Webhook-Event-Id values (a delivery may arrive twice).

export const SIGNATURE_HEADER = 'x-webhook-signature';
export const TIMESTAMP_HEADER = 'x-webhook-timestamp';
export const EVENT_ID_HEADER = 'x-webhook-event-id';
export const EVENT_KIND_HEADER = 'x-webhook-event-kind';

export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does: recompute and compare in constant time. */
export function verifyWebhook(secret: string, timestamp: string, body: string, signature: string): boolean {
  const expected = Buffer.from(signWebhook(secret, Number(timestamp), body));
  const given = Buffer.from(signature);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

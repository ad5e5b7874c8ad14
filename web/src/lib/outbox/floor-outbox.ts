import { useSyncExternalStore } from 'react';
import { ApiError, ConnectionError, REQUEST_TIMEOUT_MS, apiRequest, uploadWithProgress } from '../api-client';
import { reportConnection } from '../connection-status';
import { indexedDbStore } from './idb-store';
import { type Intent, Outbox, type ReplayResult, type SendOutcome, intentForm, memoryStore } from './outbox';

/** How often a tablet tries its queue again while it has one, besides the online and visibility events. */
export const REPLAY_INTERVAL_MS = 30_000;
/** The server's answer while the first request with the same key is still running: try again later. */
const STILL_SAVING = 'The same change is still being saved';

async function readMessages(response: Response): Promise<string[]> {
  try {
    const body = (await response.json()) as { errors?: unknown };
    if (Array.isArray(body.errors)) return body.errors.map(String);
  } catch {
    // not JSON
  }
  return [`The server refused this change (${response.status}).`];
}

/** A file on a slow link takes a while: a replay's time-out only catches a link that has died. */
const FILE_TIMEOUT_MS = 5 * 60_000;

/** One try of an intent, with its Idempotency-Key: applied, refused with the server's reason, or no answer. */
export async function sendIntent(
  intent: Pick<Intent, 'method' | 'url' | 'body' | 'key' | 'file'>,
): Promise<SendOutcome> {
  let response: Response;
  try {
    response = await fetch(
      intent.url,
      intent.file
        ? {
            method: intent.method,
            credentials: 'same-origin',
            // the browser writes the multipart boundary into the content type itself
            headers: { 'Idempotency-Key': intent.key },
            body: intentForm(intent),
            signal: AbortSignal.timeout(FILE_TIMEOUT_MS),
          }
        : {
            method: intent.method,
            credentials: 'same-origin',
            headers: { 'Content-Type': 'application/json', 'Idempotency-Key': intent.key },
            body: JSON.stringify(intent.body),
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          },
    );
  } catch {
    reportConnection(false);
    return { kind: 'unreachable' };
  }
  reportConnection(true);
  if (response.ok) return { kind: 'applied' };
  // signed out, or a server that cannot answer now: kept for a later try, never dropped
  if (response.status >= 500 || response.status === 401 || response.status === 408 || response.status === 429)
    return { kind: 'unreachable' };
  const messages = await readMessages(response);
  if (response.status === 409 && messages.some((m) => m.startsWith(STILL_SAVING)))
    return { kind: 'unreachable' };
  return { kind: 'refused', messages };
}

const browserStore = () => (typeof indexedDB === 'undefined' ? memoryStore() : indexedDbStore());

/** This tablet's one outbox. */
export const floorOutbox = new Outbox(browserStore(), sendIntent);

/**
 * A floor change sent now with a fresh key; when it gets no answer it is queued with the same key, so the server
 * applies it once whichever of the two reaches it. Answers the server's answer, or `queued`.
 */
export type SentOrQueued<T> = { queued: false; answer: T } | { queued: true; intent: Intent };

export async function sendOrQueue<T>(
  intent: Omit<Intent, 'seq' | 'state' | 'createdAt' | 'key'>,
  /** called with 0-100 while a file travels */
  onProgress?: (percent: number) => void,
): Promise<SentOrQueued<T>> {
  const key = floorOutbox.makeKey();
  // a change made while others wait behind it goes behind them, so the order holds
  if (floorOutbox.waiting().length === 0) {
    try {
      const answer = intent.file
        ? await uploadWithProgress<T>(intent.url, intentForm(intent), (p) => onProgress?.(p), {
            'Idempotency-Key': key,
          })
        : await apiRequest<T>(intent.method, intent.url, intent.body, {
            headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
          });
      return { queued: false, answer };
    } catch (error) {
      if (!(error instanceof ConnectionError)) throw error;
    }
  }
  try {
    return { queued: true, intent: await floorOutbox.enqueue({ ...intent, key }) };
  } catch {
    // the browser's storage is full (a file is the likely cause) or not available
    throw new ApiError(507, [NO_ROOM_ON_TABLET]);
  }
}

export const NO_ROOM_ON_TABLET =
  'No connection to the server, and this device has no room to keep the change until there is. Nothing was saved.';

let started = false;
let heard: (result: ReplayResult) => void = () => {};

function replayAndTell(): Promise<ReplayResult> {
  return floorOutbox.replay().then((result) => {
    if (result.applied.length + result.refused.length > 0) heard(result);
    return result;
  });
}

/**
 * Loads the queue, asks the browser to keep this site's storage, and replays on the online event, when the page
 * becomes visible and on a timer. `onRound` hears of each round that changed something (the app refreshes its data).
 */
export function startFloorOutbox(onRound: (result: ReplayResult) => void): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  heard = onRound;
  void navigator.storage?.persist?.().catch(() => false);
  const replay = () => {
    if (floorOutbox.waiting().length > 0) void replayAndTell();
  };
  void floorOutbox.load().then(replay);
  window.addEventListener('online', replay);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') replay();
  });
  setInterval(replay, REPLAY_INTERVAL_MS);
}

/** Replays now (the badge's Send now). */
export function replayFloorOutbox(): Promise<ReplayResult> {
  return replayAndTell();
}

const subscribe = (listener: () => void) => floorOutbox.subscribe(listener);
const snapshot = () => floorOutbox.list();

/** The queue as it is now, oldest first; re-renders on every change. */
export function useFloorOutbox(): readonly Intent[] {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** The queued changes of one scope (`check:12`): a check is not finished while its scans wait on this tablet. */
export function useQueuedFor(scope: string): readonly Intent[] {
  const intents = useFloorOutbox();
  return intents.filter((i) => i.scope === scope);
}

import { AsyncLocalStorage } from 'node:async_hooks';

// Issue 31 (decision 044): a change made through an API token says so in the history ("Ada via token Dispatch sync").
// The request's token is kept for the request's own asynchronous work, and every event recorded there takes that
// name, whichever feature records it (eventParams), so no service has to pass it along.

const requestActor = new AsyncLocalStorage<{ actor: string }>();

/** Runs the rest of the request with `actor` as the name its events record. */
export function runAsActor(actor: string, next: () => void): void {
  requestActor.run({ actor }, next);
}

/** Runs `work` with `actor` as the name its events record (the demo seed names its member). */
export function asActor<T>(actor: string, work: () => Promise<T>): Promise<T> {
  return requestActor.run({ actor }, work);
}

/** The name the events of this request record, when it came through a token. */
export function currentActorName(): string | null {
  return requestActor.getStore()?.actor ?? null;
}

import { saveFile } from './save-file';
import { reportConnection } from './connection-status';

/** An answer of the API that was not 2xx, with the server's messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
    /** the first message about each input the server named (`sit_start: ...`), for a form to show under it */
    readonly byInput: Record<string, string> = {},
  ) {
    super(messages.join(' ') || `Request failed with status ${status}`);
  }
}

/** The server refused a change because someone else changed the thing since it was read (409). */
export const changedMeanwhile = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 409;

export const NO_CONNECTION = 'No connection to the server. Nothing was saved; please try again.';
export const NO_CONNECTION_READ = 'No connection to the server. Please check the connection and try again.';
export const NO_ANSWER =
  'The server did not answer in time. The change may not have been saved; please reload and check.';

/** How long a request may wait for the server's answer before it is given up. */
export const REQUEST_TIMEOUT_MS = 20_000;

/** The request never got an answer: the network is down, or the server took longer than the time-out. */
export class ConnectionError extends Error {
  constructor(
    readonly timedOut: boolean,
    /** a read changes nothing, so its message does not talk about saving */
    read = false,
  ) {
    super(read ? NO_CONNECTION_READ : timedOut ? NO_ANSWER : NO_CONNECTION);
  }
}

// the server names the input a message is about (`sit_authorization: A SIT account needs...`), for API clients
const INPUT_NAME = /^([a-z][a-z0-9_]*)(\.[a-z0-9_]+)*: (?=\S)/;

/** A server message as a person reads it: without the input's name, which the form shows beside it anyway. */
export function forPeople(message: string): string {
  return message.replace(INPUT_NAME, '');
}

/** A refused request's answer (`{ errors }`) as an ApiError: its messages for people, by input where named. */
export function refusalOf(body: unknown, status: number): ApiError {
  const errors = (body as { errors?: unknown } | null)?.errors;
  const said = Array.isArray(errors) ? errors.map(String) : typeof errors === 'string' ? [errors] : [];
  if (said.length === 0)
    return new ApiError(status, [
      status >= 500 ? 'An error occurred. Please try again.' : `Request failed (${status}).`,
    ]);
  const byInput: Record<string, string> = {};
  for (const message of said) {
    const input = INPUT_NAME.exec(message)?.[1];
    if (input) byInput[input] ??= forPeople(message);
  }
  return new ApiError(status, said.map(forPeople), byInput);
}

async function readRefusal(response: Response): Promise<ApiError> {
  // an answer that is not JSON names no messages
  const body: unknown = await response.json().catch(() => null);
  return refusalOf(body, response.status);
}

type Body = Record<string, unknown> | unknown[] | FormData | undefined;

export async function apiRequest<T>(
  method: string,
  url: string,
  body?: Body,
  init?: RequestInit,
): Promise<T> {
  const isForm = body instanceof FormData;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), REQUEST_TIMEOUT_MS);
  const signal = init?.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : undefined,
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      ...init,
      signal,
    });
  } catch (error) {
    // a caller's own cancel (a query no longer needed) is not a connection problem
    if (init?.signal?.aborted) throw error;
    if (timeout.signal.aborted || error instanceof TypeError) {
      reportConnection(false);
      throw new ConnectionError(timeout.signal.aborted, method === 'GET');
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
  reportConnection(true);
  if (!response.ok) throw await readRefusal(response);
  if (response.status === 204) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('application/json') ? await response.json() : await response.text()) as T;
}

/**
 * A file the server makes (a PDF, a workbook), saved through the browser's download. Errors read as every other
 * call's: the server's messages, or a connection problem.
 */
export async function downloadFile(
  url: string,
  fileName: string,
  body?: Record<string, unknown>,
): Promise<void> {
  saveFile(await fetchFile(url, body), fileName);
}

/** A file the server makes (a PDF to preview), as a Blob; errors as `downloadFile`'s. */
export async function fetchFile(url: string, body?: Record<string, unknown>): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      credentials: 'same-origin',
      headers: body ? { 'Content-Type': 'application/json' } : undefined,
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ConnectionError(false, true);
  }
  if (!response.ok) throw await readRefusal(response);
  return response.blob();
}

/** Sends form data with XMLHttpRequest, whose upload events tell how far the file has gone (fetch cannot). */
export function uploadWithProgress<T>(
  url: string,
  body: FormData,
  onProgress: (percent: number) => void,
  headers: Record<string, string> = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.withCredentials = true;
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.timeout = UPLOAD_TIMEOUT_MS;
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    request.onerror = () => {
      reportConnection(false);
      reject(new ConnectionError(false));
    };
    request.ontimeout = () => {
      reportConnection(false);
      reject(new ConnectionError(true));
    };
    request.onload = () => {
      reportConnection(true);
      let parsed: unknown = request.responseText;
      try {
        parsed = JSON.parse(request.responseText);
      } catch {
        // not JSON: keep the text
      }
      if (request.status >= 200 && request.status < 300) {
        resolve(parsed as T);
        return;
      }
      reject(refusalOf(parsed, request.status));
    };
    request.send(body);
  });
}

// a 5 MB file on a slow link takes a while; the time-out only catches a link that has died
const UPLOAD_TIMEOUT_MS = 5 * 60_000;

export const api = {
  get: <T>(url: string, init?: RequestInit) => apiRequest<T>('GET', url, undefined, init),
  post: <T>(url: string, body?: Body) => apiRequest<T>('POST', url, body),
  put: <T>(url: string, body?: Body) => apiRequest<T>('PUT', url, body),
  patch: <T>(url: string, body?: Body) => apiRequest<T>('PATCH', url, body),
  delete: <T>(url: string, body?: Body) => apiRequest<T>('DELETE', url, body),
};

/** The server's messages of a failed request about each input it named (none for any other failure). */
export function inputErrors(error: unknown): Record<string, string> {
  return error instanceof ApiError ? error.byInput : {};
}

/** The messages to show for a failed request. */
export function errorMessages(error: unknown): string[] {
  if (error instanceof ApiError) return error.messages;
  if (error instanceof ConnectionError) return [error.message];
  if (error instanceof Error) return ['An error occurred. Please try again.'];
  return [];
}

/** An answer of the API that was not 2xx, with the server's messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
  ) {
    super(messages.join(' ') || `Request failed with status ${status}`);
  }
}

async function readErrors(response: Response): Promise<string[]> {
  try {
    const body = (await response.json()) as { errors?: unknown };
    if (Array.isArray(body.errors)) return body.errors.map(String);
    if (typeof body.errors === 'string') return [body.errors];
  } catch {
    // not JSON: fall through to a generic message
  }
  return response.status >= 500
    ? ['An error occurred. Please try again.']
    : [`Request failed (${response.status}).`];
}

type Body = Record<string, unknown> | unknown[] | FormData | undefined;

export async function apiRequest<T>(
  method: string,
  url: string,
  body?: Body,
  init?: RequestInit,
): Promise<T> {
  const isForm = body instanceof FormData;
  const response = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : undefined,
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    ...init,
  });
  if (!response.ok) throw new ApiError(response.status, await readErrors(response));
  if (response.status === 204) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('application/json') ? await response.json() : await response.text()) as T;
}

export const api = {
  get: <T>(url: string, init?: RequestInit) => apiRequest<T>('GET', url, undefined, init),
  post: <T>(url: string, body?: Body) => apiRequest<T>('POST', url, body),
  put: <T>(url: string, body?: Body) => apiRequest<T>('PUT', url, body),
  patch: <T>(url: string, body?: Body) => apiRequest<T>('PATCH', url, body),
  delete: <T>(url: string, body?: Body) => apiRequest<T>('DELETE', url, body),
};

/** The messages to show for a failed request. */
export function errorMessages(error: unknown): string[] {
  if (error instanceof ApiError) return error.messages;
  if (error instanceof Error) return ['An error occurred. Please try again.'];
  return [];
}

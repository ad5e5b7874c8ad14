import autocannon from 'autocannon';

export interface RouteResult {
  route: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

function summarise(route: string, result: autocannon.Result): RouteResult {
  return {
    route,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Reads: each route for a fixed time at a fixed number of connections. */
export async function benchRead(baseUrl: string, cookie: string, route: string, path: string, seconds: number, connections = 10) {
  const result = await autocannon({
    url: `${baseUrl}${path}`,
    connections,
    duration: seconds,
    headers: { cookie, 'accept-encoding': 'gzip' },
  });
  return summarise(route, result);
}

type Step = (field: { id: number; vaultIds: number[] }, index: number) => { method: 'POST' | 'PUT' | 'DELETE'; path: string; body?: unknown };

/**
 * Writes: every connection claims a field of its own and runs `steps` against it in order (slot order matters:
 * a field fills from the bottom slot up), then claims the next field, until every field is done.
 */
export async function benchWrites(
  baseUrl: string,
  cookie: string,
  route: string,
  fields: { id: number; vaultIds: number[] }[],
  stepsPerField: number,
  step: Step,
  connections = 20,
) {
  const queue = [...fields];
  const requests = Array.from({ length: stepsPerField }, (_, index) => ({
    setupRequest(req: autocannon.Request, context: Record<string, unknown>) {
      if (index === 0) context.field = queue.shift();
      const field = context.field as { id: number; vaultIds: number[] } | undefined;
      if (!field) return req;
      const { method, path, body } = step(field, index);
      const headers: Record<string, string> = { cookie };
      if (body !== undefined) headers['content-type'] = 'application/json';
      return { ...req, method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    },
  }));
  const result = await autocannon({
    url: baseUrl,
    connections,
    amount: fields.length * stepsPerField,
    requests: requests as autocannon.Request[],
  });
  return summarise(route, result);
}

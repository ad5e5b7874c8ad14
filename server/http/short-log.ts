import { Writable } from 'node:stream';

/** pino's numeric levels and the words the short log shows for them */
const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

interface LogLine {
  level?: number;
  time?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
}

function clock(time: number | undefined): string {
  return new Date(time ?? Date.now()).toISOString().slice(11, 19);
}

/**
 * Turns one JSON log line into a short human-readable one, or nothing. A request gives one line when it completes
 * (method, address, status, time); the web app's own files that answer successfully give none, so the start-up
 * lines stay in view. Anything else prints its level and message.
 */
export function shortLogFormatter(): (jsonLine: string) => string | undefined {
  const pending = new Map<string, string>();
  return (jsonLine) => {
    let line: LogLine;
    try {
      line = JSON.parse(jsonLine) as LogLine;
    } catch {
      return jsonLine.trimEnd();
    }
    const level = line.level ?? 30;
    if (line.msg === 'incoming request' && line.reqId && line.req) {
      pending.set(line.reqId, `${line.req.method ?? '?'} ${line.req.url ?? '?'}`);
      return undefined;
    }
    if (line.msg === 'request completed' && line.reqId) {
      const request = pending.get(line.reqId) ?? 'request';
      pending.delete(line.reqId);
      const status = line.res?.statusCode ?? 0;
      const isApi = request.includes(' /api/');
      if (!isApi && status < 400 && level < 40) return undefined;
      const ms = line.responseTime === undefined ? '' : ` ${Math.round(line.responseTime)} ms`;
      return `${clock(line.time)} ${request} ${status}${ms}`;
    }
    const name = LEVEL_NAMES[level] ?? String(level);
    const error = line.err?.message ? `: ${line.err.message}` : '';
    return `${clock(line.time)} ${name} ${line.msg ?? ''}${error}`;
  };
}

/** A stream for pino that writes the short format to standard output. */
export function shortLogStream(out: NodeJS.WritableStream = process.stdout): Writable {
  const format = shortLogFormatter();
  let rest = '';
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const text = rest + chunk.toString();
      const lines = text.split('\n');
      rest = lines.pop() ?? '';
      for (const jsonLine of lines) {
        const shown = jsonLine ? format(jsonLine) : undefined;
        if (shown !== undefined) out.write(`${shown}\n`);
      }
      done();
    },
  });
}

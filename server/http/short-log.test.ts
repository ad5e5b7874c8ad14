import { describe, expect, it } from 'vitest';
import { shortLogFormatter } from './short-log';

const line = (o: object) => JSON.stringify({ time: Date.UTC(2026, 0, 2, 3, 4, 5), ...o });

describe('the short log format', () => {
  it('shows an API request as one line when it completes', () => {
    const format = shortLogFormatter();
    expect(
      format(
        line({ level: 30, reqId: 'r1', msg: 'incoming request', req: { method: 'GET', url: '/api/x' } }),
      ),
    ).toBe(undefined);
    expect(
      format(
        line({
          level: 30,
          reqId: 'r1',
          msg: 'request completed',
          res: { statusCode: 200 },
          responseTime: 4.2,
        }),
      ),
    ).toBe('03:04:05 GET /api/x 200 4 ms');
  });

  it('hides the web app files that answer successfully but shows their failures', () => {
    const format = shortLogFormatter();
    format(
      line({ level: 30, reqId: 'a', msg: 'incoming request', req: { method: 'GET', url: '/assets/x.js' } }),
    );
    format(line({ level: 30, reqId: 'b', msg: 'incoming request', req: { method: 'GET', url: '/nope.js' } }));
    expect(format(line({ level: 30, reqId: 'a', msg: 'request completed', res: { statusCode: 200 } }))).toBe(
      undefined,
    );
    expect(format(line({ level: 30, reqId: 'b', msg: 'request completed', res: { statusCode: 404 } }))).toBe(
      '03:04:05 GET /nope.js 404',
    );
  });

  it('shows other messages with their level and error', () => {
    const format = shortLogFormatter();
    expect(format(line({ level: 40, msg: 'careful' }))).toBe('03:04:05 WARN careful');
    expect(format(line({ level: 50, msg: 'failed', err: { message: 'boom' } }))).toBe(
      '03:04:05 ERROR failed: boom',
    );
  });
});

import { afterAll, beforeAll } from 'vitest';
import type { Engine } from '../db/database';
import { type SignedIn, type TestContext, ignoreStacks, signIn, startTestApp } from './test-app';

export interface UsedTestApp {
  /** the app and its database; filled in before the file's first test */
  ctx: TestContext;
  /** a signed-in user of a new company */
  user: SignedIn;
  /** a signed-in user of a second company, for the other side of isolation checks */
  other: SignedIn;
}

/**
 * The one test preamble: the real app on a fresh database of `engine` for the tests of one `describe`, with two
 * signed-in users of different companies (`users: 1` or `0` signs in fewer), closed after its last test.
 * The objects are filled in place before the first test, so they can be destructured when the file is read:
 * `const { ctx, user, other } = useTestApp(engine);`
 *
 * `env` may be a function, read when the app starts: for settings known only in an earlier `beforeAll` (the address
 * of a test SMTP server started there).
 *
 * After every test the stacks of the whole database are checked (`stack-check.setup.ts`, as for any app started by
 * `startTestApp`); `stacks: false` leaves this app out, for the few tests that break stacks on purpose.
 */
export function useTestApp(
  engine: Engine,
  options: {
    env?: Record<string, string> | (() => Record<string, string>);
    users?: 0 | 1 | 2;
    stacks?: false;
  } = {},
): UsedTestApp {
  const used = { ctx: {}, user: {}, other: {} } as UsedTestApp;
  const users = options.users ?? 2;
  beforeAll(async () => {
    const env = typeof options.env === 'function' ? options.env() : options.env;
    const started = await startTestApp(engine, env);
    if (options.stacks === false) ignoreStacks(started);
    Object.assign(used.ctx, started);
    if (users >= 1) Object.assign(used.user, await signIn(used.ctx));
    if (users >= 2) Object.assign(used.other, await signIn(used.ctx));
  });
  afterAll(async () => {
    if ('close' in used.ctx) await used.ctx.close();
  });
  return used;
}

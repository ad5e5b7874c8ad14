import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Engine } from '../db/database';
import { findStackViolations } from './invariants.repo';
import { type SignedIn, type TestContext, signIn, startTestApp } from './test-app';

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
 * After every test the stacks of the whole database are checked (`findStackViolations`): a test that leaves a stack
 * with a gap, two vaults in a slot or a unit in a field of the wrong type fails itself, whatever path wrote it. Only
 * what the test added is its fault; `stacks: false` is for the few tests that break stacks on purpose.
 */
export function useTestApp(
  engine: Engine,
  options: { env?: Record<string, string>; users?: 0 | 1 | 2; stacks?: false } = {},
): UsedTestApp {
  const used = { ctx: {}, user: {}, other: {} } as UsedTestApp;
  const users = options.users ?? 2;
  beforeAll(async () => {
    Object.assign(used.ctx, await startTestApp(engine, options.env));
    if (users >= 1) Object.assign(used.user, await signIn(used.ctx));
    if (users >= 2) Object.assign(used.other, await signIn(used.ctx));
  });
  const known = new Set<string>();
  afterEach(async () => {
    if (options.stacks === false || !('database' in used.ctx)) return;
    let found: string[];
    try {
      found = await findStackViolations(used.ctx.database.db);
    } catch {
      return; // a database the test took down (faults, restarts) has nothing to check
    }
    const added = found.filter((p) => !known.has(p));
    for (const p of found) known.add(p);
    if (added.length > 0) throw new Error(`This test broke the stack rules:\n${added.join('\n')}`);
  });
  afterAll(async () => {
    if ('close' in used.ctx) await used.ctx.close();
  });
  return used;
}

import { afterEach } from 'vitest';
import { findStackViolations } from './invariants.repo';
import { openTestApps } from './test-app';

/**
 * After every API test, the stacks of every test app still open are checked (`findStackViolations`, two grouped
 * reads per database): a test that leaves a stack with a gap, two vaults in one slot, a reversed order or a unit in a
 * field of the wrong type fails itself, whatever path wrote it. Only what the test added is its fault.
 */
afterEach(async () => {
  for (const [ctx, entry] of openTestApps) {
    if (!entry.check) continue;
    let found: string[];
    try {
      found = await findStackViolations(ctx.database.db);
    } catch {
      continue; // a database the test took down (faults, restarts) has nothing to check
    }
    const added = found.filter((p) => !entry.known.has(p));
    for (const p of found) entry.known.add(p);
    if (added.length > 0) throw new Error(`This test broke the stack rules:\n${added.join('\n')}`);
  }
});

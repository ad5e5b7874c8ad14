import { describe, expect, it } from 'vitest';
import { type Intent, Outbox, type SendOutcome, memoryStore } from './outbox';

const stage = (vaultId: number) => ({
  kind: 'stage' as const,
  label: `Stage vault ${vaultId}`,
  method: 'POST' as const,
  url: `/api/stage/vaults/${vaultId}`,
  body: { basis: { fieldId: 1, position: 3 } },
  vaultId,
});

/** A server that answers from a script, recording what it was sent. */
function scriptedServer(answers: Record<number, SendOutcome[]>) {
  const sent: Intent[] = [];
  const send = async (intent: Intent): Promise<SendOutcome> => {
    sent.push(intent);
    return answers[intent.vaultId]?.shift() ?? { kind: 'applied' };
  };
  return { sent, send };
}

let counter = 0;
const keys = () => `key-${++counter}`;

describe('the outbox of floor intents', () => {
  it('replays in the order the changes were made, each with its own key, and empties', async () => {
    const server = scriptedServer({});
    const outbox = new Outbox(memoryStore(), server.send, keys);
    const made = [];
    for (const id of [7, 3, 9]) made.push(await outbox.enqueue(stage(id)));
    const result = await outbox.replay();
    expect(server.sent.map((i) => i.vaultId)).toEqual([7, 3, 9]);
    expect(server.sent.map((i) => i.key)).toEqual(made.map((i) => i.key));
    expect(new Set(made.map((i) => i.key)).size).toBe(3);
    expect(result.applied).toHaveLength(3);
    expect(outbox.list()).toEqual([]);
  });

  it('keeps everything, in order, when the server cannot be reached, and sends the same keys later', async () => {
    const store = memoryStore();
    const server = scriptedServer({ 3: [{ kind: 'unreachable' }] });
    const outbox = new Outbox(store, server.send, keys);
    for (const id of [7, 3, 9]) await outbox.enqueue(stage(id));
    const first = await outbox.replay();
    expect(first.interrupted).toBe(true);
    expect(first.applied.map((i) => i.vaultId)).toEqual([7]);
    // the one after the unreachable try was not sent out of order
    expect(server.sent.map((i) => i.vaultId)).toEqual([7, 3]);
    expect(outbox.waiting().map((i) => i.vaultId)).toEqual([3, 9]);

    // a reload: a new outbox over the same storage finds the queue as it was
    const reloaded = new Outbox(store, server.send, keys);
    await reloaded.load();
    expect(reloaded.waiting().map((i) => i.vaultId)).toEqual([3, 9]);
    const keyOf3 = reloaded.waiting()[0]!.key;
    await reloaded.replay();
    expect(server.sent.at(-2)!.key).toBe(keyOf3);
    expect(reloaded.list()).toEqual([]);
    expect(store.rows.size).toBe(0);
  });

  it('sets a refused intent aside with the server reason and goes on with the next', async () => {
    const reason =
      'Vault V-3 was moved by someone else meanwhile: it is now on the stage. Nothing was changed.';
    const server = scriptedServer({ 3: [{ kind: 'refused', messages: [reason] }] });
    const outbox = new Outbox(memoryStore(), server.send, keys);
    for (const id of [7, 3, 9]) await outbox.enqueue(stage(id));
    const result = await outbox.replay();
    expect(result.applied.map((i) => i.vaultId)).toEqual([7, 9]);
    expect(outbox.needingAttention()).toMatchObject([{ vaultId: 3, state: 'attention', messages: [reason] }]);
    // a later round does not send it again on its own
    await outbox.replay();
    expect(server.sent.filter((i) => i.vaultId === 3)).toHaveLength(1);
  });

  it('Retry sends a refused intent again with its key; Discard drops it', async () => {
    const server = scriptedServer({
      3: [{ kind: 'refused', messages: ['Slot taken.'] }, { kind: 'applied' }],
      4: [{ kind: 'refused', messages: ['Moved meanwhile.'] }],
    });
    const store = memoryStore();
    const outbox = new Outbox(store, server.send, keys);
    const three = await outbox.enqueue(stage(3));
    const four = await outbox.enqueue(stage(4));
    await outbox.replay();
    expect(outbox.needingAttention().map((i) => i.vaultId)).toEqual([3, 4]);
    await outbox.retry(three.key);
    expect(outbox.waiting().map((i) => i.vaultId)).toEqual([3]);
    await outbox.replay();
    expect(server.sent.filter((i) => i.vaultId === 3).map((i) => i.key)).toEqual([three.key, three.key]);
    await outbox.discard(four.key);
    expect(outbox.list()).toEqual([]);
    expect(store.rows.size).toBe(0);
  });

  it('runs one round at a time: a second call while one runs sends nothing twice', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const sent: number[] = [];
    const outbox = new Outbox(
      memoryStore(),
      async (intent) => {
        sent.push(intent.vaultId);
        await gate;
        return { kind: 'applied' };
      },
      keys,
    );
    await outbox.enqueue(stage(1));
    await outbox.enqueue(stage(2));
    const first = outbox.replay();
    const second = outbox.replay();
    release();
    await Promise.all([first, second]);
    expect(sent).toEqual([1, 2]);
  });
});

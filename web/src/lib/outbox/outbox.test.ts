import { describe, expect, it } from 'vitest';
import { type Intent, Outbox, type SendOutcome, intentForm, memoryStore, queuedHolds } from './outbox';

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
    return answers[intent.vaultId ?? 0]?.shift() ?? { kind: 'applied' };
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
        sent.push(intent.vaultId ?? 0);
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

  it('replays every kind of floor intent in the one order they were made, scans of a check included', async () => {
    const sent: string[] = [];
    const outbox = new Outbox(
      memoryStore(),
      async (intent) => {
        sent.push(`${intent.kind} ${intent.url}`);
        return { kind: 'applied' };
      },
      keys,
    );
    const scan = (text: string) => ({
      kind: 'check-scan' as const,
      label: `Check 5: scan ${text}`,
      method: 'POST' as const,
      url: `/api/checks/5/scans#${text}`,
      body: { text, field_id: 2 },
      scope: 'check:5',
    });
    await outbox.enqueue(stage(1));
    await outbox.enqueue({
      kind: 'add',
      label: 'Add vault N-1 at slot 1',
      method: 'POST',
      url: '/api/vaults/',
      body: { vault_id: 'N-1', field_id: 2, position: 1 },
    });
    await outbox.enqueue(scan('B1'));
    await outbox.enqueue({ ...stage(1), kind: 'move', url: '/api/vaults/move' });
    await outbox.enqueue(scan('V-7'));
    await outbox.enqueue({
      kind: 'checklist-answer',
      label: 'Main checklist: answer by Ann',
      method: 'PATCH',
      url: '/api/checklists/3',
      body: { filled_out_by: 'Ann', tasks: [] },
    });
    expect(outbox.queuedFor('check:5').map((i) => i.body.text)).toEqual(['B1', 'V-7']);
    expect(outbox.queuedFor('check:6')).toEqual([]);
    await outbox.replay();
    expect(sent).toEqual([
      'stage /api/stage/vaults/1',
      'add /api/vaults/',
      'check-scan /api/checks/5/scans#B1',
      'move /api/vaults/move',
      'check-scan /api/checks/5/scans#V-7',
      'checklist-answer /api/checklists/3',
    ]);
    expect(outbox.queuedFor('check:5')).toEqual([]);
  });

  it('keeps a refused scan of a check in its scope until a person decides, so the check waits for it', async () => {
    const outbox = new Outbox(
      memoryStore(),
      async (intent) =>
        intent.body.text === 'V-9'
          ? { kind: 'refused', messages: ['Check 5 is finished; nobody can scan into it any more.'] }
          : { kind: 'applied' },
      keys,
    );
    for (const text of ['V-8', 'V-9', 'V-10'])
      await outbox.enqueue({
        kind: 'check-scan',
        label: `Check 5: scan ${text}`,
        method: 'POST',
        url: '/api/checks/5/scans',
        body: { text },
        scope: 'check:5',
      });
    const result = await outbox.replay();
    expect(result.applied.map((i) => i.body.text)).toEqual(['V-8', 'V-10']);
    expect(outbox.queuedFor('check:5')).toMatchObject([
      { state: 'attention', messages: ['Check 5 is finished; nobody can scan into it any more.'] },
    ]);
    await outbox.discard(outbox.queuedFor('check:5')[0]!.key);
    expect(outbox.queuedFor('check:5')).toEqual([]);
  });

  it('orders intents made in the same millisecond as they were made, also after a reload', async () => {
    const store = memoryStore();
    const outbox = new Outbox(store, async () => ({ kind: 'unreachable' }), keys);
    for (const id of [5, 4, 3, 2, 1]) await outbox.enqueue(stage(id));
    const reloaded = new Outbox(store, async () => ({ kind: 'applied' }), keys);
    await reloaded.load();
    expect(reloaded.waiting().map((i) => i.vaultId)).toEqual([5, 4, 3, 2, 1]);
  });

  it("keeps an add's file in its row through a reload, sends it as the same form, and drops the bytes with the row", async () => {
    const store = memoryStore();
    const bytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);
    const add = (name: string) => ({
      kind: 'add' as const,
      label: `Add vault ${name} at slot 3 with photo.png`,
      method: 'POST' as const,
      url: '/api/vaults/',
      body: { vault_id: name, customer_name: 'ACME', order_name: 'O-1', note: '', field_id: 4, position: 3 },
      file: { field: 'attachment', name: 'photo.png', blob: new Blob([bytes], { type: 'image/png' }) },
    });
    const offline = new Outbox(store, async () => ({ kind: 'unreachable' }), keys);
    const first = await offline.enqueue(add('F-1'));
    await offline.enqueue(add('F-2'));
    await offline.replay();

    // a reload: the bytes come back from the store with the intent
    const forms: FormData[] = [];
    const reloaded = new Outbox(
      store,
      async (intent) => {
        forms.push(intentForm(intent));
        return intent.body.vault_id === 'F-2'
          ? { kind: 'refused', messages: ['Someone else just placed a vault in this slot.'] }
          : { kind: 'applied' };
      },
      keys,
    );
    await reloaded.load();
    const kept = reloaded.waiting()[0]!;
    expect(kept.key).toBe(first.key);
    expect(new Uint8Array(await kept.file!.blob.arrayBuffer())).toEqual(bytes);

    await reloaded.replay();
    // the form carries the fields as text and the file under its name, with its bytes
    const sent = forms[0]!;
    expect(sent.get('vault_id')).toBe('F-1');
    expect(sent.get('field_id')).toBe('4');
    expect(sent.get('note')).toBe('');
    const file = sent.get('attachment') as File;
    expect(file.name).toBe('photo.png');
    expect(file.type).toBe('image/png');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
    // sent: the row, and the bytes in it, left the store; refused: kept with its bytes for Retry
    expect([...store.rows.values()].map((i) => i.body.vault_id)).toEqual(['F-2']);
    expect(store.rows.values().next().value!.file!.blob.size).toBe(bytes.length);
    await reloaded.discard(reloaded.needingAttention()[0]!.key);
    expect(store.rows.size).toBe(0);
  });

  it("lists the slots a field's queued adds and received shipments hold on the tablet", async () => {
    const outbox = new Outbox(memoryStore(), async () => ({ kind: 'unreachable' }), keys);
    await outbox.enqueue({
      kind: 'add',
      label: 'Add vault A-1 at slot 3',
      method: 'POST',
      url: '/api/vaults/',
      body: { vault_id: 'A-1', customer_name: 'ACME', field_id: 4, position: 3 },
    });
    await outbox.enqueue({
      kind: 'receiving',
      label: 'Receive 2 units for BETA',
      method: 'POST',
      url: '/api/receiving',
      body: {
        customer_name: 'BETA',
        order_name: 'O',
        vaults: [
          { type: 'vault', field_id: 4 },
          { type: 'vault', field_id: 5 },
        ],
      },
      holds: [
        { fieldId: 4, position: 2, label: 'unit 1 of BETA received' },
        { fieldId: 5, position: 3, label: 'unit 2 of BETA received' },
      ],
    });
    expect([...queuedHolds(outbox.list(), 4)]).toEqual([
      [3, 'vault A-1 added'],
      [2, 'unit 1 of BETA received'],
    ]);
    expect([...queuedHolds(outbox.list(), 5)]).toEqual([[3, 'unit 2 of BETA received']]);
    expect(queuedHolds(outbox.list(), 6).size).toBe(0);
  });
});

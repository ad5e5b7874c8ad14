import { QueryClient, QueryObserver, onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError } from './api-client';
import { LastData, memoryKeptStore } from './offline-data';

const session = { id: 1, companyId: 7, role: 'floor' };
const warehouse = { id: 3, name: 'Main', fields: [] };

function client() {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

/** Reads `queryKey` as a screen does, through an observer, and answers its state once it settles. */
async function read(qc: QueryClient, queryKey: unknown[], queryFn: () => Promise<unknown>) {
  const observer = new QueryObserver(qc, { queryKey, queryFn });
  const unsubscribe = observer.subscribe(() => {});
  for (let i = 0; i < 50 && observer.getCurrentResult().isPending; i++)
    await new Promise((resolve) => setTimeout(resolve, 5));
  const result = observer.getCurrentResult();
  return { result, unsubscribe };
}

afterEach(() => onlineManager.setOnline(true));

describe('the last data a tablet saw', () => {
  it('stores the answers of the kept reads only, with the time they came and the company', async () => {
    const store = memoryKeptStore();
    const kept = new LastData(store, 0);
    const qc = client();
    kept.attach(qc);
    qc.setQueryData(['session'], session);
    await read(qc, ['warehouse', 3], async () => warehouse);
    await read(qc, ['billing', 'overview'], async () => ({ owed: 12 }));
    await kept.flush();
    expect([...store.rows.keys()].sort()).toEqual(['["session"]', '["warehouse",3]']);
    const row = store.rows.get('["warehouse",3]')!;
    expect(row).toMatchObject({ data: warehouse, companyId: 7 });
    expect(row.updatedAt).toBe(qc.getQueryState(['warehouse', 3])!.dataUpdatedAt);
  });

  it('after a reload without a network, shows the stored answers with their age, marked to be read again', async () => {
    const store = memoryKeptStore();
    const before = new LastData(store, 0);
    const first = client();
    before.attach(first);
    first.setQueryData(['session'], session, { updatedAt: 1_000 });
    first.setQueryData(['warehouse', 3], warehouse, { updatedAt: 2_000 });
    await before.flush();

    onlineManager.setOnline(false);
    const after = new LastData(store, 0);
    const reloaded = client();
    after.attach(reloaded);
    await after.load();
    const shown = await read(reloaded, ['session'], async () => ({ never: true }));
    expect(shown.result.data).toEqual(session);
    const page = await read(reloaded, ['warehouse', 3], async () => ({ never: true }));
    expect(page.result.data).toEqual(warehouse);
    expect(page.result.dataUpdatedAt).toBe(2_000);
    expect(reloaded.getQueryState(['warehouse', 3])!.isInvalidated).toBe(true);
    shown.unsubscribe();
    page.unsubscribe();
  });

  it('fills a read that failed for the network, and keeps shown data when reading it again fails', async () => {
    const store = memoryKeptStore();
    const kept = new LastData(store, 0);
    const qc = client();
    kept.attach(qc);
    qc.setQueryData(['session'], session);
    qc.setQueryData(['stage'], { 5: { id: 5 } }, { updatedAt: 3_000 });
    await kept.flush();

    const fresh = client();
    const again = new LastData(store, 0);
    again.attach(fresh);
    await again.load();
    fresh.setQueryData(['session'], session);
    const failing = async () => {
      throw new ConnectionError(false, true);
    };
    const stage = await read(fresh, ['stage'], failing);
    expect(stage.result.status).toBe('success');
    expect(stage.result.data).toEqual({ 5: { id: 5 } });
    expect(stage.result.dataUpdatedAt).toBe(3_000);
    // read again, still without an answer: the screen keeps its data, not an error
    await fresh.refetchQueries({ queryKey: ['stage'] }).catch(() => undefined);
    expect(fresh.getQueryState(['stage'])).toMatchObject({ status: 'success', error: null });
    stage.unsubscribe();
  });

  it("never shows one company's data to another company's member, and forgets everything on sign-out", async () => {
    const store = memoryKeptStore();
    const kept = new LastData(store, 0);
    const qc = client();
    kept.attach(qc);
    qc.setQueryData(['session'], session);
    qc.setQueryData(['stage'], { 5: { id: 5 } });
    await kept.flush();

    onlineManager.setOnline(false);
    const other = client();
    const again = new LastData(store, 0);
    again.attach(other);
    await again.load();
    other.setQueryData(['session'], { ...session, id: 2, companyId: 8 });
    const stage = await read(other, ['stage'], async () => ({}));
    expect(stage.result.data).toBeUndefined();
    stage.unsubscribe();

    await again.forget();
    expect(store.rows.size).toBe(0);
    expect(again.get(['session'])).toBeUndefined();
  });
});

// Not useTestApp: several server processes run against one scratch database at once.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldName } from '@domain/rules/field-names';
import { type DatabaseHandle, type Engine, openDatabase } from '../db/database';
import {
  buildAccount,
  buildPallet,
  buildRack,
  buildStagedVault,
  buildVault,
  buildWarehouse,
  makeCouchbox,
} from '../factories';
import { migrateToLatest } from '../db/migrate';
import {
  findActiveChecklistIds,
  findFieldTypes,
  findInvariantViolations,
  findPalletIds,
  findVaultPlaces,
  findVaultsNamed,
  findWarehouseShape,
  rackExists,
} from './invariants.repo';
import { scratchDatabase } from './scratch-database';
import { type RunningServer, signInCookie, startServer } from './server-process';
import { testEngines } from './test-app';

/**
 * Races on the warehouse aggregate through real HTTP against real server processes (two on PostgreSQL, sharing one
 * database, as a scaled-out installation runs). Each trial releases its requests together, then the stored rows are
 * checked: the aggregate's rules hold, every acknowledged write is there, every refused one is not, and no answer is 5xx.
 */

// trials per race: enough to catch each known race within a few runs, about half a minute per engine on two cores
const TRIALS = {
  addsIntoOneSlot: 5,
  movesIntoOneSlot: 5,
  stagesOfOneVault: 5,
  addVsCouchbox: 10,
  addVsRowRemoval: 40,
  addVsCapacity: 30,
  couchboxVsRowRemoval: 30,
  palletsPastCapacity: 5,
  palletMovesIntoOneRun: 5,
  palletsVsRackDelete: 20,
  activeChecklists: 5,
};

interface Answer {
  status: number;
  body: { id?: number; errors?: string[] } & Record<string, unknown>;
  what: string;
}

const ok = (a: Answer) => a.status >= 200 && a.status < 300;

/** What one race found over all its trials. */
class Tally {
  trials = 0;
  requests = 0;
  serverErrors = 0;
  lost = 0;
  readonly violations: string[] = [];

  constructor(readonly race: string) {}

  answers(list: Answer[]) {
    this.requests += list.length;
    for (const a of list) {
      if (a.status >= 500) {
        this.serverErrors += 1;
        this.violations.push(
          `trial ${this.trials}: ${a.what} answered ${a.status} ${JSON.stringify(a.body)}`,
        );
      } else if (!ok(a) && a.status !== 400 && a.status !== 404 && a.status !== 409) {
        this.violations.push(`trial ${this.trials}: ${a.what} answered ${a.status}`);
      } else if (!ok(a) && !(a.body.errors?.length && a.body.errors.every((e) => typeof e === 'string'))) {
        this.violations.push(`trial ${this.trials}: ${a.what} refused without a readable message`);
      }
    }
  }

  /** An acknowledged write whose effect is not stored. */
  lostWrite(what: string) {
    this.lost += 1;
    this.violations.push(`trial ${this.trials}: acknowledged but lost: ${what}`);
  }

  violation(what: string) {
    this.violations.push(`trial ${this.trials}: ${what}`);
  }

  summary(engine: Engine): string {
    return (
      `race suite (${engine}): ${this.race}: ${this.trials} trials x ${this.requests / Math.max(this.trials, 1)} requests, ` +
      `${this.violations.length} violations, ${this.lost} acknowledged-lost, ${this.serverErrors} answers 5xx`
    );
  }
}

describe.each(testEngines())('race suite on %s', (engine) => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let database: DatabaseHandle;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    scratch = await scratchDatabase(engine, 'race');
    database = openDatabase(scratch.target);
    await migrateToLatest(database.db);
    const count = engine === 'postgres' ? 2 : 1;
    servers.push(...(await Promise.all(Array.from({ length: count }, () => startServer(scratch.url)))));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.close();
    await scratch?.drop();
  });

  /** A fresh company and its signed-in user, so each race's invariants are checked on its own rows. */
  async function newCompany() {
    const account = await buildAccount(database.db);
    const cookie = await signInCookie(servers[0]!.baseUrl, account.email, account.password);
    let turn = 0;
    /** Sends one request to the next server in turn. */
    const send = async (
      method: string,
      url: string,
      body: unknown,
      what: string,
      headers: Record<string, string> = {},
    ): Promise<Answer & { text: string }> => {
      const server = servers[turn++ % servers.length]!;
      const res = await fetch(`${server.baseUrl}${url}`, {
        method,
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: Answer['body'] = {};
      try {
        parsed = JSON.parse(text) as Answer['body'];
      } catch {
        parsed = { text };
      }
      return { status: res.status, body: parsed, what, text };
    };
    return { companyId: account.companyId, send };
  }

  const addVault = (fieldId: number, position: number, name: string) => ({
    method: 'POST',
    url: '/api/vaults/',
    body: { vault_id: name, customer_name: 'RACE', order_name: 'R1', field_id: fieldId, position },
    what: `add ${name} into field ${fieldId} at ${position}`,
  });

  async function finish(tally: Tally, companyId: number) {
    for (const problem of await findInvariantViolations(database.db, companyId))
      tally.violations.push(`after the trials: ${problem}`);
    console.log(tally.summary(engine));
    expect(tally.violations).toEqual([]);
  }

  /** Acknowledged adds are stored under their number, refused ones are not. */
  async function checkAdds(tally: Tally, companyId: number, answers: Answer[], names: (string | null)[]) {
    const present = new Set(
      (
        await findVaultsNamed(
          database.db,
          companyId,
          names.filter((n): n is string => n !== null),
        )
      ).map((v) => v.name),
    );
    answers.forEach((answer, i) => {
      const name = names[i];
      if (!name) return;
      if (ok(answer) && !present.has(name)) tally.lostWrite(answer.what);
      if (!ok(answer) && present.has(name)) tally.violation(`refused but stored: ${answer.what}`);
    });
  }

  it('50 adds into one next free slot: one wins, the rest are refused', async () => {
    const tally = new Tally('50 adds into one slot');
    const { companyId, send } = await newCompany();
    for (let trial = 0; trial < TRIALS.addsIntoOneSlot; trial++) {
      tally.trials += 1;
      const warehouse = await buildWarehouse(database.db, { companyId, rows: 1, cols: 1, fieldCapacity: 3 });
      const field = warehouse.fields[0]!;
      const requests = Array.from({ length: 50 }, (_, i) => addVault(field.id, 3, `A-${trial}-${i}`));
      const answers = await Promise.all(requests.map((r) => send(r.method, r.url, r.body, r.what)));
      tally.answers(answers);
      const wins = answers.filter(ok).length;
      if (wins !== 1) tally.violation(`${wins} adds into one slot were acknowledged`);
      await checkAdds(
        tally,
        companyId,
        answers,
        requests.map((r) => r.body.vault_id),
      );
    }
    await finish(tally, companyId);
  });

  it('the same Idempotency-Key sent 20 times at once across the processes: one write, 20 identical answers', async () => {
    const tally = new Tally('20 sends of one keyed add');
    const { companyId, send } = await newCompany();
    tally.trials += 1;
    const warehouse = await buildWarehouse(database.db, { companyId, rows: 1, cols: 1, fieldCapacity: 3 });
    const add = addVault(warehouse.fields[0]!.id, 3, 'KEYED-1');
    const key = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        send(add.method, add.url, add.body, add.what, { 'idempotency-key': key }),
      ),
    );
    tally.answers(answers);
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(await findVaultsNamed(database.db, companyId, ['KEYED-1'])).toHaveLength(1);
    // the same key with another body is another change: refused, nothing more stored
    const other = await send(add.method, add.url, { ...add.body, vault_id: 'KEYED-2' }, 'reused key', {
      'idempotency-key': key,
    });
    expect(other.status).toBe(422);
    expect(await findVaultsNamed(database.db, companyId, ['KEYED-1', 'KEYED-2'])).toHaveLength(1);
    await finish(tally, companyId);
  });

  it('20 staged vaults moved into one slot: one wins, the rest stay staged', async () => {
    const tally = new Tally('20 moves into one slot');
    const { companyId, send } = await newCompany();
    for (let trial = 0; trial < TRIALS.movesIntoOneSlot; trial++) {
      tally.trials += 1;
      const warehouse = await buildWarehouse(database.db, { companyId, rows: 1, cols: 1, fieldCapacity: 3 });
      const field = warehouse.fields[0]!;
      const staged: number[] = [];
      for (let i = 0; i < 20; i++) staged.push((await buildStagedVault(database.db, { companyId })).id);
      const answers = await Promise.all(
        staged.map((vaultId) =>
          send('PUT', '/api/vaults/move', { vaultId, fieldId: field.id, position: 3 }, `move ${vaultId}`),
        ),
      );
      tally.answers(answers);
      if (answers.filter(ok).length !== 1) tally.violation(`${answers.filter(ok).length} moves acknowledged`);
      const places = new Map((await findVaultPlaces(database.db, staged)).map((v) => [v.id, v]));
      staged.forEach((id, i) => {
        const place = places.get(id);
        if (!place) return tally.lostWrite(`vault ${id} vanished`);
        const moved = place.field_id === field.id && place.position === 3;
        if (ok(answers[i]!) && !moved) tally.lostWrite(answers[i]!.what);
        if (!ok(answers[i]!) && place.field_id !== null) tally.violation(`refused but moved: vault ${id}`);
      });
    }
    await finish(tally, companyId);
  });

  it('10 stages of one topmost vault: one wins, the stack below stays', async () => {
    const tally = new Tally('10 stages of one vault');
    const { companyId, send } = await newCompany();
    for (let trial = 0; trial < TRIALS.stagesOfOneVault; trial++) {
      tally.trials += 1;
      const warehouse = await buildWarehouse(database.db, { companyId, rows: 1, cols: 1, fieldCapacity: 3 });
      const field = warehouse.fields[0]!;
      const stack: number[] = [];
      for (let i = 0; i < 3; i++)
        stack.push((await buildVault(database.db, { companyId, fieldId: field.id })).id);
      const top = stack[2]!;
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => send('POST', `/api/stage/vaults/${top}`, {}, `stage ${top}`)),
      );
      tally.answers(answers);
      if (answers.filter(ok).length !== 1)
        tally.violation(`${answers.filter(ok).length} stages acknowledged`);
      const places = new Map((await findVaultPlaces(database.db, stack)).map((v) => [v.id, v]));
      if (places.get(top)?.field_id !== null) tally.lostWrite(`stage of ${top}`);
      for (const id of stack.slice(0, 2))
        if (places.get(id)?.field_id !== field.id) tally.violation(`vault ${id} left its field`);
    }
    await finish(tally, companyId);
  });

  it('adds race couchbox toggles of the same fields', async () => {
    const tally = new Tally('add vs couchbox toggle');
    const { companyId, send } = await newCompany();
    for (let trial = 0; trial < TRIALS.addVsCouchbox; trial++) {
      tally.trials += 1;
      const warehouse = await buildWarehouse(database.db, { companyId, rows: 2, cols: 3, fieldCapacity: 3 });
      const requests: { method: string; url: string; body: Record<string, unknown>; what: string }[] = [];
      const names: (string | null)[] = [];
      const tops: number[] = [];
      for (const col of ['A', 'B', 'C']) {
        const top = warehouse.field(`${col}1`);
        const below = warehouse.field(`${col}2`);
        tops.push(top.id);
        requests.push(addVault(top.id, 3, `T-${trial}-${col}1`), addVault(below.id, 3, `T-${trial}-${col}2`));
        names.push(`T-${trial}-${col}1`, `T-${trial}-${col}2`);
        requests.push({
          method: 'PATCH',
          url: `/api/fields/${top.id}`,
          body: { type: 'couchbox' },
          what: `couchbox ${col}1`,
        });
        names.push(null);
      }
      const answers = await Promise.all(requests.map((r) => send(r.method, r.url, r.body, r.what)));
      tally.answers(answers);
      await checkAdds(tally, companyId, answers, names);
      const types = await findFieldTypes(database.db, tops);
      tops.forEach((id, i) => {
        const toggle = answers[i * 3 + 2]!;
        const type = types.get(id);
        if (ok(toggle) && type !== 'couchbox-T') tally.lostWrite(toggle.what);
        if (!ok(toggle) && type !== 'vault') tally.violation(`refused but stored: ${toggle.what}`);
      });
    }
    await finish(tally, companyId);
  });

  it('adds race the removal of the row they go into', async () => {
    const tally = new Tally('add vs row removal');
    const { companyId, send } = await newCompany();
    for (let trial = 0; trial < TRIALS.addVsRowRemoval; trial++) {
      tally.trials += 1;
      const warehouse = await buildWarehouse(database.db, { companyId, rows: 3, cols: 3, fieldCapacity: 3 });
      const adds = [addVault(warehouse.field('C3').id, 3, `R-${trial}-C3`)];
      adds.push(addVault(warehouse.field('A3').id, 3, `R-${trial}-A3`));
      const removal = send(
        'DELETE',
        '/api/fields/',
        { warehouse_id: warehouse.id, direction: 'bottom', opperation: 'minus', count: 1 },
        'remove the bottom row',
      );
      const answers = await Promise.all([...adds.map((r) => send(r.method, r.url, r.body, r.what)), removal]);
      tally.answers(answers);
      await checkAdds(tally, companyId, answers, [...adds.map((r) => r.body.vault_id), null]);
      const shape = await findWarehouseShape(database.db, warehouse.id);
      const removed = ok(answers.at(-1)!);
      if (removed && shape?.rows !== 2) tally.lostWrite('row removal');
      if (!removed && shape?.rows !== 3) tally.violation('refused row removal took effect');
    }
    await finish(tally, companyId);
  });

  it('adds race field capacity changes, down and up', async () => {
    const tally = new Tally('add vs capacity change');
    const { companyId, send } = await newCompany();
    for (let trial = 0; trial < TRIALS.addVsCapacity; trial++) {
      tally.trials += 1;
      const down = trial % 2 === 0;
      const [from, to] = down ? [5, 3] : [3, 5];
      const warehouse = await buildWarehouse(database.db, {
        companyId,
        rows: 2,
        cols: 2,
        fieldCapacity: from,
      });
      for (const field of warehouse.fields) {
        for (let i = 0; i < 2; i++) await buildVault(database.db, { companyId, fieldId: field.id });
      }
      const nextFree = from - 2;
      const adds = warehouse.fields.map((f) => addVault(f.id, nextFree, `C-${trial}-${f.name}`));
      const edit = send(
        'PATCH',
        `/api/warehouse/${warehouse.id}/edit-dimensions`,
        { field_capacity: to },
        `field capacity ${from} -> ${to}`,
      );
      const answers = await Promise.all([...adds.map((r) => send(r.method, r.url, r.body, r.what)), edit]);
      tally.answers(answers);
      await checkAdds(tally, companyId, answers, [...adds.map((r) => r.body.vault_id), null]);
      const shape = await findWarehouseShape(database.db, warehouse.id);
      const edited = ok(answers.at(-1)!);
      if (edited && shape?.field_capacity !== to) tally.lostWrite(answers.at(-1)!.what);
      if (!edited && shape?.field_capacity !== from) tally.violation('refused capacity change took effect');
    }
    await finish(tally, companyId);
  });

  it('couchbox toggles race the removal of the row below', async () => {
    const tally = new Tally('couchbox toggle vs row removal');
    const { companyId, send } = await newCompany();
    for (let trial = 0; trial < TRIALS.couchboxVsRowRemoval; trial++) {
      tally.trials += 1;
      const pairing = trial % 2 === 0;
      const warehouse = await buildWarehouse(database.db, { companyId, rows: 3, cols: 3, fieldCapacity: 3 });
      const tops = ['A2', 'B2', 'C2'].map((name) => warehouse.field(name));
      if (!pairing) for (const top of tops) await makeCouchbox(database.db, { companyId, fieldId: top.id });
      const wanted = pairing ? 'couchbox' : 'vault';
      const answers = await Promise.all([
        ...tops.map((top) =>
          send(
            'PATCH',
            `/api/fields/${top.id}`,
            { type: wanted },
            `${wanted} ${fieldName(top.col, top.row)}`,
          ),
        ),
        send(
          'DELETE',
          '/api/fields/',
          { warehouse_id: warehouse.id, direction: 'bottom', opperation: 'minus', count: 1 },
          'remove the bottom row',
        ),
      ]);
      tally.answers(answers);
      const types = await findFieldTypes(
        database.db,
        tops.map((t) => t.id),
      );
      tops.forEach((top, i) => {
        const type = types.get(top.id);
        const changed = pairing ? type === 'couchbox-T' : type === 'vault';
        if (ok(answers[i]!) && !changed) tally.lostWrite(answers[i]!.what);
        if (!ok(answers[i]!) && changed) tally.violation(`refused but stored: ${answers[i]!.what}`);
      });
      const shape = await findWarehouseShape(database.db, warehouse.id);
      const removed = ok(answers.at(-1)!);
      if (removed && shape?.rows !== 2) tally.lostWrite('row removal');
      if (!removed && shape?.rows !== 3) tally.violation('refused row removal took effect');
    }
    await finish(tally, companyId);
  });

  it('30 pallet adds onto a shelf with room for 10', async () => {
    const tally = new Tally('30 pallet adds past capacity');
    const { companyId, send } = await newCompany();
    for (let trial = 0; trial < TRIALS.palletsPastCapacity; trial++) {
      tally.trials += 1;
      const warehouse = await buildWarehouse(database.db, { companyId, rows: 1, cols: 1 });
      const rack = await buildRack(database.db, {
        companyId,
        warehouseId: warehouse.id,
        shelves: 1,
        capacity: 10,
      });
      const shelfId = rack.shelfIds[0]!;
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          send(
            'POST',
            '/api/racks/pallets',
            { shelf_id: shelfId, customer_name: 'RACE', shelf_spots: 1 },
            `pallet ${trial}-${i}`,
          ),
        ),
      );
      tally.answers(answers);
      const wins = answers.filter(ok);
      if (wins.length !== 10) tally.violation(`${wins.length} pallets acknowledged on a shelf for 10`);
      const stored = new Set(await findPalletIds(database.db, shelfId));
      for (const a of wins) if (!stored.has(Number(a.body.id))) tally.lostWrite(a.what);
      if (stored.size !== wins.length)
        tally.violation(`${stored.size} pallets stored, ${wins.length} acknowledged`);
    }
    await finish(tally, companyId);
  });

  it('6 pallets moved at once onto a shelf with room for 2', async () => {
    const tally = new Tally('6 pallet moves into one run');
    const { companyId, send } = await newCompany();
    for (let trial = 0; trial < TRIALS.palletMovesIntoOneRun; trial++) {
      tally.trials += 1;
      const warehouse = await buildWarehouse(database.db, { companyId, rows: 1, cols: 1 });
      const rack = await buildRack(database.db, {
        companyId,
        warehouseId: warehouse.id,
        shelves: 2,
        capacity: 6,
      });
      const [source, target] = rack.shelfIds as [number, number];
      // the target shelf has room for two single pallets, in slots 4 and 5
      await buildPallet(database.db, {
        companyId,
        shelfId: target,
        customer: 'STAYS',
        slotIndex: 0,
        spots: 4,
      });
      const moving = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          buildPallet(database.db, { companyId, shelfId: source, customer: 'MOVES', slotIndex: i }),
        ),
      );
      const answers = await Promise.all(
        moving.map((id, i) =>
          send('PUT', `/api/racks/pallets/${id}/move`, { shelf_id: target }, `move ${trial}-${i}`),
        ),
      );
      tally.answers(answers);
      const wins = answers.filter(ok).map((a) => Number(a.body.id));
      if (wins.length !== 2) tally.violation(`${wins.length} pallet moves acknowledged into room for 2`);
      const onTarget = new Set(await findPalletIds(database.db, target));
      for (const id of wins) if (!onTarget.has(id)) tally.lostWrite(`move of pallet ${id}`);
      if (onTarget.size !== wins.length + 1)
        tally.violation(`${onTarget.size - 1} pallets moved in, ${wins.length} acknowledged`);
    }
    await finish(tally, companyId);
  });

  it('pallet adds race the deletion of their rack', async () => {
    const tally = new Tally('pallet adds vs rack delete');
    const { companyId, send } = await newCompany();
    for (let trial = 0; trial < TRIALS.palletsVsRackDelete; trial++) {
      tally.trials += 1;
      const warehouse = await buildWarehouse(database.db, { companyId, rows: 1, cols: 1 });
      const rack = await buildRack(database.db, {
        companyId,
        warehouseId: warehouse.id,
        shelves: 1,
        capacity: 10,
      });
      const shelfId = rack.shelfIds[0]!;
      const answers = await Promise.all([
        // each with a customer of its own, which must go again with the rack
        ...Array.from({ length: 4 }, (_, i) =>
          send(
            'POST',
            '/api/racks/pallets',
            { shelf_id: shelfId, customer_name: `RACK RACE ${trial}-${i}`, shelf_spots: 1 },
            `pallet ${trial}-${i}`,
          ),
        ),
        send('DELETE', `/api/racks/${warehouse.id}/rack/${rack.id}/delete`, {}, 'delete the rack'),
      ]);
      tally.answers(answers);
      const deleted = ok(answers.at(-1)!);
      const stored = new Set(await findPalletIds(database.db, shelfId));
      if (deleted && (await rackExists(database.db, rack.id))) tally.lostWrite('rack delete');
      if (!deleted) tally.violation(`the rack delete was refused: ${answers.at(-1)!.status}`);
      for (const a of answers.slice(0, -1)) {
        if (ok(a) && !deleted && !stored.has(Number(a.body.id))) tally.lostWrite(a.what);
        if (!ok(a) && a.status !== 404) tally.violation(`${a.what} refused with ${a.status}`);
      }
    }
    await finish(tally, companyId);
  });

  it('10 creations of an active checklist for one warehouse: one wins', async () => {
    const tally = new Tally('10 active checklist creations');
    const { companyId, send } = await newCompany();
    for (let trial = 0; trial < TRIALS.activeChecklists; trial++) {
      tally.trials += 1;
      const warehouse = await buildWarehouse(database.db, { companyId, rows: 1, cols: 1 });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          send(
            'POST',
            '/api/checklists/',
            { warehouse_id: warehouse.id, description: `Race ${i}`, tasks: ['Sweep'] },
            `checklist ${trial}-${i}`,
          ),
        ),
      );
      tally.answers(answers);
      const wins = answers.filter(ok).map((a) => Number(a.body.id));
      const active = await findActiveChecklistIds(database.db, warehouse.id);
      if (wins.length !== 1) tally.violation(`${wins.length} active checklists acknowledged`);
      if (JSON.stringify(active) !== JSON.stringify(wins))
        tally.violation(`stored active checklists ${active.join(',')}, acknowledged ${wins.join(',')}`);
    }
    await finish(tally, companyId);
  });
});

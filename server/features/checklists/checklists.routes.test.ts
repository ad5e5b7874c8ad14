import { describe, expect, it } from 'vitest';
import {
  ACTIVE_CHECKLIST_EXISTS,
  type ChecklistDto,
  NAME_REQUIRED,
  REASON_TOO_SHORT,
  WAREHOUSE_REQUIRED,
} from '@domain/schemas/checklist.schema';
import { buildWarehouse, uniqueSuffix } from '../../factories';
import { type SignedIn, testEngines } from '../../test/test-app';
import { useTestApp } from '../../test/use-test-app';

describe.each(testEngines())('checklist routes on %s', (engine) => {
  const { ctx, user: owner, other: stranger } = useTestApp(engine);

  const warehouseOf = (user: SignedIn, name?: string) =>
    buildWarehouse(ctx.database.db, { companyId: user.companyId, name, rows: 1, cols: 1 });

  async function create(user: SignedIn, body: object): Promise<ChecklistDto> {
    const res = await user.request({ method: 'POST', url: '/api/checklists/', payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as ChecklistDto;
  }

  /** the secret of a checklist's fill-in link, read from the link the company's staff are shown */
  const keyOf = (checklist: ChecklistDto) => {
    if (!checklist.fill_in_url) throw new Error(`checklist ${checklist.id} has no fill-in link`);
    return new URL(checklist.fill_in_url, 'http://site.test').searchParams.get('key')!;
  };
  const withKey = (url: string, key: string | undefined) =>
    key === undefined ? url : `${url}?key=${encodeURIComponent(key)}`;
  const publicGet = (name: string, key?: string) =>
    ctx.app.inject({
      method: 'GET',
      url: withKey(`/api/checklists/warehouse/${encodeURIComponent(name)}`, key),
    });
  const publicPatch = (id: number | string, payload: object, key?: string) =>
    ctx.app.inject({ method: 'PATCH', url: withKey(`/api/checklists/${id}`, key), payload });
  const stored = async (id: number): Promise<ChecklistDto> => {
    const list = (await owner.request({ method: 'GET', url: '/api/checklists/' })).json() as ChecklistDto[];
    const found = list.find((c) => c.id === id);
    if (!found) throw new Error(`checklist ${id} not listed`);
    return found;
  };
  const countChecklists = async () =>
    (await ctx.database.db.selectFrom('checklists').select('id').execute()).length;

  describe('GET and POST /api/checklists/', () => {
    it('signed out: 401 for the list and for adding', async () => {
      const warehouse = await warehouseOf(owner);
      const list = await ctx.app.inject({ method: 'GET', url: '/api/checklists/' });
      expect(list.statusCode).toBe(401);
      const before = await countChecklists();
      const add = await ctx.app.inject({
        method: 'POST',
        url: '/api/checklists/',
        payload: { warehouse_id: warehouse.id, tasks: ['x'] },
      });
      expect(add.statusCode).toBe(401);
      expect(await countChecklists()).toBe(before);
    });

    it('adds a checklist with trimmed tasks (texts or {text}), drops blank ones, and lists it newest first', async () => {
      const warehouse = await warehouseOf(owner);
      const older = await create(owner, {
        warehouse_id: warehouse.id,
        description: 'first',
        tasks: ['Old task'],
      });
      await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${older.id}`,
        payload: { is_active: false },
      });

      const created = await create(owner, {
        warehouse_id: warehouse.id,
        description: '  Weekly round  ',
        tasks: ['  Sweep the floor  ', '', '   ', { text: ' Empty the bins ' }],
      });
      expect(created).toMatchObject({
        warehouse_id: warehouse.id,
        warehouseName: warehouse.name,
        description: 'Weekly round',
        is_active: true,
        filled_out_by: null,
      });
      expect(created.tasks.map((t) => t.text)).toEqual(['Sweep the floor', 'Empty the bins']);
      expect(created.tasks[0]).toMatchObject({
        completed: false,
        completed_by: null,
        reason: null,
        completed_at: null,
      });

      const list = (await owner.request({ method: 'GET', url: '/api/checklists/' })).json() as ChecklistDto[];
      const ids = list.map((c) => c.id);
      expect(ids.indexOf(created.id)).toBeLessThan(ids.indexOf(older.id));
      expect(list.find((c) => c.id === created.id)!.tasks).toHaveLength(2);
    });

    it('never lists another company’s checklists', async () => {
      const theirs = await create(stranger, {
        warehouse_id: (await warehouseOf(stranger)).id,
        tasks: ['Theirs'],
      });
      const mine = (await owner.request({ method: 'GET', url: '/api/checklists/' })).json() as ChecklistDto[];
      expect(mine.some((c) => c.id === theirs.id)).toBe(false);
    });

    it('refuses a missing warehouse or malformed tasks with 400 and adds nothing', async () => {
      const before = await countChecklists();
      const missing = await owner.request({
        method: 'POST',
        url: '/api/checklists/',
        payload: { tasks: ['a'] },
      });
      expect(missing.statusCode).toBe(400);
      expect((missing.json() as { errors: string[] }).errors.join(' ')).toContain(WAREHOUSE_REQUIRED);
      const blank = await owner.request({
        method: 'POST',
        url: '/api/checklists/',
        payload: { warehouse_id: '' },
      });
      expect(blank.statusCode).toBe(400);
      const warehouse = await warehouseOf(owner);
      const badTasks = await owner.request({
        method: 'POST',
        url: '/api/checklists/',
        payload: { warehouse_id: warehouse.id, tasks: 'sweep' },
      });
      expect(badTasks.statusCode).toBe(400);
      const tooLong = await owner.request({
        method: 'POST',
        url: '/api/checklists/',
        payload: { warehouse_id: warehouse.id, tasks: ['x'.repeat(301)] },
      });
      expect(tooLong.statusCode).toBe(400);
      expect(await countChecklists()).toBe(before);
    });

    it('answers 404 for another company’s warehouse', async () => {
      const theirs = await warehouseOf(stranger);
      const before = await countChecklists();
      const res = await owner.request({
        method: 'POST',
        url: '/api/checklists/',
        payload: { warehouse_id: theirs.id, tasks: ['x'] },
      });
      expect(res.statusCode).toBe(404);
      expect(await countChecklists()).toBe(before);
    });

    it('allows only one active checklist per warehouse (409), but a new one once the old is inactive', async () => {
      const warehouse = await warehouseOf(owner);
      const first = await create(owner, { warehouse_id: warehouse.id, tasks: ['a'] });
      const second = await owner.request({
        method: 'POST',
        url: '/api/checklists/',
        payload: { warehouse_id: warehouse.id, tasks: ['b'] },
      });
      expect(second.statusCode).toBe(409);
      expect(second.json()).toEqual({ errors: [ACTIVE_CHECKLIST_EXISTS] });
      await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${first.id}`,
        payload: { is_active: false },
      });
      await create(owner, { warehouse_id: warehouse.id, tasks: ['c'] });
    });
  });

  describe('GET /api/checklists/warehouse/{name} (public)', () => {
    it('finds the active checklist ignoring case and reading hyphens as spaces, with warehouseName', async () => {
      const name = `Dock North ${uniqueSuffix()}`;
      const warehouse = await warehouseOf(owner, name);
      const checklist = await create(owner, {
        warehouse_id: warehouse.id,
        description: 'Daily',
        tasks: ['Sweep'],
      });
      const key = keyOf(checklist);
      const res = await publicGet(name.toLowerCase().replace(/ /g, '-'), key);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: checklist.id,
        warehouseName: name,
        description: 'Daily',
        tasks: [{ text: 'Sweep' }],
      });
      // whoever holds the link gets no key in the answer
      expect(res.json()).not.toHaveProperty('fill_in_url');
      expect((await publicGet(name.toUpperCase(), key)).statusCode).toBe(200);
    });

    it('gives the company’s staff each checklist’s fill-in link: the spec’s path with a key of 128 bits or more', async () => {
      const name = `Link Depot ${uniqueSuffix()}`;
      const checklist = await create(owner, { warehouse_id: (await warehouseOf(owner, name)).id });
      const url = new URL(checklist.fill_in_url!, 'http://site.test');
      expect(url.pathname).toBe(`/${name.toLowerCase().replace(/ /g, '-')}-checklist`);
      const key = url.searchParams.get('key')!;
      expect(Buffer.from(key, 'base64url').length).toBeGreaterThanOrEqual(16);
      expect((await stored(checklist.id)).fill_in_url).toBe(checklist.fill_in_url);
      const other = await create(owner, { warehouse_id: (await warehouseOf(owner)).id });
      expect(keyOf(other)).not.toBe(key);
    });

    it('signed out, without the key or with a wrong one: 404 that says no more than for a warehouse that does not exist', async () => {
      const name = `Keyed Depot ${uniqueSuffix()}`;
      const checklist = await create(owner, {
        warehouse_id: (await warehouseOf(owner, name)).id,
        description: 'Secret round',
        tasks: ['Count the pallets'],
      });
      const slug = name.toLowerCase().replace(/ /g, '-');
      const missing = await publicGet(`no-such-warehouse-${uniqueSuffix()}`, keyOf(checklist));
      expect(missing.statusCode).toBe(404);
      // a name with a control character names nothing (PostgreSQL cannot even compare one holding NUL)
      for (const name of ['\u0000', `${slug}\u0000`, 'tab\tname']) {
        const res = await publicGet(name, keyOf(checklist));
        expect(res.statusCode, JSON.stringify(name)).toBe(404);
        expect(res.json()).toEqual(missing.json());
      }
      const other = await create(owner, { warehouse_id: (await warehouseOf(owner)).id });
      for (const key of [undefined, '', 'x', `${keyOf(checklist)}x`, keyOf(other), 'a'.repeat(500)]) {
        const res = await publicGet(slug, key);
        expect(res.statusCode, `key ${key}`).toBe(404);
        expect(res.json()).toEqual(missing.json());
      }
      // the header works as well as the query
      const byHeader = await ctx.app.inject({
        method: 'GET',
        url: `/api/checklists/warehouse/${slug}`,
        headers: { 'x-checklist-key': keyOf(checklist) },
      });
      expect(byHeader.statusCode).toBe(200);
    });

    it('answers 404 when the warehouse has no active checklist or does not exist', async () => {
      const warehouse = await warehouseOf(owner, `Quiet ${uniqueSuffix()}`);
      expect((await publicGet(warehouse.slug)).statusCode).toBe(404);
      const checklist = await create(owner, { warehouse_id: warehouse.id, tasks: ['a'] });
      expect((await publicGet(warehouse.slug, keyOf(checklist))).statusCode).toBe(200);
      await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${checklist.id}`,
        payload: { is_active: false },
      });
      const inactive = await publicGet(warehouse.slug, keyOf(checklist));
      expect(inactive.statusCode).toBe(404);
      expect(inactive.json()).toHaveProperty('errors');
      expect((await publicGet(`no-such-warehouse-${uniqueSuffix()}`)).statusCode).toBe(404);
    });

    it('a warehouse of the same slug in another company does not switch off the link (MAIN-a vs Main A)', async () => {
      const suffix = uniqueSuffix();
      const mine = await create(owner, {
        warehouse_id: (await warehouseOf(owner, `Main A ${suffix}`)).id,
        tasks: ['mine'],
      });
      const slug = `main-a-${suffix}`;
      expect((await publicGet(slug, keyOf(mine))).json()).toMatchObject({ id: mine.id });

      const theirs = await create(stranger, {
        warehouse_id: (await warehouseOf(stranger, `MAIN-a ${suffix}`)).id,
        tasks: ['theirs'],
      });
      const res = await publicGet(slug, keyOf(mine));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: mine.id, tasks: [{ text: 'mine' }] });
      expect((await publicGet(slug, keyOf(theirs))).json()).toMatchObject({ id: theirs.id });
      expect((await publicGet(slug)).statusCode).toBe(404);
      // signed-in staff need no key and see their own company's
      const url = `/api/checklists/warehouse/${slug}`;
      expect((await owner.request({ method: 'GET', url })).json()).toMatchObject({ id: mine.id });
      expect((await stranger.request({ method: 'GET', url })).json()).toMatchObject({ id: theirs.id });
    });
  });

  describe('POST /api/checklists/{id}/key', () => {
    it('issues a new key: the old link stops working, the new one opens; only for the company’s staff', async () => {
      const warehouse = await warehouseOf(owner);
      const checklist = await create(owner, { warehouse_id: warehouse.id, tasks: ['a'] });
      const oldKey = keyOf(checklist);
      const url = `/api/checklists/${checklist.id}/key`;

      expect((await ctx.app.inject({ method: 'POST', url })).statusCode).toBe(401);
      const foreign = await stranger.request({ method: 'POST', url });
      expect(foreign.statusCode).toBe(404);
      expect((await publicGet(warehouse.slug, oldKey)).statusCode).toBe(200);

      const res = await owner.request({ method: 'POST', url });
      expect(res.statusCode).toBe(200);
      const renewed = res.json() as ChecklistDto;
      expect(keyOf(renewed)).not.toBe(oldKey);
      expect((await stored(checklist.id)).fill_in_url).toBe(renewed.fill_in_url);
      expect((await publicGet(warehouse.slug, oldKey)).statusCode).toBe(404);
      expect((await publicPatch(checklist.id, { filled_out_by: 'x', tasks: [] }, oldKey)).statusCode).toBe(
        404,
      );
      expect((await publicGet(warehouse.slug, keyOf(renewed))).statusCode).toBe(200);
    });
  });

  describe('PATCH /api/checklists/{id} signed out (answers only)', () => {
    async function activeChecklist(tasks = ['Sweep the floor', 'Empty the bins', 'Label shipments']) {
      const warehouse = await warehouseOf(owner);
      return create(owner, { warehouse_id: warehouse.id, description: 'Original description', tasks });
    }
    const answers = (checklist: ChecklistDto) =>
      checklist.tasks.map(({ id, text, completed, completed_by, reason }) => ({
        id,
        text,
        completed,
        completed_by,
        reason,
      }));

    it('without the key or with a wrong one: 404, nothing shown and nothing changed (the finding: 200 with all)', async () => {
      const checklist = await activeChecklist();
      const tasks = answers(checklist).map((t) => ({ ...t, completed: true }));
      const ghost = await publicPatch(2_000_000_000, { filled_out_by: 'x', tasks: [] }, keyOf(checklist));
      for (const key of [undefined, 'wrong', keyOf(await activeChecklist())]) {
        for (const body of [
          { filled_out_by: 'x', tasks: [] },
          { filled_out_by: 'x', tasks },
        ]) {
          const res = await publicPatch(checklist.id, body, key);
          expect(res.statusCode).toBe(404);
          expect(res.json()).toEqual(ghost.json());
          expect(res.body).not.toContain('Original description');
        }
      }
      expect((await stored(checklist.id)).tasks.every((t) => !t.completed)).toBe(true);
    });

    it('Yes completes an open task with the filler, or with the named someone else, and a time', async () => {
      const checklist = await activeChecklist();
      const key = keyOf(checklist);
      const tasks = answers(checklist);
      tasks[0]!.completed = true;
      const res = await publicPatch(checklist.id, { tasks, filled_out_by: '  Maria  ' }, key);
      expect(res.statusCode).toBe(200);
      const after = res.json() as ChecklistDto;
      expect(after.filled_out_by).toBe('Maria');
      expect(after.tasks[0]).toMatchObject({ completed: true, completed_by: 'Maria', reason: null });
      expect(Date.parse(after.tasks[0]!.completed_at!)).not.toBeNaN();
      expect(after.tasks[1]).toMatchObject({ completed: false, completed_by: null });
      expect(after).not.toHaveProperty('fill_in_url');

      // the page sends the other tasks by id only
      const second = await publicPatch(
        checklist.id,
        {
          tasks: [
            { id: after.tasks[0]!.id },
            { id: after.tasks[1]!.id, completed: true, completed_by: 'Jo (night shift)' },
            { id: after.tasks[2]!.id },
          ],
          filled_out_by: 'Maria',
        },
        key,
      );
      expect(second.statusCode, second.body).toBe(200);
      expect((second.json() as ChecklistDto).tasks[1]).toMatchObject({
        completed: true,
        completed_by: 'Jo (night shift)',
      });
    });

    it('No keeps the task open with the reason, the filler and a time; a short reason is 400 and changes nothing', async () => {
      const checklist = await activeChecklist();
      const key = keyOf(checklist);
      const short = answers(checklist);
      short[1]!.reason = '  too short   ';
      const refused = await publicPatch(checklist.id, { tasks: short, filled_out_by: 'Maria' }, key);
      expect(refused.statusCode).toBe(400);
      expect((refused.json() as { errors: string[] }).errors.join(' ')).toContain(REASON_TOO_SHORT);
      expect((await stored(checklist.id)).tasks[1]).toMatchObject({ reason: null, completed_at: null });

      const ok = answers(checklist);
      ok[1]!.reason = '  The broom is missing today  ';
      const res = await publicPatch(checklist.id, { tasks: ok, filled_out_by: 'Maria' }, key);
      expect(res.statusCode).toBe(200);
      const task = (res.json() as ChecklistDto).tasks[1]!;
      expect(task).toMatchObject({
        completed: false,
        reason: 'The broom is missing today',
        completed_by: 'Maria',
      });
      expect(task.completed_at).not.toBeNull();
    });

    it('needs a name: 400 "Name is required." and nothing changes', async () => {
      const checklist = await activeChecklist();
      const tasks = answers(checklist);
      tasks[0]!.completed = true;
      for (const body of [{ tasks }, { tasks, filled_out_by: '   ' }, { tasks, filled_out_by: null }]) {
        const res = await publicPatch(checklist.id, body, keyOf(checklist));
        expect(res.statusCode).toBe(400);
        expect((res.json() as { errors: string[] }).errors.join(' ')).toContain(NAME_REQUIRED);
      }
      expect((await stored(checklist.id)).tasks[0]!.completed).toBe(false);
    });

    it('403 for anything but answers: description, warehouse, active flag, task texts, tasks added or removed, a done task reopened', async () => {
      const checklist = await activeChecklist();
      const key = keyOf(checklist);
      const done = answers(checklist);
      done[0]!.completed = true;
      expect((await publicPatch(checklist.id, { tasks: done, filled_out_by: 'Maria' }, key)).statusCode).toBe(
        200,
      );
      const before = await stored(checklist.id);
      const other = await warehouseOf(owner);
      const base = answers(before);
      const attempts: [string, object][] = [
        ['description', { description: 'HACKED' }],
        ['warehouse', { warehouse_id: other.id }],
        ['active flag', { is_active: false }],
        ['task text', { tasks: base.map((t, i) => (i === 1 ? { ...t, text: 'HACKED' } : t)) }],
        ['task added', { tasks: [...base, { id: 999_999, text: 'New task', completed: false }] }],
        ['task added without id', { tasks: [...base, { text: 'New task' }] }],
        ['task removed', { tasks: base.slice(1) }],
        ['done task reopened', { tasks: base.map((t, i) => (i === 0 ? { ...t, completed: false } : t)) }],
        ['the finding’s body', { tasks: [] }],
      ];
      for (const [what, change] of attempts) {
        const res = await publicPatch(
          checklist.id,
          { filled_out_by: 'Mallory', tasks: base, ...change },
          key,
        );
        expect(res.statusCode, what).toBe(403);
        expect((res.json() as { errors: string[] }).errors[0]).toContain('can only answer open tasks');
      }
      expect(await stored(checklist.id)).toEqual(before);
      expect((await stored(checklist.id)).tasks[0]).toMatchObject({ completed: true, completed_by: 'Maria' });
    });

    it('cannot answer through another checklist: its task ids are refused (403) and nothing changes', async () => {
      const target = await activeChecklist();
      const mine = await activeChecklist();
      const foreign = answers(target).map((t) => ({ ...t, completed: true }));
      const res = await publicPatch(mine.id, { tasks: foreign, filled_out_by: 'Mallory' }, keyOf(mine));
      expect(res.statusCode).toBe(403);
      expect((await stored(target.id)).tasks.every((t) => !t.completed)).toBe(true);
      expect((await stored(mine.id)).tasks.every((t) => !t.completed)).toBe(true);
    });

    it('answers 404 for an inactive, unknown or malformed checklist id', async () => {
      const checklist = await activeChecklist();
      const key = keyOf(checklist);
      await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${checklist.id}`,
        payload: { is_active: false },
      });
      const tasks = answers(checklist);
      tasks[0]!.completed = true;
      expect((await publicPatch(checklist.id, { tasks, filled_out_by: 'Maria' }, key)).statusCode).toBe(404);
      expect((await stored(checklist.id)).tasks[0]!.completed).toBe(false);
      expect((await publicPatch(987_654, { tasks, filled_out_by: 'Maria' }, key)).statusCode).toBe(404);
      for (const id of ['abc', '0x4', '4e0', '%20' + String(checklist.id), '+4', '04'])
        expect((await publicPatch(id, { tasks, filled_out_by: 'Maria' }, key)).statusCode, id).toBe(404);
    });

    it('a signed-out edit: 404 without the key, 403 with it, and nothing changes', async () => {
      const checklist = await activeChecklist();
      const edit = { description: 'HACKED', tasks: [{ text: 'HACKED' }] };
      expect((await publicPatch(checklist.id, edit)).statusCode).toBe(404);
      expect((await publicPatch(checklist.id, edit, keyOf(checklist))).statusCode).toBe(403);
      expect((await stored(checklist.id)).description).toBe('Original description');
    });

    it('takes at most 16 kB on the public answer (413)', async () => {
      const checklist = await activeChecklist();
      const res = await publicPatch(
        checklist.id,
        { filled_out_by: 'Maria', tasks: answers(checklist), padding: 'x'.repeat(20_000) },
        keyOf(checklist),
      );
      expect(res.statusCode).toBe(413);
      expect(res.json()).toHaveProperty('errors');
    });
  });

  describe('PATCH /api/checklists/{id} signed in (edit)', () => {
    it('edits the description, toggles, removes and adds tasks, and deactivates', async () => {
      const warehouse = await warehouseOf(owner);
      const checklist = await create(owner, {
        warehouse_id: warehouse.id,
        description: 'Old',
        tasks: ['Keep', 'Remove me', 'Toggle me'],
      });
      const [keep, , toggle] = checklist.tasks;
      const res = await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${checklist.id}`,
        payload: {
          description: 'New description',
          is_active: false,
          tasks: [
            { id: toggle!.id, text: toggle!.text, completed: true },
            { id: keep!.id, text: keep!.text, completed: false },
            { text: '  Added task  ' },
            { text: '   ' },
          ],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const after = res.json() as ChecklistDto;
      expect(after).toMatchObject({ description: 'New description', is_active: false });
      expect(after.tasks.map((t) => t.text)).toEqual(['Toggle me', 'Keep', 'Added task']);
      const me = (await owner.request({ method: 'GET', url: '/api/auth/' })).json() as { username: string };
      expect(after.tasks[0]).toMatchObject({ id: toggle!.id, completed: true, completed_by: me.username });
      expect(after.tasks[0]!.completed_at).not.toBeNull();

      const reopened = await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${checklist.id}`,
        payload: { tasks: after.tasks.map((t) => ({ id: t.id, text: t.text, completed: false })) },
      });
      expect((reopened.json() as ChecklistDto).tasks[0]).toMatchObject({
        completed: false,
        completed_by: null,
        completed_at: null,
      });
    });

    it('moves a checklist to another warehouse of the company, but not to another company’s (404)', async () => {
      const checklist = await create(owner, { warehouse_id: (await warehouseOf(owner)).id, tasks: ['a'] });
      const target = await warehouseOf(owner);
      const moved = await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${checklist.id}`,
        payload: { warehouse_id: target.id },
      });
      expect(moved.json()).toMatchObject({ warehouse_id: target.id, warehouseName: target.name });
      const foreign = await warehouseOf(stranger);
      const refused = await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${checklist.id}`,
        payload: { warehouse_id: foreign.id },
      });
      expect(refused.statusCode).toBe(404);
      expect((await stored(checklist.id)).warehouse_id).toBe(target.id);
    });

    it('refuses a second active checklist when activating or moving (409) and changes nothing', async () => {
      const warehouse = await warehouseOf(owner);
      const active = await create(owner, { warehouse_id: warehouse.id, tasks: ['a'] });
      const old = await create(owner, {
        warehouse_id: (await warehouseOf(owner)).id,
        description: 'old',
        tasks: ['b'],
      });
      await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${old.id}`,
        payload: { is_active: false },
      });

      const moveActive = await create(owner, { warehouse_id: (await warehouseOf(owner)).id, tasks: ['c'] });
      const move = await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${moveActive.id}`,
        payload: { warehouse_id: warehouse.id },
      });
      expect(move.statusCode).toBe(409);
      expect(move.json()).toEqual({ errors: [ACTIVE_CHECKLIST_EXISTS] });
      expect((await stored(moveActive.id)).warehouse_id).toBe(moveActive.warehouse_id);

      await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${old.id}`,
        payload: { warehouse_id: warehouse.id },
      });
      const activate = await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${old.id}`,
        payload: { is_active: true, description: 'changed' },
      });
      expect(activate.statusCode).toBe(409);
      expect(await stored(old.id)).toMatchObject({ is_active: false, description: 'old' });
      expect((await stored(active.id)).is_active).toBe(true);
    });

    it('refuses invalid input with 400 and changes nothing', async () => {
      const checklist = await create(owner, {
        warehouse_id: (await warehouseOf(owner)).id,
        description: 'Keep',
        tasks: ['a'],
      });
      for (const payload of [
        { tasks: 'nope' },
        { description: 'x'.repeat(2001) },
        { is_active: 'maybe' },
        { tasks: [{ id: 999_999, text: 'not mine' }] },
        {
          tasks: [
            { id: checklist.tasks[0]!.id, text: 'a' },
            { id: checklist.tasks[0]!.id, text: 'a' },
          ],
        },
      ]) {
        const res = await owner.request({ method: 'PATCH', url: `/api/checklists/${checklist.id}`, payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()).toHaveProperty('errors');
      }
      expect(await stored(checklist.id)).toEqual(checklist);
    });

    it('answers 404 for another company’s checklist, for edits and answers alike', async () => {
      const theirs = await create(stranger, {
        warehouse_id: (await warehouseOf(stranger)).id,
        description: 'Theirs',
        tasks: ['x'],
      });
      const edit = await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${theirs.id}`,
        payload: { description: 'HACKED' },
      });
      expect(edit.statusCode).toBe(404);
      const answer = await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${theirs.id}`,
        payload: { filled_out_by: 'Mallory', tasks: theirs.tasks.map((t) => ({ ...t, completed: true })) },
      });
      expect(answer.statusCode).toBe(404);
      const list = (
        await stranger.request({ method: 'GET', url: '/api/checklists/' })
      ).json() as ChecklistDto[];
      expect(list.find((c) => c.id === theirs.id)).toMatchObject({
        description: 'Theirs',
        tasks: [{ completed: false }],
      });
    });

    it('a signed-in user can answer their company’s checklist from the fill-in page', async () => {
      const checklist = await create(owner, { warehouse_id: (await warehouseOf(owner)).id, tasks: ['a'] });
      const res = await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${checklist.id}`,
        payload: { filled_out_by: 'Office Olga', tasks: [{ ...checklist.tasks[0]!, completed: true }] },
      });
      expect(res.json()).toMatchObject({
        filled_out_by: 'Office Olga',
        tasks: [{ completed: true, completed_by: 'Office Olga' }],
      });
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIVE_CHECKLIST_EXISTS,
  type ChecklistDto,
  NAME_REQUIRED,
  REASON_TOO_SHORT,
  WAREHOUSE_REQUIRED,
} from '../../../domain/schemas/checklist.schema';
import { uniqueSuffix } from '../../db/factories';
import { type SignedIn, type TestContext, signIn, startTestApp, testEngines } from '../../test/test-app';
import { buildWarehouse } from '../warehouses/warehouses.factories';

describe.each(testEngines())('checklist routes on %s', (engine) => {
  let ctx: TestContext;
  let owner: SignedIn;
  let stranger: SignedIn;

  beforeAll(async () => {
    ctx = await startTestApp(engine);
    owner = await signIn(ctx);
    stranger = await signIn(ctx);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const warehouseOf = (user: SignedIn, name?: string) =>
    buildWarehouse(ctx.database.db, { companyId: user.companyId, name, rows: 1, cols: 1 });

  async function create(user: SignedIn, body: object): Promise<ChecklistDto> {
    const res = await user.request({ method: 'POST', url: '/api/checklists/', payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as ChecklistDto;
  }

  const publicGet = (name: string) =>
    ctx.app.inject({ method: 'GET', url: `/api/checklists/warehouse/${encodeURIComponent(name)}` });
  const publicPatch = (id: number | string, payload: object) =>
    ctx.app.inject({ method: 'PATCH', url: `/api/checklists/${id}`, payload });
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
      const res = await publicGet(name.toLowerCase().replace(/ /g, '-'));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: checklist.id,
        warehouseName: name,
        description: 'Daily',
        tasks: [{ text: 'Sweep' }],
      });
      expect((await publicGet(name.toUpperCase())).statusCode).toBe(200);
    });

    it('answers 404 when the warehouse has no active checklist or does not exist', async () => {
      const warehouse = await warehouseOf(owner, `Quiet ${uniqueSuffix()}`);
      expect((await publicGet(warehouse.slug)).statusCode).toBe(404);
      const checklist = await create(owner, { warehouse_id: warehouse.id, tasks: ['a'] });
      expect((await publicGet(warehouse.slug)).statusCode).toBe(200);
      await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${checklist.id}`,
        payload: { is_active: false },
      });
      const inactive = await publicGet(warehouse.slug);
      expect(inactive.statusCode).toBe(404);
      expect(inactive.json()).toHaveProperty('errors');
      expect((await publicGet(`no-such-warehouse-${uniqueSuffix()}`)).statusCode).toBe(404);
    });

    it('with one name in two companies: signed out gets 404, each signed-in company gets its own', async () => {
      const name = `Shared Depot ${uniqueSuffix()}`;
      const mine = await create(owner, {
        warehouse_id: (await warehouseOf(owner, name)).id,
        tasks: ['mine'],
      });
      const slug = name.toLowerCase().replace(/ /g, '-');
      expect((await publicGet(slug)).json()).toMatchObject({ id: mine.id });

      const theirs = await create(stranger, {
        warehouse_id: (await warehouseOf(stranger, name)).id,
        tasks: ['theirs'],
      });
      expect((await publicGet(slug)).statusCode).toBe(404);
      const url = `/api/checklists/warehouse/${slug}`;
      expect((await owner.request({ method: 'GET', url })).json()).toMatchObject({ id: mine.id });
      expect((await stranger.request({ method: 'GET', url })).json()).toMatchObject({ id: theirs.id });
    });
  });

  describe('PATCH /api/checklists/{id} signed out (answers only)', () => {
    async function activeChecklist(tasks = ['Sweep the floor', 'Empty the bins', 'Label shipments']) {
      const warehouse = await warehouseOf(owner);
      return create(owner, { warehouse_id: warehouse.id, description: 'Original description', tasks });
    }
    const answers = (checklist: ChecklistDto) => checklist.tasks.map((t) => ({ ...t }));

    it('Yes completes an open task with the filler, or with the named someone else, and a time', async () => {
      const checklist = await activeChecklist();
      const tasks = answers(checklist);
      tasks[0]!.completed = true;
      const res = await publicPatch(checklist.id, { tasks, filled_out_by: '  Maria  ' });
      expect(res.statusCode).toBe(200);
      const after = res.json() as ChecklistDto;
      expect(after.filled_out_by).toBe('Maria');
      expect(after.tasks[0]).toMatchObject({ completed: true, completed_by: 'Maria', reason: null });
      expect(Date.parse(after.tasks[0]!.completed_at!)).not.toBeNaN();
      expect(after.tasks[1]).toMatchObject({ completed: false, completed_by: null });

      const next = answers(after);
      next[1]!.completed = true;
      next[1]!.completed_by = 'Jo (night shift)';
      const second = (
        await publicPatch(checklist.id, { tasks: next, filled_out_by: 'Maria' })
      ).json() as ChecklistDto;
      expect(second.tasks[1]).toMatchObject({ completed: true, completed_by: 'Jo (night shift)' });
    });

    it('No keeps the task open with the reason, the filler and a time; a short reason is 400 and changes nothing', async () => {
      const checklist = await activeChecklist();
      const short = answers(checklist);
      short[1]!.reason = '  too short   ';
      const refused = await publicPatch(checklist.id, { tasks: short, filled_out_by: 'Maria' });
      expect(refused.statusCode).toBe(400);
      expect((refused.json() as { errors: string[] }).errors.join(' ')).toContain(REASON_TOO_SHORT);
      expect((await stored(checklist.id)).tasks[1]).toMatchObject({ reason: null, completed_at: null });

      const ok = answers(checklist);
      ok[1]!.reason = '  The broom is missing today  ';
      const res = await publicPatch(checklist.id, { tasks: ok, filled_out_by: 'Maria' });
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
        const res = await publicPatch(checklist.id, body);
        expect(res.statusCode).toBe(400);
        expect((res.json() as { errors: string[] }).errors.join(' ')).toContain(NAME_REQUIRED);
      }
      expect((await stored(checklist.id)).tasks[0]!.completed).toBe(false);
    });

    it('cannot change task texts, the description, the active flag or the warehouse, nor reopen a completed task', async () => {
      const checklist = await activeChecklist();
      const done = answers(checklist);
      done[0]!.completed = true;
      await publicPatch(checklist.id, { tasks: done, filled_out_by: 'Maria' });
      const before = await stored(checklist.id);

      const other = await warehouseOf(owner);
      const tampered = answers(before).map((t) => ({
        ...t,
        text: 'HACKED',
        completed: false,
        completed_by: null,
        reason: null,
      }));
      tampered.push({ ...tampered[1]!, id: 999_999, text: 'New task' });
      const res = await publicPatch(checklist.id, {
        tasks: tampered,
        filled_out_by: 'Mallory',
        description: 'HACKED',
        is_active: false,
        warehouse_id: other.id,
      });
      expect(res.statusCode).toBe(200);
      const after = await stored(checklist.id);
      expect(after).toEqual(before);
      expect(after.tasks[0]).toMatchObject({ completed: true, completed_by: 'Maria' });
    });

    it('cannot answer through another checklist: task ids of another checklist are ignored', async () => {
      const target = await activeChecklist();
      const mine = await activeChecklist();
      const foreign = answers(target).map((t) => ({ ...t, completed: true }));
      const res = await publicPatch(mine.id, { tasks: foreign, filled_out_by: 'Mallory' });
      expect(res.statusCode).toBe(200);
      expect((await stored(target.id)).tasks.every((t) => !t.completed)).toBe(true);
      expect((await stored(mine.id)).tasks.every((t) => !t.completed)).toBe(true);
    });

    it('answers 404 for an inactive, unknown or malformed checklist id', async () => {
      const checklist = await activeChecklist();
      await owner.request({
        method: 'PATCH',
        url: `/api/checklists/${checklist.id}`,
        payload: { is_active: false },
      });
      const tasks = answers(checklist);
      tasks[0]!.completed = true;
      expect((await publicPatch(checklist.id, { tasks, filled_out_by: 'Maria' })).statusCode).toBe(404);
      expect((await stored(checklist.id)).tasks[0]!.completed).toBe(false);
      expect((await publicPatch(987_654, { tasks, filled_out_by: 'Maria' })).statusCode).toBe(404);
      expect((await publicPatch('abc', { tasks, filled_out_by: 'Maria' })).statusCode).toBe(404);
    });

    it('a signed-out edit without a name is treated as an answer and refused', async () => {
      const checklist = await activeChecklist();
      const res = await publicPatch(checklist.id, { description: 'HACKED', tasks: [{ text: 'HACKED' }] });
      expect(res.statusCode).toBe(400);
      expect((await stored(checklist.id)).description).toBe('Original description');
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

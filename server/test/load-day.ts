import type { ChecklistDto } from '@domain/schemas/checklist.schema';
import type { RackDto } from '@domain/schemas/rack.schema';
import type { FieldDto, WarehouseDto, WarehouseSummaryDto } from '@domain/schemas/warehouse.schema';
import { fieldSlotCount, isCouchboxField, nextFreePosition, topmostPosition } from '@domain/rules/capacity';
import { signInCookie } from './server-process';

/**
 * A working day of many people in one company against a real server: they browse, place, move, stage and delete vaults,
 * handle pallets and answer checklist tasks, each retrying with fresh data when someone else got there first.
 * The report counts what happened and lists every server error, unexpected answer and lost or duplicated thing.
 */
export interface LoadDayOptions {
  baseUrl: string;
  email: string;
  password: string;
  users: number;
  durationMs: number;
  seed?: number;
}

export interface LoadDayReport {
  users: number;
  durationMs: number;
  requests: number;
  operations: Record<string, number>;
  /** answers of the server per status */
  statuses: Record<string, number>;
  /** refusals caused by another user's change at the same moment (409, a slot no longer next free, ...) */
  raceRefusals: number;
  retries: number;
  serverErrors: string[];
  networkErrors: string[];
  unexpected: string[];
  integrity: string[];
  vaults: { initial: number; final: number; added: number; deleted: number };
  pallets: { added: number; deleted: number };
}

interface Device {
  cookie: string;
  ip: string;
}

interface Answer {
  status: number;
  body: unknown;
}

const RETRIES = 4;
// what the server says when another user changed a field or shelf between this user's look and write
const RACE_REFUSALS = [
  /is not the next free slot|next free/i,
  /Only the topmost vault/,
  /already staged/,
  /Field is full/,
  /Shelf does not have enough space|run into another pallet/,
];

/** A small seeded generator, so a run's mix of work is the same each time. */
function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    pick<T>(items: readonly T[]): T | undefined {
      return items.length === 0 ? undefined : items[Math.floor(next() * items.length)];
    },
  };
}

type Random = ReturnType<typeof randomSource>;

class Day {
  readonly report: LoadDayReport;
  /** vault ids each acknowledged add created, and the ones an acknowledged delete removed */
  readonly addedVaults = new Set<number>();
  readonly deletedVaults = new Set<number>();
  readonly addedPallets = new Set<number>();
  readonly deletedPallets = new Set<number>();

  constructor(
    readonly baseUrl: string,
    options: LoadDayOptions,
  ) {
    this.report = {
      users: options.users,
      durationMs: options.durationMs,
      requests: 0,
      operations: {},
      statuses: {},
      raceRefusals: 0,
      retries: 0,
      serverErrors: [],
      networkErrors: [],
      unexpected: [],
      integrity: [],
      vaults: { initial: 0, final: 0, added: 0, deleted: 0 },
      pallets: { added: 0, deleted: 0 },
    };
  }

  async call(who: Device, method: string, path: string, payload?: unknown): Promise<Answer | null> {
    this.report.requests += 1;
    // each person works on their own tablet: the server (behind its proxy) tells them apart by address
    const headers: Record<string, string> = { cookie: who.cookie, 'x-forwarded-for': who.ip };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: payload === undefined ? undefined : JSON.stringify(payload),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: kept as text for the report
      }
      this.report.statuses[res.status] = (this.report.statuses[res.status] ?? 0) + 1;
      if (res.status >= 500)
        this.report.serverErrors.push(`${method} ${path} -> ${res.status} ${text.slice(0, 200)}`);
      return { status: res.status, body };
    } catch (error) {
      this.report.networkErrors.push(`${method} ${path}: ${(error as Error).message}`);
      return null;
    }
  }

  /** Checks an answer: the statuses a race may cause count as such; anything else not expected is reported. */
  judge(what: string, answer: Answer | null, ok: number[], races: number[] = []): 'ok' | 'race' | 'failed' {
    if (!answer) return 'failed';
    if (ok.includes(answer.status)) return 'ok';
    // a 400 is a race only when it says so (the slot or the topmost vault changed), never for a form it should take
    const message = JSON.stringify(answer.body);
    const raceWorded = answer.status !== 400 || RACE_REFUSALS.some((pattern) => pattern.test(message));
    if (races.includes(answer.status) && raceWorded) {
      this.report.raceRefusals += 1;
      return 'race';
    }
    if (answer.status < 500)
      this.report.unexpected.push(`${what} -> ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
    return 'failed';
  }

  count(operation: string) {
    this.report.operations[operation] = (this.report.operations[operation] ?? 0) + 1;
  }
}

/** Every vault of the company: placed ones by field and position, and staged ones. */
async function inventory(day: Day, cookie: Device, companyId: number) {
  const summaries = (await day.call(cookie, 'GET', `/api/warehouse/company/${companyId}`))!
    .body as WarehouseSummaryDto[];
  const placed = new Map<number, string>();
  const problems: string[] = [];
  const racks: RackDto[] = [];
  for (const summary of summaries) {
    const warehouse = (await day.call(cookie, 'GET', `/api/warehouse/${summary.id}`))!.body as WarehouseDto;
    // the list shows the counts the database keeps (migration 0005); the warehouse counts its vaults itself
    const held = Object.values(warehouse.fields).reduce((n, f) => n + Object.keys(f.vaults).length, 0);
    if (
      summary.stats.vaultCount !== held ||
      JSON.stringify(summary.stats) !== JSON.stringify(warehouse.stats)
    )
      problems.push(
        `${warehouse.name} keeps counts ${JSON.stringify(summary.stats)} but holds ${held} vaults, counted ${JSON.stringify(warehouse.stats)}`,
      );
    for (const field of Object.values(warehouse.fields)) {
      const slots = new Set<number>();
      for (const vault of Object.values(field.vaults)) {
        if (placed.has(vault.id)) problems.push(`vault ${vault.id} is in two places`);
        placed.set(vault.id, `${field.name}/${vault.position}`);
        if (slots.has(vault.position!))
          problems.push(`two vaults in ${warehouse.name} ${field.name} position ${vault.position}`);
        slots.add(vault.position!);
        const capacity = fieldSlotCount(field.type, warehouse.field_capacity);
        if (vault.position! < 1 || vault.position! > capacity)
          problems.push(`vault ${vault.id} at position ${vault.position} of ${field.name}`);
      }
    }
    racks.push(...((await day.call(cookie, 'GET', `/api/racks/warehouse/${summary.id}`))!.body as RackDto[]));
  }
  const staged = Object.values(
    (await day.call(cookie, 'GET', '/api/stage/vaults'))!.body as Record<string, { id: number }>,
  ).map((v) => v.id);
  for (const id of staged) if (placed.has(id)) problems.push(`vault ${id} is both placed and staged`);
  const pallets = new Set<number>();
  for (const rack of racks) {
    for (const shelf of rack.shelves) {
      const used = new Array<number>(shelf.capacity).fill(0);
      for (const pallet of shelf.pallets) {
        pallets.add(pallet.id);
        for (let slot = pallet.slotIndex; slot < pallet.slotIndex + pallet.shelfSpots; slot++) {
          if (slot < 0 || slot >= shelf.capacity)
            problems.push(`pallet ${pallet.id} runs past shelf ${shelf.id}`);
          else if ((used[slot] = (used[slot] ?? 0) + 1) > 1)
            problems.push(`two pallets on shelf ${shelf.id} slot ${slot}`);
        }
      }
    }
  }
  return { summaries, placed, staged: new Set(staged), pallets, problems };
}

/** The fields of a warehouse that take a vault now, with the slot each offers next. */
function openSlots(warehouse: WarehouseDto, vaultType = 'vault'): { field: FieldDto; position: number }[] {
  const slots: { field: FieldDto; position: number }[] = [];
  for (const field of Object.values(warehouse.fields)) {
    // a couchbox only goes into a couchbox field; other vaults into plain fields
    const fits = vaultType === 'couchbox' ? isCouchboxField(field.type) : field.type === 'vault';
    if (!fits || field.full) continue;
    const occupied = Object.values(field.vaults).map((v) => v.position!);
    const position = nextFreePosition(occupied, fieldSlotCount(field.type, warehouse.field_capacity));
    if (position !== null) slots.push({ field, position });
  }
  return slots;
}

class Worker {
  private serial = 0;
  private readonly myVaults: number[] = [];
  private readonly myPallets: number[] = [];

  constructor(
    private readonly day: Day,
    private readonly index: number,
    private readonly device: Device,
    private readonly companyId: number,
    private readonly warehouses: WarehouseSummaryDto[],
    private readonly checklistWarehouse: string | null,
    private readonly random: Random,
  ) {}

  private call(method: string, path: string, payload?: unknown) {
    return this.day.call(this.device, method, path, payload);
  }

  private warehouse() {
    return this.random.pick(this.warehouses)!;
  }

  private async openWarehouse(id: number): Promise<WarehouseDto | null> {
    const answer = await this.call('GET', `/api/warehouse/${id}`);
    return this.day.judge('open warehouse', answer, [200]) === 'ok' ? (answer!.body as WarehouseDto) : null;
  }

  async run(until: number) {
    const work: [number, () => Promise<void>][] = [
      [8, () => this.browse()],
      [12, () => this.openAWarehouse()],
      [8, () => this.openField()],
      [12, () => this.addVault()],
      [10, () => this.moveStaged()],
      [10, () => this.stageTopmost()],
      [9, () => this.deleteOwnVault()],
      [6, () => this.search()],
      [5, () => this.addPallet()],
      [4, () => this.editPallet()],
      [3, () => this.deletePallet()],
      [4, () => this.answerChecklist()],
    ];
    const total = work.reduce((sum, [weight]) => sum + weight, 0);
    while (Date.now() < until) {
      let roll = this.random.next() * total;
      const [, task] = work.find(([weight]) => (roll -= weight) < 0) ?? work[0]!;
      await task();
    }
  }

  private async browse() {
    this.day.count('browse dashboard');
    this.day.judge('dashboard', await this.call('GET', `/api/warehouse/company/${this.companyId}`), [200]);
  }

  private async openAWarehouse() {
    this.day.count('open warehouse');
    await this.openWarehouse(this.warehouse().id);
  }

  private async openField() {
    this.day.count('open field');
    const warehouse = await this.openWarehouse(this.warehouse().id);
    const field = warehouse && this.random.pick(Object.values(warehouse.fields));
    if (field)
      this.day.judge(
        'open field',
        await this.call('GET', `/api/warehouse/${warehouse.id}/${field.id}`),
        [200],
      );
  }

  private async search() {
    this.day.count('search');
    this.day.judge('search', await this.call('GET', '/api/vaults/all'), [200]);
  }

  private async addVault() {
    this.day.count('add vault');
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      if (attempt > 0) this.day.report.retries += 1;
      const warehouse = await this.openWarehouse(this.warehouse().id);
      const slot = warehouse && this.random.pick(openSlots(warehouse));
      if (!slot) return;
      this.serial += 1;
      const answer = await this.call('POST', '/api/vaults/', {
        vault_id: `L${this.index}-${this.serial}`,
        customer_name: `LOAD CUSTOMER ${this.serial % 12}`,
        order_name: `L-${this.index}`,
        type: 'vault',
        field_id: slot.field.id,
        position: slot.position,
      });
      // a slot taken meanwhile is a 409; one that stopped being the next free (a vault left above it) a 400
      const verdict = this.day.judge('add vault', answer, [201], [409, 400]);
      if (verdict === 'ok') {
        const id = (answer!.body as { id: number }).id;
        this.day.addedVaults.add(id);
        this.day.report.vaults.added += 1;
        this.myVaults.push(id);
      }
      if (verdict !== 'race') return;
    }
  }

  private async moveStaged() {
    this.day.count('move staged vault');
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      if (attempt > 0) this.day.report.retries += 1;
      const staged = await this.call('GET', '/api/stage/vaults');
      if (this.day.judge('stage list', staged, [200]) !== 'ok') return;
      const vault = this.random.pick(
        Object.values(staged!.body as Record<string, { id: number; type: string }>),
      );
      const warehouse = vault && (await this.openWarehouse(this.warehouse().id));
      const slot = warehouse && this.random.pick(openSlots(warehouse, vault.type));
      if (!vault || !slot) return;
      const answer = await this.call('PUT', '/api/vaults/move', {
        vaultId: vault.id,
        fieldId: slot.field.id,
        position: slot.position,
      });
      // someone else may have placed, deleted or taken the slot first
      if (this.day.judge('move vault', answer, [200], [409, 400, 404]) !== 'race') return;
    }
  }

  private async stageTopmost() {
    this.day.count('stage topmost vault');
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      if (attempt > 0) this.day.report.retries += 1;
      const warehouse = await this.openWarehouse(this.warehouse().id);
      const field =
        warehouse &&
        this.random.pick(Object.values(warehouse.fields).filter((f) => Object.keys(f.vaults).length > 0));
      if (!field) return;
      const vaults = Object.values(field.vaults);
      const top = topmostPosition(vaults.map((v) => v.position!));
      const vault = vaults.find((v) => v.position === top)!;
      const answer = await this.call('POST', `/api/stage/vaults/${vault.id}`);
      // another user may have staged it, placed one above it or deleted it
      if (this.day.judge('stage vault', answer, [200], [409, 400, 404]) !== 'race') return;
    }
  }

  private async deleteOwnVault() {
    this.day.count('delete own vault');
    const id = this.myVaults.pop();
    if (id === undefined) return;
    // only this user deletes its vaults: a 404 here means a vault was lost
    let answer = await this.call('DELETE', `/api/vaults/${id}`);
    // a move or stage of the same vault at that moment is a 409: try again
    for (let attempt = 0; answer?.status === 409 && attempt < RETRIES; attempt++) {
      this.day.report.retries += 1;
      answer = await this.call('DELETE', `/api/vaults/${id}`);
    }
    if (this.day.judge('delete vault', answer, [200]) === 'ok') {
      this.day.deletedVaults.add(id);
      this.day.report.vaults.deleted += 1;
    }
  }

  private async racks(): Promise<RackDto[]> {
    const answer = await this.call('GET', `/api/racks/warehouse/${this.warehouse().id}`);
    return this.day.judge('racks', answer, [200]) === 'ok' ? (answer!.body as RackDto[]) : [];
  }

  private async addPallet() {
    this.day.count('add pallet');
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      if (attempt > 0) this.day.report.retries += 1;
      const shelves = (await this.racks())
        .flatMap((r) => r.shelves)
        .filter((s) => s.pallets.reduce((n, p) => n + p.shelfSpots, 0) < s.capacity);
      const shelf = this.random.pick(shelves);
      if (!shelf) return;
      this.serial += 1;
      const answer = await this.call('POST', '/api/racks/pallets', {
        shelf_id: shelf.id,
        customer_name: `LOAD CUSTOMER ${this.serial % 12}`,
        name: `P${this.index}-${this.serial}`,
        shelf_spots: 1,
      });
      // the last free slot may have gone to someone else
      const verdict = this.day.judge('add pallet', answer, [201], [409, 400]);
      if (verdict === 'ok') {
        const id = (answer!.body as { id: number }).id;
        this.day.addedPallets.add(id);
        this.day.report.pallets.added += 1;
        this.myPallets.push(id);
      }
      if (verdict !== 'race') return;
    }
  }

  private async editPallet() {
    this.day.count('edit pallet');
    const id = this.random.pick(this.myPallets);
    if (id === undefined) return;
    this.serial += 1;
    const answer = await this.call('PUT', `/api/racks/pallets/${id}/edit`, {
      customer_name: `LOAD CUSTOMER ${(this.serial * 5) % 12}`,
      notes: `edit ${this.serial}`,
    });
    this.day.judge('edit pallet', answer, [200], [409]);
  }

  private async deletePallet() {
    this.day.count('delete pallet');
    const id = this.myPallets.pop();
    if (id === undefined) return;
    if (
      this.day.judge('delete pallet', await this.call('DELETE', `/api/pallets/${id}/delete`), [200]) === 'ok'
    ) {
      this.day.deletedPallets.add(id);
      this.day.report.pallets.deleted += 1;
    }
  }

  private async answerChecklist() {
    this.day.count('answer checklist task');
    if (!this.checklistWarehouse) return;
    const found = await this.call(
      'GET',
      `/api/checklists/warehouse/${encodeURIComponent(this.checklistWarehouse)}`,
    );
    if (this.day.judge('checklist', found, [200]) !== 'ok') return;
    const checklist = found!.body as ChecklistDto;
    const task = this.random.pick(checklist.tasks.filter((t) => !t.completed));
    if (!task) return;
    // mostly a No with a reason, so the list keeps open tasks for the rest of the day
    const yes = this.random.next() < 0.2;
    const answer = await this.call('PATCH', `/api/checklists/${checklist.id}`, {
      filled_out_by: `Worker ${this.index}`,
      tasks: [
        yes
          ? { id: task.id, completed: true }
          : { id: task.id, completed: false, reason: `Not yet, round ${this.serial} is busy` },
      ],
    });
    this.day.judge('answer checklist', answer, [200]);
  }
}

export async function runLoadDay(options: LoadDayOptions): Promise<LoadDayReport> {
  const day = new Day(options.baseUrl, options);
  const devices: Device[] = [];
  for (let i = 0; i < options.users; i++) {
    devices.push({
      cookie: await signInCookie(options.baseUrl, options.email, options.password),
      ip: `10.20.${Math.floor(i / 250)}.${(i % 250) + 1}`,
    });
  }
  const me = (await day.call(devices[0]!, 'GET', '/api/auth/'))!.body as { companyId: number };
  const before = await inventory(day, devices[0]!, me.companyId);
  day.report.integrity.push(...before.problems.map((p) => `before the day: ${p}`));
  day.report.vaults.initial = before.placed.size + before.staged.size;
  const checklists = (await day.call(devices[0]!, 'GET', '/api/checklists/'))!.body as ChecklistDto[];
  const checklistWarehouse = checklists.find((c) => c.is_active)?.warehouseName ?? null;

  const seed = options.seed ?? 7;
  const until = Date.now() + options.durationMs;
  await Promise.all(
    devices.map((device, i) =>
      new Worker(
        day,
        i,
        device,
        me.companyId,
        before.summaries,
        checklistWarehouse,
        randomSource(seed * 1_000 + i),
      ).run(until),
    ),
  );

  const after = await inventory(day, devices[0]!, me.companyId);
  const integrity = day.report.integrity;
  integrity.push(...after.problems);
  day.report.vaults.final = after.placed.size + after.staged.size;
  const expected = day.report.vaults.initial + day.report.vaults.added - day.report.vaults.deleted;
  if (day.report.vaults.final !== expected)
    integrity.push(`${day.report.vaults.final} vaults at the end, expected ${expected}`);
  for (const id of day.addedVaults) {
    const present = after.placed.has(id) || after.staged.has(id);
    if (present === day.deletedVaults.has(id))
      integrity.push(`vault ${id} ${present ? 'survived its delete' : 'was added and is gone'}`);
  }
  for (const id of day.addedPallets) {
    const present = after.pallets.has(id);
    if (present === day.deletedPallets.has(id))
      integrity.push(`pallet ${id} ${present ? 'survived its delete' : 'was added and is gone'}`);
  }
  return day.report;
}

/** One line per figure, for a person reading the run. */
export function describeLoadDay(label: string, report: LoadDayReport): string {
  const ops = Object.entries(report.operations)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([op, n]) => `${op} ${n}`)
    .join(', ');
  const statuses = Object.entries(report.statuses)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
  return [
    `${label}: ${report.users} users for ${report.durationMs / 1000} s, ${report.requests} requests (${statuses})`,
    `  operations: ${ops}`,
    `  vaults ${report.vaults.initial} -> ${report.vaults.final} (added ${report.vaults.added}, deleted ${report.vaults.deleted}); pallets added ${report.pallets.added}, deleted ${report.pallets.deleted}`,
    `  refusals from races ${report.raceRefusals}, retries ${report.retries}; server errors ${report.serverErrors.length}, network errors ${report.networkErrors.length}, unexpected ${report.unexpected.length}, integrity problems ${report.integrity.length}`,
  ].join('\n');
}

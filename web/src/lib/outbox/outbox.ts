/**
 * The outbox of floor intents (issue 30, decision 043): changes made while the server cannot be reached are kept on
 * the tablet as intents (what was meant, with the place it was decided on), not as raw requests to replay blindly.
 * Each carries an idempotency key, so sending it again after a lost answer applies it once, and a basis, so the server
 * refuses it when the vault has moved meanwhile. The queue lives behind a small storage interface: IndexedDB in the
 * browser (`idb-store.ts`), memory in the unit tests.
 */

/**
 * What the floor queues: one entry per kind of change (a new kind, such as a load-out's scan, is one more entry; the
 * queue treats them all alike). Each names what it is about (`vaultId`, `scope`) for the marks and the guards.
 */
export const INTENT_KINDS = [
  /** a vault added into a field (basis: the slot that was free) */
  'add',
  /** a vault taken off its field into the stage (basis: where it stood) */
  'stage',
  /** a vault moved: put back from the stage into a field, or from field to field (basis: where it stood) */
  'move',
  /** a label scanned in a running warehouse check (basis: the field being checked) */
  'check-scan',
  /** a vault scanned onto a load-out */
  'load-out-scan',
  /**
   * a shipment received into the fields chosen on this tablet (basis: each vault's field; the server takes that
   * field's next free slot, or refuses when it has none)
   */
  'receiving',
  /** a checklist's answers for a day */
  'checklist-answer',
] as const;
export type IntentKind = (typeof INTENT_KINDS)[number];

export interface Intent {
  /** the Idempotency-Key, made once when the change is made and kept through every try */
  key: string;
  /** order of making: replayed oldest first */
  seq: number;
  kind: IntentKind;
  /** what a person reads in the lists: "Stage vault V-1" */
  label: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body: Record<string, unknown>;
  /**
   * a file sent with the change (an add's attachment): its bytes are kept in the same row, so the change is sent again
   * as the same multipart form, and they leave the tablet with the row (sent or discarded)
   */
  file?: IntentFile;
  /** slots this change takes in fields, as the tablet decided them: shown held in the field panels until it is sent */
  holds?: SlotHold[];
  /** the vault it is about, for the 'not synced' marks */
  vaultId?: number;
  /**
   * what it belongs to, such as `check:12` or `load-out:3`: a check or a load-out cannot be finished while this tablet
   * still has queued changes for it (`queuedFor`)
   */
  scope?: string;
  createdAt: string;
  /** waiting to be sent, or refused by the server and waiting for a person (Retry or Discard) */
  state: 'waiting' | 'attention';
  /** the server's reason, for an intent that needs attention */
  messages?: string[];
}

export interface IntentFile {
  /** the form field it travels in */
  field: string;
  name: string;
  blob: Blob;
}

export interface SlotHold {
  fieldId: number;
  position: number;
  /** what the panel says of it: "vault V-1 received" */
  label: string;
}

/**
 * The slots a field's queued changes hold on this tablet: an add names its slot; a received shipment lists the slots
 * the tablet proposed. Refused ones hold theirs too, until Retry or Discard.
 */
export function queuedHolds(intents: readonly Intent[], fieldId: number): Map<number, string> {
  const held = new Map<number, string>();
  for (const intent of intents) {
    if (intent.kind === 'add' && intent.body.field_id === fieldId && typeof intent.body.position === 'number')
      held.set(
        intent.body.position,
        `vault ${String(intent.body.vault_id || intent.body.customer_name)} added`,
      );
    for (const hold of intent.holds ?? []) if (hold.fieldId === fieldId) held.set(hold.position, hold.label);
  }
  return held;
}

/**
 * The multipart form of an intent with a file: its body's values as text fields (as the web's forms send them), then
 * the file. Built the same way for the first send and every replay, so the server reads the same change each time.
 */
export function intentForm(intent: Pick<Intent, 'body' | 'file'>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(intent.body)) {
    if (value === undefined || value === null) continue;
    form.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  if (intent.file) form.set(intent.file.field, intent.file.blob, intent.file.name);
  return form;
}

/**
 * Every slot of a field this tablet's queued changes will fill: the held slots, and the targets of queued moves (the
 * tablet's own slot proposals must not offer them again).
 */
export function takenByQueue(intents: readonly Intent[], fieldId: number): number[] {
  const moves = intents.flatMap((intent) =>
    intent.kind === 'move' && intent.body.fieldId === fieldId && typeof intent.body.position === 'number'
      ? [intent.body.position]
      : [],
  );
  return [...new Set([...queuedHolds(intents, fieldId).keys(), ...moves])];
}

export interface OutboxStore {
  all(): Promise<Intent[]>;
  put(intent: Intent): Promise<void>;
  remove(key: string): Promise<void>;
}

/** What one try of an intent came to. */
export type SendOutcome =
  | { kind: 'applied' }
  /** the server answered with a refusal (4xx): the intent cannot be applied as it is */
  | { kind: 'refused'; messages: string[] }
  /** no answer, or one that says try later (5xx): kept, tried again later */
  | { kind: 'unreachable' };

export type Send = (intent: Intent) => Promise<SendOutcome>;

export interface ReplayResult {
  applied: Intent[];
  refused: Intent[];
  /** stopped early because the server could not be reached */
  interrupted: boolean;
}

export const byOrder = (a: Intent, b: Intent) => a.seq - b.seq;

export class Outbox {
  private intents: Intent[] = [];
  private loaded: Promise<void> | undefined;
  private running: Promise<ReplayResult> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly store: OutboxStore,
    private readonly send: Send,
    private readonly newKey: () => string = () => crypto.randomUUID(),
  ) {}

  /** Reads what the store kept (after a reload, a closed tab or a restart). */
  load(): Promise<void> {
    this.loaded ??= this.store.all().then((kept) => {
      this.intents = [...kept].sort(byOrder);
      this.changed();
    });
    return this.loaded;
  }

  /** Every intent, oldest first. */
  list(): readonly Intent[] {
    return this.intents;
  }

  waiting(): Intent[] {
    return this.intents.filter((i) => i.state === 'waiting');
  }

  needingAttention(): Intent[] {
    return this.intents.filter((i) => i.state === 'attention');
  }

  /** The intents of a scope not yet on the server (waiting or refused): the guard on finishing a check. */
  queuedFor(scope: string): Intent[] {
    return this.intents.filter((i) => i.scope === scope);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A key for a change about to be sent: the same key goes into the queue if the send gets no answer. */
  makeKey(): string {
    return this.newKey();
  }

  /** Queues a change (stored before this resolves, so a reload keeps it). */
  async enqueue(
    intent: Omit<Intent, 'seq' | 'state' | 'createdAt' | 'key'> & { key?: string },
  ): Promise<Intent> {
    await this.load();
    const last = this.intents.at(-1)?.seq ?? 0;
    const queued: Intent = {
      ...intent,
      key: intent.key ?? this.newKey(),
      seq: Math.max(last, Date.now()) + 1,
      state: 'waiting',
      createdAt: new Date().toISOString(),
    };
    await this.store.put(queued);
    this.intents = [...this.intents, queued];
    this.changed();
    return queued;
  }

  /**
   * Sends the waiting intents in the order they were made, one at a time. An applied one leaves the queue; a refused
   * one is set aside for a person with the server's reason, and the next is tried; no answer stops the round and
   * keeps the rest for the next one. Only one round runs at a time.
   */
  replay(): Promise<ReplayResult> {
    this.running ??= this.round().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async round(): Promise<ReplayResult> {
    await this.load();
    const result: ReplayResult = { applied: [], refused: [], interrupted: false };
    for (const intent of this.waiting()) {
      // discarded while the round ran
      if (!this.intents.some((i) => i.key === intent.key)) continue;
      const outcome = await this.send(intent);
      if (outcome.kind === 'unreachable') {
        result.interrupted = true;
        break;
      }
      if (outcome.kind === 'applied') {
        await this.store.remove(intent.key);
        this.intents = this.intents.filter((i) => i.key !== intent.key);
        result.applied.push(intent);
      } else {
        const set: Intent = { ...intent, state: 'attention', messages: outcome.messages };
        await this.store.put(set);
        this.intents = this.intents.map((i) => (i.key === intent.key ? set : i));
        result.refused.push(set);
      }
      this.changed();
    }
    return result;
  }

  /** Retry as it is now: back in the queue at its place, with its key (a refusal was never kept by the server). */
  async retry(key: string): Promise<void> {
    const intent = this.intents.find((i) => i.key === key);
    if (!intent) return;
    const again: Intent = { ...intent, state: 'waiting', messages: undefined };
    await this.store.put(again);
    this.intents = this.intents.map((i) => (i.key === key ? again : i));
    this.changed();
  }

  /** Drops an intent for good (a person decided so). */
  async discard(key: string): Promise<void> {
    await this.store.remove(key);
    this.intents = this.intents.filter((i) => i.key !== key);
    this.changed();
  }

  private changed() {
    for (const listener of this.listeners) listener();
  }
}

/** A store in memory: for the unit tests, and where IndexedDB is not available. */
export function memoryStore(initial: Intent[] = []): OutboxStore & { rows: Map<string, Intent> } {
  const rows = new Map(initial.map((i) => [i.key, i]));
  return {
    rows,
    all: async () => [...rows.values()],
    put: async (intent) => {
      rows.set(intent.key, structuredClone(intent));
    },
    remove: async (key) => {
      rows.delete(key);
    },
  };
}

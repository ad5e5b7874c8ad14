import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '@domain/rules/capacity';
import { DEMO_LOGIN, seedDemoIfEmpty } from '../demo-seed';
import { buildAccount, buildStagedVault, buildVault, buildWarehouse } from '../factories';
import { insertAttachment } from '../features/vaults/attachments.repo';
import { companyFileFolder, refusal, sha256 } from '../test/company-file-exports';
import { findInvariantViolations } from '../test/invariants.repo';
import { type TestContext, startTestApp, testEngines } from '../test/test-app';
import { useTestApp } from '../test/use-test-app';
import { MANIFEST, tableMember } from './company-archive';
import { checkCompanyFile, importCompanyFile } from './company-file';
import { exportCompany, importCompany } from './company-transfer';
import type { Db } from '../db/database';

const { dir, exportTo } = companyFileFolder('company-file-test');

/** Random bytes of an attachment (random, so that no compression or repetition hides a lost byte). */
const bytes = (length: number) => crypto.randomBytes(length);

/** A company of every kind of row: the demo company, a staged vault, and attachments of the given sizes. */
async function companyWithAttachments(db: Db, sizes: number[]) {
  const account = await buildAccount(db);
  const warehouse = await buildWarehouse(db, { companyId: account.companyId });
  const vault = await buildVault(db, { companyId: account.companyId, fieldId: warehouse.field('A1').id });
  await buildStagedVault(db, { companyId: account.companyId });
  const contents = sizes.map(bytes);
  for (const [index, content] of contents.entries())
    await insertAttachment(db, {
      companyId: account.companyId,
      vaultId: vault.id,
      fileName: `scan-${index + 1}.pdf`,
      contentType: 'application/pdf',
      content,
    });
  return { account, contents };
}

async function companyNames(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('companies').select('name').orderBy('id').execute();
  return rows.map((r) => r.name);
}

describe.each(testEngines())('the company file on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });
  const { ctx: target } = useTestApp(engine, { users: 0 });

  it('exports and imports two 4 MB attachments and one at the 5 MB limit, every byte equal', async () => {
    const { account, contents } = await companyWithAttachments(ctx.database.db, [
      4 * 1024 * 1024,
      4 * 1024 * 1024,
      MAX_UPLOAD_BYTES,
    ]);
    const file = await exportTo(ctx.database.db, account.companyName);
    const { companyId } = await importCompanyFile(target.database.db, file);
    const moved = await target.database.db
      .selectFrom('attachments')
      .select(['file_name', 'size', 'content'])
      .where('company_id', '=', companyId)
      .orderBy('id')
      .execute();
    expect(moved.map((a) => a.size)).toEqual(contents.map((c) => c.length));
    for (const [index, content] of contents.entries())
      expect(Buffer.compare(Buffer.from(moved[index]!.content), content)).toBe(0);
    // the same data gives the same file, byte for byte
    expect(sha256(await exportTo(target.database.db, account.companyName))).toBe(sha256(file));
  });

  it('still takes a company of the older JSON format with 4 MB attachments (no stack overflow in its check)', async () => {
    const { account, contents } = await companyWithAttachments(ctx.database.db, [
      4 * 1024 * 1024,
      4 * 1024 * 1024,
    ]);
    const json = await exportCompany(ctx.database.db, account.companyName);
    await ctx.database.db.deleteFrom('companies').where('id', '=', account.companyId).execute();
    const { companyId } = await importCompany(ctx.database.db, JSON.parse(JSON.stringify(json)));
    const moved = await ctx.database.db
      .selectFrom('attachments')
      .select('content')
      .where('company_id', '=', companyId)
      .orderBy('id')
      .execute();
    expect(moved.map((a) => Buffer.from(a.content).equals(contents[moved.indexOf(a)]!))).toEqual([
      true,
      true,
    ]);
  });
});

describe('moving a company SQLite -> PostgreSQL -> SQLite with the company file', () => {
  const contexts: TestContext[] = [];
  afterAll(async () => {
    for (const ctx of contexts) await ctx.close();
  });

  it('keeps every row and every byte', async () => {
    const source = await startTestApp('sqlite');
    contexts.push(source);
    await seedDemoIfEmpty(source.database.db);
    const demo = await source.database.db
      .selectFrom('companies')
      .select('id')
      .where('name', '=', DEMO_LOGIN.company)
      .executeTakeFirstOrThrow();
    const vault = await source.database.db
      .selectFrom('vaults')
      .select('id')
      .where('company_id', '=', demo.id)
      .executeTakeFirstOrThrow();
    for (const size of [0, 1, 1000, 300_000])
      await insertAttachment(source.database.db, {
        companyId: demo.id,
        vaultId: vault.id,
        fileName: `photo ${size}.jpg`,
        contentType: 'image/jpeg',
        content: bytes(size),
      });
    const original = await exportCompany(source.database.db, DEMO_LOGIN.company);
    let file = await exportTo(source.database.db, DEMO_LOGIN.company);
    const first = sha256(file);
    for (const engine of [...testEngines().filter((e) => e === 'postgres'), 'sqlite' as const]) {
      const next = await startTestApp(engine);
      contexts.push(next);
      const { rows, companyId } = await importCompanyFile(next.database.db, file);
      expect(rows).toBe(Object.values(original.tables).reduce((sum, r) => sum + r.length, 0));
      // the warehouses' kept counts, counted once at the end on PostgreSQL (its row triggers are off meanwhile)
      expect(await findInvariantViolations(next.database.db, companyId)).toEqual([]);
      file = await exportTo(next.database.db, DEMO_LOGIN.company);
      expect(sha256(file)).toBe(first);
      expect(await exportCompany(next.database.db, DEMO_LOGIN.company)).toEqual(original);
    }
  });
});

/** A copy of the archive with one member's bytes changed by `change` (same length, so the tar stays readable). */
function withMemberChanged(file: string, member: string, change: (content: Buffer) => void): string {
  const data = Buffer.from(fs.readFileSync(file));
  let offset = 0;
  while (offset + 512 <= data.length) {
    const name = data
      .subarray(offset, offset + 100)
      .toString('latin1')
      .replace(/\0.*$/s, '');
    const size = parseInt(
      data
        .subarray(offset + 124, offset + 136)
        .toString('latin1')
        .trim(),
      8,
    );
    if (name === member) {
      change(data.subarray(offset + 512, offset + 512 + size));
      const out = `${file}.changed-${crypto.randomBytes(3).toString('hex')}`;
      fs.writeFileSync(out, data);
      return out;
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`no member ${member} in ${file}`);
}

/** A copy of the archive without one member (its header and bytes cut out). */
function withoutMember(file: string, member: string): string {
  const data = fs.readFileSync(file);
  let offset = 0;
  while (offset + 512 <= data.length) {
    const name = data
      .subarray(offset, offset + 100)
      .toString('latin1')
      .replace(/\0.*$/s, '');
    const size = parseInt(
      data
        .subarray(offset + 124, offset + 136)
        .toString('latin1')
        .trim(),
      8,
    );
    const end = offset + 512 + Math.ceil(size / 512) * 512;
    if (name === member) {
      const out = `${file}.without-${crypto.randomBytes(3).toString('hex')}`;
      fs.writeFileSync(out, Buffer.concat([data.subarray(0, offset), data.subarray(end)]));
      return out;
    }
    offset = end;
  }
  throw new Error(`no member ${member} in ${file}`);
}

describe.each(testEngines())('a damaged company file on %s', (engine) => {
  const { ctx } = useTestApp(engine, { users: 0 });
  const { ctx: target } = useTestApp(engine, { users: 0 });
  let file: string;
  beforeAll(async () => {
    const { account } = await companyWithAttachments(ctx.database.db, [2000, 3000]);
    file = await exportTo(ctx.database.db, account.companyName);
  });

  /** the refusal's lines, after checking that the target database still has no company at all */
  async function refused(damaged: string): Promise<string[]> {
    const lines = await refusal(importCompanyFile(target.database.db, damaged));
    expect(await companyNames(target.database.db)).toEqual([]);
    expect(await target.database.db.selectFrom('users').select('id').execute()).toEqual([]);
    return lines;
  }

  it('is taken whole (the damaged copies below fail only for what they change)', async () => {
    expect((await checkCompanyFile(file)).problems).toEqual([]);
  });

  it('refuses a changed byte in a member, naming the member', async () => {
    const damaged = withMemberChanged(file, 'attachments/2', (content) => {
      content[100] = content[100]! ^ 0xff;
    });
    const lines = await refused(damaged);
    expect(lines[0]).toBe('The file was refused and nothing was written (1 problem):');
    expect(lines[1]).toMatch(
      /^1\. attachments\/2: damaged \(its SHA-256 is [0-9a-f]{64} over 3000 bytes, the manifest says/,
    );
  });

  it('refuses a changed byte in a table, naming the member and the line', async () => {
    const damaged = withMemberChanged(file, tableMember('vaults'), (content) => {
      const at = content.indexOf('"version":1');
      content[at + 10] = '7'.charCodeAt(0);
    });
    const lines = await refused(damaged);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^1\. tables\/vaults\.ndjson: damaged \(its SHA-256 is/);
  });

  it('refuses a file without a member the manifest lists', async () => {
    const lines = await refused(withoutMember(file, 'attachments/1'));
    expect(lines.slice(1)).toEqual([
      '1. attachments/1: missing from the archive (the manifest lists it)',
      '2. attachments/1: missing from the archive (row id 1 of tables/attachments.ndjson names it)',
    ]);
    const noManifest = await refused(withoutMember(file, MANIFEST));
    expect(noManifest.slice(1)).toEqual([
      '1. manifest.json is missing (the file is cut short, or it is not a company file)',
    ]);
  });

  it('refuses a truncated archive, naming the member it ends in', async () => {
    const truncated = `${file}.truncated`;
    const whole = fs.readFileSync(file);
    const cut = whole.indexOf('attachments/2') + 512 + 1000;
    fs.writeFileSync(truncated, whole.subarray(0, cut));
    const lines = await refused(truncated);
    expect(lines.slice(1)).toEqual([
      '1. The file is damaged: the archive ends in the middle of member attachments/2 (the file is cut short).',
    ]);
  });

  it('refuses a row referring to a missing row, by member and line, even with a manifest to match', async () => {
    // the row and its hash in the manifest both changed, as a hand-edited file would be
    const data = fs.readFileSync(file);
    const vaults = tableMember('vaults');
    const start = data.indexOf(`"customer_id":1,`, data.indexOf(vaults));
    const edited = Buffer.from(data);
    edited.write(`"customer_id":9,`, start, 'latin1');
    const damaged = `${file}.edited`;
    fs.writeFileSync(damaged, edited);
    const lines = await refused(damaged);
    expect(lines).toContain(
      '1. tables/vaults.ndjson line 1 (id 1): customer_id 9 matches no customers row of the file',
    );
    expect(lines.find((l) => l.includes('tables/vaults.ndjson: damaged'))).toBeDefined();
  });

  it('refuses what is no archive at all', async () => {
    const text = path.join(dir, 'not-a-company.tar');
    fs.writeFileSync(text, 'hello '.repeat(200));
    expect(await refused(text)).toEqual([
      'The file was refused and nothing was written (1 problem):',
      '1. The file is damaged: the file is not a company file (no tar archive).',
    ]);
  });
});

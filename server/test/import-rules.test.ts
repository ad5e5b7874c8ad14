import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

// The import rules of decision 015 are enforced by lint; these probes prove the rules still fire on .ts files.
const probeDir = path.resolve('server', `.import-probe-${process.pid}`);

async function lintProbe(files: Record<string, string>): Promise<string[]> {
  await mkdir(probeDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(probeDir, name), text);
  const eslint = new ESLint({ cwd: process.cwd() });
  const results = await eslint.lintFiles(Object.keys(files).map((name) => path.join(probeDir, name)));
  return results.flatMap((result) => result.messages.map((message) => message.ruleId ?? message.message));
}

afterAll(() => rm(probeDir, { recursive: true, force: true }));

describe('import rules', () => {
  it('fails lint on a runtime import cycle between TypeScript files', async () => {
    const rules = await lintProbe({
      'cycle-a.ts': "import { b } from './cycle-b';\nexport const a = (): unknown => b;\n",
      'cycle-b.ts': "import { a } from './cycle-a';\nexport const b = (): unknown => a;\n",
    });
    expect(rules.filter((rule) => rule === 'import-x/no-cycle')).toHaveLength(2);
  });

  it('lets type-only imports form a loop, since they vanish at run time', async () => {
    const rules = await lintProbe({
      'type-a.ts': "import type { B } from './type-b';\nexport type A = { b?: B };\n",
      'type-b.ts': "import type { A } from './type-a';\nexport type B = { a?: A };\n",
    });
    expect(rules).not.toContain('import-x/no-cycle');
  });

  // A probe beside the real core files (never written to disk): lint resolves its imports from the path it is given.
  async function lintInCore(feature: string, text: string): Promise<string[]> {
    const eslint = new ESLint({ cwd: process.cwd() });
    const filePath = path.resolve('server', 'features', feature, `direction-probe-${process.pid}.ts`);
    const [result] = await eslint.lintText(text, { filePath });
    return result!.messages.map((message) => message.ruleId ?? message.message);
  }

  it('fails lint when the core imports against warehouses -> fields -> vaults', async () => {
    const upward = [
      [
        'warehouses',
        "import { addVault } from '../vaults/vaults.service';\nexport const probe = addVault;\n",
      ],
      [
        'warehouses',
        "import { changeFieldFull } from '../fields/fields.service';\nexport const probe = changeFieldFull;\n",
      ],
      ['fields', "import { moveVault } from '../vaults/vault-move';\nexport const probe = moveVault;\n"],
    ] as const;
    for (const [feature, text] of upward) {
      expect(await lintInCore(feature, text), `${feature}: ${text}`).toContain(
        'import-x/no-restricted-paths',
      );
    }
  });

  it('lets the core import downward, and read any core table through its repository', async () => {
    const allowed = [
      [
        'vaults',
        "import { changeFieldFull } from '../fields/fields.service';\nexport const probe = changeFieldFull;\n",
      ],
      [
        'fields',
        "import { lockWarehouseLayout } from '../warehouses/warehouse-access';\nexport const probe = lockWarehouseLayout;\n",
      ],
      [
        'warehouses',
        "import { findVaultsOfWarehouse } from '../vaults/vaults.repo';\nexport const probe = findVaultsOfWarehouse;\n",
      ],
    ] as const;
    for (const [feature, text] of allowed) {
      expect(await lintInCore(feature, text), `${feature}: ${text}`).not.toContain(
        'import-x/no-restricted-paths',
      );
    }
  });
});

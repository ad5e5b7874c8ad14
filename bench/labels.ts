// npm run bench -- --labels: vault label PDFs for 1,000 vaults through the real app (in process, SQLite), the median
// of five builds per format, from the request to the last byte of the answer.
import { performance } from 'node:perf_hooks';
import { LABEL_FORMATS } from '../domain/rules/label-sheets';
import { buildVault, buildWarehouse } from '../server/features/warehouses/warehouses.factories';
import { signIn, startTestApp } from '../server/test/test-app';

const VAULTS = 1000;
const RUNS = 5;

export async function runLabelBench(): Promise<void> {
  const ctx = await startTestApp('sqlite');
  try {
    const user = await signIn(ctx);
    const warehouse = await buildWarehouse(ctx.database.db, {
      companyId: user.companyId,
      rows: 20,
      cols: 17,
      fieldCapacity: 3,
    });
    const vaultIds: number[] = [];
    for (const field of warehouse.fields)
      for (let i = 0; i < 3 && vaultIds.length < VAULTS; i++)
        vaultIds.push(
          (await buildVault(ctx.database.db, { companyId: user.companyId, fieldId: field.id })).id,
        );
    console.log(`Vault labels for ${vaultIds.length} vaults, median of ${RUNS} (ms, PDF size):`);
    for (const format of LABEL_FORMATS) {
      const times: number[] = [];
      let bytes = 0;
      for (let run = 0; run < RUNS; run++) {
        const start = performance.now();
        const res = await user.request({
          method: 'POST',
          url: '/api/labels/vaults',
          payload: { format, vaultIds },
        });
        times.push(performance.now() - start);
        if (res.statusCode !== 200) throw new Error(`${format}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        bytes = res.rawPayload.length;
      }
      times.sort((a, b) => a - b);
      console.log(
        `  ${format}: ${Math.round(times[Math.floor(RUNS / 2)]!)} ms, ${(bytes / 1e6).toFixed(1)} MB`,
      );
    }
  } finally {
    await ctx.close();
  }
}

// npm run bench -- --labels: vault label PDFs for 1,000 vaults through the real app (in process, SQLite), the median
// of five builds per format: time from the request to the first and to the last byte of the answer, and the most the
// JavaScript heap and buffers grew over their size before the request (sampled every 2 ms while the answer is read,
// after a garbage collection when node runs with --expose-gc).
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
    console.log(
      `Vault labels for ${vaultIds.length} vaults, median of ${RUNS} (first byte, last byte, peak memory growth, size):`,
    );
    for (const format of LABEL_FORMATS) {
      const runs: { first: number; last: number; memory: number }[] = [];
      let bytes = 0;
      for (let run = 0; run < RUNS; run++) {
        (globalThis as { gc?: () => void }).gc?.();
        const used = () => {
          const { heapUsed, arrayBuffers } = process.memoryUsage();
          return heapUsed + arrayBuffers;
        };
        const before = used();
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, used())), 2);
        const start = performance.now();
        const res = await user.request({
          method: 'POST',
          url: '/api/labels/vaults',
          payload: { format, vaultIds },
          payloadAsStream: true,
        });
        let first = 0;
        bytes = 0;
        for await (const chunk of res.stream()) {
          if (bytes === 0) first = performance.now() - start;
          bytes += (chunk as Buffer).length;
        }
        const last = performance.now() - start;
        clearInterval(sampler);
        peak = Math.max(peak, used());
        if (res.statusCode !== 200) throw new Error(`${format}: ${res.statusCode}`);
        runs.push({ first, last, memory: peak - before });
      }
      const median = (key: 'first' | 'last' | 'memory') =>
        runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
      console.log(
        `  ${format}: first byte ${Math.round(median('first'))} ms, last byte ${Math.round(median('last'))} ms, ` +
          `peak memory +${(median('memory') / 1e6).toFixed(1)} MB, ${(bytes / 1e6).toFixed(1)} MB`,
      );
    }
    console.log(`  whole run: max RSS ${(process.resourceUsage().maxRSS / 1e3).toFixed(0)} MB`);
  } finally {
    await ctx.close();
  }
}

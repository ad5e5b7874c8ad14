// npm run bench -- --labels: vault label PDFs for 1,000 vaults through the real app (in process, SQLite), the median
// of five builds per format: time from the request to the first and to the last byte of the answer; then one more build
// for the most the JavaScript heap and buffers grew over their size before the request (sampled every 2 ms while the
// answer is read, after a garbage collection when node runs with --expose-gc).
import { performance } from 'node:perf_hooks';
import { LABEL_FORMATS } from '@domain/rules/label-sheets';
import { MAX_LABELS } from '@domain/schemas/label.schema';
import { buildVault, buildWarehouse } from '../server/factories';
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
    /** one answer read as a stream; with `sample`, the most heap and buffers grew, checked every 2 ms meanwhile */
    const fetchLabels = async (format: string, sample: boolean, ids = vaultIds) => {
      const used = () => {
        const { heapUsed, arrayBuffers } = process.memoryUsage();
        return heapUsed + arrayBuffers;
      };
      (globalThis as { gc?: () => void }).gc?.();
      const before = sample ? used() : 0;
      let peak = before;
      const sampler = sample ? setInterval(() => (peak = Math.max(peak, used())), 2) : undefined;
      const start = performance.now();
      const res = await user.request({
        method: 'POST',
        url: '/api/labels/vaults',
        payload: { format, vaultIds: ids },
        payloadAsStream: true,
      });
      let first = 0;
      let bytes = 0;
      for await (const chunk of res.stream()) {
        if (bytes === 0) first = performance.now() - start;
        bytes += (chunk as Buffer).length;
      }
      const last = performance.now() - start;
      clearInterval(sampler);
      if (res.statusCode !== 200) throw new Error(`${format}: ${res.statusCode}`);
      return { first, last, bytes, memory: sample ? Math.max(peak, used()) - before : 0 };
    };
    console.log(
      `Vault labels for ${vaultIds.length} vaults, median of ${RUNS} (first byte, last byte, size), ` +
        'and in one more build sampled every 2 ms (which slows it) the peak growth of heap and buffers:',
    );
    for (const format of LABEL_FORMATS) {
      const runs: Awaited<ReturnType<typeof fetchLabels>>[] = [];
      for (let run = 0; run < RUNS; run++) runs.push(await fetchLabels(format, false));
      const { memory } = await fetchLabels(format, true);
      const median = (key: 'first' | 'last') =>
        runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
      console.log(
        `  ${format}: first byte ${Math.round(median('first'))} ms, last byte ${Math.round(median('last'))} ms, ` +
          `${(runs[0]!.bytes / 1e6).toFixed(1)} MB; peak memory +${(memory / 1e6).toFixed(1)} MB`,
      );
    }
    // the most one request may hold (the same vaults five times), where holding the whole document shows most
    const most = Array.from({ length: MAX_LABELS }, (_, i) => vaultIds[i % vaultIds.length]!);
    const big = await fetchLabels('thermal-2x1', true, most);
    console.log(
      `  ${MAX_LABELS} labels, thermal-2x1, sampled: first byte ${Math.round(big.first)} ms, ` +
        `last byte ${Math.round(big.last)} ms, ${(big.bytes / 1e6).toFixed(1)} MB; ` +
        `peak memory +${(big.memory / 1e6).toFixed(1)} MB`,
    );
    console.log(`  whole run: max RSS ${(process.resourceUsage().maxRSS / 1e3).toFixed(0)} MB`);
  } finally {
    await ctx.close();
  }
}

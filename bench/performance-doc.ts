import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes one measured section into docs/performance.md between its own markers (`<!-- name -->` and
 * `<!-- /name -->`), in place when it is already there, otherwise just above the latest `npm run bench` results.
 */
export function writePerformanceSection(name: string, text: string): void {
  const file = path.resolve('docs', 'performance.md');
  const doc = fs.readFileSync(file, 'utf8');
  const [open, close] = [`<!-- ${name} -->`, `<!-- /${name} -->`];
  const block = `${open}\n${text}${close}`;
  fs.writeFileSync(
    file,
    doc.includes(open)
      ? doc.slice(0, doc.indexOf(open)) + block + doc.slice(doc.indexOf(close) + close.length)
      : doc.replace('<!-- bench results -->', `${block}\n\n<!-- bench results -->`),
  );
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
}

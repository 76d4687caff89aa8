import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { createImageVariants } from "../app/lib/cms/image-variants.server.ts";
import { VARIANT_FORMATS, VARIANT_WIDTHS } from "../app/lib/cms/image-variants.ts";

/**
 * `npm run bench:images`: how long the site's variant maker (app/lib/cms/image-variants.server.ts,
 * decision 0036) takes to make each declared width and format of one image, and how many bytes it
 * gives, against the original's. The image: BENCH_IMAGE, or the CMS's seeded share image. Each
 * variant made RUNS times (a fresh maker each time: no cache), the median printed.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const file = process.env.BENCH_IMAGE ?? path.join(root, "cms/src/seed/share-image.png");
const runs = Number(process.env.RUNS ?? 3);
const original = new Uint8Array(readFileSync(file));

console.log(`${path.basename(file)}: ${original.length} bytes, median of ${runs} run(s)\n`);
console.log("| width | format | ms | bytes | served |");
console.log("|---|---|---|---|---|");
for (const width of VARIANT_WIDTHS) {
  for (const format of VARIANT_FORMATS) {
    const times: number[] = [];
    let outcome = "";
    for (let run = 0; run < runs; run++) {
      const maker = createImageVariants({ maxBytes: 64 * 1024 * 1024 });
      const started = performance.now();
      const variant = await maker.variant({ source: file, width, format }, async () => original);
      times.push(performance.now() - started);
      outcome = variant.kind === "made" ? `${variant.body.length}` : `original (${variant.reason})`;
    }
    const median = times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
    const bytes = outcome.startsWith("original") ? "-" : outcome;
    const served = outcome.startsWith("original") ? outcome : format;
    console.log(`| ${width} | ${format} | ${median.toFixed(0)} | ${bytes} | ${served} |`);
  }
}

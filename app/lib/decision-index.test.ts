import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { expect, it } from "vitest";

// docs/decisions/README.md indexes every decision record: a record added without its row fails here.
const DIR = path.resolve(import.meta.dirname, "../../docs/decisions");

it("the index of decision records lists every record, and only records that exist", () => {
  const records = readdirSync(DIR)
    .filter((name) => /^\d{4}-.*\.md$/.test(name))
    .sort();
  const index = readFileSync(path.join(DIR, "README.md"), "utf8");
  const linked = [...index.matchAll(/\]\((\d{4}-[^)]+\.md)\)/g)].map((match) => match[1]!).sort();
  expect(linked).toEqual(records);
});

// Summarises a .cpuprofile (node --cpu-prof): the functions with the most self time and the most
// inclusive time, by function name and file. `node bench/cpu-profile-top.mjs <file> [rows]`.
import { readFileSync } from "node:fs";

const [file, rows = "25"] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const hits = new Map();
for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
const total = profile.samples.length;
const nameOf = ({ callFrame: f }) =>
  `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*node_modules\//, "~/").replace(/^file:\/\/.*?\/(build|app|server)\//, "$1/")}:${f.lineNumber + 1}`;
const self = new Map();
const inclusive = new Map();
for (const [id, count] of hits) {
  const name = nameOf(byId.get(id));
  self.set(name, (self.get(name) ?? 0) + count);
  // Each function once per sample, however deep its recursion.
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const frame = nameOf(byId.get(at));
    if (seen.has(frame)) continue;
    seen.add(frame);
    inclusive.set(frame, (inclusive.get(frame) ?? 0) + count);
  }
}
const print = (title, map) => {
  console.log(`\n${title} (${total} samples)`);
  for (const [name, count] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(rows)))
    console.log(`${((count / total) * 100).toFixed(1).padStart(5)} %  ${name}`);
};
print("self", self);
print("inclusive", inclusive);

/**
 * The stand-in CMS (tests/support/stand-in-cms.ts) in a process of its own, serving `/company`
 * (~30 KB once rendered): `tsx bench/stand-in-cms-server.ts <port>`. For bench/render-vs-plain.ts,
 * whose renders ask the CMS while the benchmark process waits for the load generator.
 */
import { StandInCms } from "../tests/support/stand-in-cms.ts";

const cms = new StandInCms(Number(process.argv[2]));
cms.setPage({ fullPath: "/company", title: "Company", paragraphs: 75 });
cms.navbar = [
  { label: "Home", url: "/" },
  { label: "Company", url: "/company" },
];
// Nothing reads what it asked; a benchmark's millions of requests must not pile up.
cms.requests = { push: () => 0 } as unknown as string[];
await cms.start();
process.once("SIGTERM", () => void cms.stop().then(() => process.exit(0)));

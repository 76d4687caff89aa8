import { mkdtempSync, rmSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "./free-port.ts";

import { startBalancer, type Balancer } from "../../scripts/balancer.mjs";
import { startPostgres, type Postgres } from "../../scripts/postgres.mjs";
import { startApp, type AppHandle } from "./app-server.ts";
import { startCms, type CmsHandle } from "./cms-server.ts";
import { RedisServer } from "./redis-server.ts";
import { TEST_ACCOUNT_API_SECRET } from "./site-secret.ts";

/**
 * The whole deployment on one machine, each part real: PostgreSQL (scripts/postgres.mjs, a
 * throw-away data directory) with `cms` Strapi instances on it, started together on the empty
 * database, behind a round-robin balancer (scripts/balancer.mjs); `sites` production site
 * instances sharing one Redis (none for a single site) behind another. The CMS revalidates
 * through the site's balancer (CLIENT_URL), which records every POST /api/cms-revalidate
 * (`revalidations`) and, while `failRevalidations` is true, answers them 503 itself (after 300 ms). With
 * `postgres: false`, one CMS on a seeded SQLite copy instead (the one-instance comparison).
 */

export const CLUSTER_REVALIDATE_SECRET = "cluster-revalidate-secret-0123456789";
/** How long the site's balancer takes to refuse a revalidation while `failRevalidations` is true. */
const FAIL_AFTER_MS = 300;

export interface RecordedRevalidation {
  /** Date.now() when the request arrived at the balancer. */
  at: number;
  body: { uid?: string; next?: { fullPaths?: string[]; tags?: string[]; expire?: boolean } };
  /** 503 when the balancer refused it itself, else the site's status. */
  status: number;
}

export interface CmsCluster {
  dir: string;
  postgres: Postgres | undefined;
  cms: CmsHandle[];
  /** Each CMS instance's log file, in the order of `cms`. */
  cmsLogs: string[];
  cmsBalancer: Balancer;
  sites: AppHandle[];
  siteBalancer: Balancer;
  revalidations: RecordedRevalidation[];
  failRevalidations: boolean;
  stop(): Promise<void>;
}

export async function startCmsCluster(options: {
  name: string;
  cms: number;
  sites: number;
  postgres?: boolean;
  cmsEnv?: Record<string, string>;
  siteEnv?: Record<string, string>;
}): Promise<CmsCluster> {
  const usePostgres = options.postgres ?? true;
  if (!usePostgres && options.cms !== 1) throw new Error("startCmsCluster: several CMS instances need PostgreSQL");
  const dir = mkdtempSync(path.join(tmpdir(), `${options.name}-`));
  const cluster = {
    dir,
    postgres: undefined,
    cms: [],
    cmsLogs: [],
    revalidations: [],
    sites: [],
    failRevalidations: false,
  } as unknown as CmsCluster;
  let redis: RedisServer | undefined;
  const stop = async () => {
    await Promise.all(cluster.sites.map((site) => site.stop()));
    await cluster.siteBalancer?.stop();
    await cluster.cmsBalancer?.stop();
    await Promise.all(cluster.cms.map((cms) => cms.stop()));
    await cluster.postgres?.stop();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  cluster.stop = stop;
  try {
    const sitePorts = await Promise.all(Array.from({ length: options.sites }, () => getPort()));
    cluster.siteBalancer = await startBalancer({
      backends: sitePorts,
      intercept: (req, res) => {
        if (req.method !== "POST" || !req.url?.startsWith("/api/cms-revalidate")) return false;
        const entry: RecordedRevalidation = { at: Date.now(), body: {}, status: 0 };
        readJson(req).then((body) => (entry.body = body));
        cluster.revalidations.push(entry);
        if (!cluster.failRevalidations) {
          res.once("finish", () => (entry.status = res.statusCode));
          return false;
        }
        entry.status = 503;
        req.resume();
        // After a while, as a struggling site answers: a send takes time, so retry passes overlap.
        setTimeout(
          () => res.writeHead(503, { "content-type": "application/json" }).end('{"error":"refused by the test"}'),
          FAIL_AFTER_MS,
        );
        return true;
      },
    });

    const cmsEnv = {
      CLIENT_URL: cluster.siteBalancer.url,
      CMS_REVALIDATE_SECRET: CLUSTER_REVALIDATE_SECRET,
      CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
      CMS_MAIL_DIR: path.join(dir, "mail"),
      ...options.cmsEnv,
    };
    const dbFile = path.join(dir, "cms.db");
    const cmsPorts = await Promise.all(Array.from({ length: options.cms }, () => getPort()));
    cluster.cmsLogs = cmsPorts.map((_, index) => path.join(dir, `cms-${index}.log`));
    if (usePostgres) {
      cluster.postgres = await startPostgres({ port: await getPort(), dataDir: path.join(dir, "pg"), durable: false });
      // Together, as a deployment's replicas start: the start lock (cms/scripts/start-lock.js) orders them.
      const started = await Promise.allSettled(
        cmsPorts.map((port, index) =>
          startCms({
            port,
            dbFile,
            postgresUrl: cluster.postgres!.url,
            logFile: cluster.cmsLogs[index],
            env: cmsEnv,
          }),
        ),
      );
      for (const result of started) if (result.status === "fulfilled") cluster.cms.push(result.value);
      const failed = started.find((result) => result.status === "rejected");
      if (failed) throw failed.reason;
    } else {
      cluster.cms.push(
        await startCms({ port: cmsPorts[0]!, dbFile, fresh: true, logFile: cluster.cmsLogs[0], env: cmsEnv }),
      );
    }
    cluster.cmsBalancer = await startBalancer({ backends: cmsPorts });

    if (options.sites > 1) {
      redis = new RedisServer(await getPort());
      await redis.start();
    }
    const siteEnv = {
      CMS_URL: cluster.cmsBalancer.url,
      CMS_REST_READONLY_API_KEY: cluster.cms[0]!.token,
      CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
      CMS_REVALIDATE_SECRET: CLUSTER_REVALIDATE_SECRET,
      ...(redis ? { REDIS_URL: redis.url } : {}),
      ...options.siteEnv,
    };
    cluster.sites = await Promise.all(sitePorts.map((port) => startApp({ port, env: siteEnv })));
    return cluster;
  } catch (error) {
    await stop();
    throw error;
  }
}

function readJson(req: IncomingMessage): Promise<RecordedRevalidation["body"]> {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      try {
        resolve(JSON.parse(text));
      } catch {
        resolve({});
      }
    });
  });
}

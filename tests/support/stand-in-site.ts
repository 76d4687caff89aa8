import getPort from "./free-port.ts";
import { afterAll, beforeAll } from "vitest";

import { startApp, type AppHandle } from "./app-server.ts";
import { StandInCms } from "./stand-in-cms.ts";

/**
 * The production site against a stand-in CMS, both on free ports, started before a test file
 * and stopped after it. `seed` fills the CMS before the site starts; `env` adds to the site's
 * environment. Read `site.cms` and `site.app` inside tests.
 */
export function standInSite(options: { env?: Record<string, string>; seed?: (cms: StandInCms) => void } = {}) {
  const site = {} as { cms: StandInCms; app: AppHandle };
  beforeAll(async () => {
    site.cms = new StandInCms(await getPort());
    await site.cms.start();
    options.seed?.(site.cms);
    site.app = await startApp({
      port: await getPort(),
      env: { CMS_URL: site.cms.url, CMS_REST_READONLY_API_KEY: "stand-in-token-0123456789", ...options.env },
    });
  }, 60_000);
  afterAll(async () => {
    await site.app?.stop();
    await site.cms?.stop();
  });
  return site;
}

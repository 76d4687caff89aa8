import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import getPort from "./free-port.ts";

import { startApp, type AppHandle } from "./app-server.ts";
import { startCms, type CmsHandle } from "./cms-server.ts";
import { copyProject, type ProjectCopy } from "./project-copy.ts";
import { TEST_ACCOUNT_API_SECRET } from "./site-secret.ts";

/**
 * A copy of the project with a fixture laid over it (copyProject), built and run as a developer's
 * checkout would be: its own Strapi on a fresh database and its production site, wired to each
 * other with `secrets` (the revalidation secret at least). For the tests of what docs/
 * add-a-content-type.md promises (tests/integration/add-a-content-type.test.ts,
 * filtered-listing.test.ts).
 */
export interface ProjectCopyStack {
  copy: ProjectCopy;
  cms: CmsHandle;
  app: AppHandle;
  stop(): Promise<void>;
}

export async function startProjectCopyStack(
  fixtureDir: string,
  { name, secrets }: { name: string; secrets: Record<string, string> },
): Promise<ProjectCopyStack> {
  const copy = copyProject(fixtureDir, { marker: "Your content types go here" });
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  let cms: CmsHandle | undefined;
  let app: AppHandle | undefined;
  const stop = async () => {
    await app?.stop();
    await cms?.stop();
    copy.remove();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    copy.build();
    const [cmsPort, appPort] = [await getPort(), await getPort()];
    cms = await startCms({
      root: path.join(copy.root, "cms"),
      port: cmsPort,
      dbFile: path.join(dir, "cms.db"),
      fresh: true,
      env: { CLIENT_URL: `http://127.0.0.1:${appPort}`, CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET, ...secrets },
    });
    app = await startApp({
      root: copy.root,
      port: appPort,
      env: {
        CMS_URL: cms.url,
        CMS_REST_READONLY_API_KEY: cms.token,
        CMS_ACCOUNT_API_SECRET: TEST_ACCOUNT_API_SECRET,
        ...secrets,
      },
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { copy, cms, app, stop };
}

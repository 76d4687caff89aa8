// Types of scripts/quickstart-env.mjs, for tests/integration/quickstart-env.test.ts.
type Vars = Record<string, string>;

export declare const SHARED_SECRETS: string[];
export declare function parseEnvText(text: string): Vars;
export declare function ensureQuickstartEnv(file: string): { values: Vars; generated: string[] };
export declare function quickstartEnvironments(options: {
  shell: Record<string, string | undefined>;
  fileValues: Vars;
  sitePort: number;
  cmsPort: number;
  readonlyToken: string;
}): { siteUrl: string; cmsUrl: string; cms: Vars; site: Vars };

// Types of scripts/quickstart-env.mjs, for tests/integration/quickstart-env.test.ts and quickstart-banner.test.ts.
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
export declare const WARM_START_OVER: RegExp;
export declare function warmStartEnabled(siteEnv: Record<string, string | undefined>): boolean;
export declare function quickstartBanner(options: {
  siteUrl: string;
  cmsUrl: string;
  email: string;
  password: string;
  warmStart: "done" | "off" | "running";
}): string;

// Types of scripts/postgres.mjs, for the tests and bench/.
export interface Postgres {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url: string;
  port: number;
  database: string;
  stop(): Promise<void>;
}

export declare function postgresBinDir(): string | null;
export declare function startPostgres(options: {
  port: number;
  dataDir: string;
  database?: string;
  durable?: boolean;
  logFile?: string;
}): Promise<Postgres>;
export declare function removeDataDir(dataDir: string): void;

import type { Redis } from "ioredis";

import { orFallback } from "../redis.server.ts";

/**
 * Sessions signed out before their cookie expires. The session lives in the cookie, so a
 * copy of it would stay usable after sign-out; this list makes every instance refuse it.
 * In Redis when configured (shared, survives a restart of the site), else in this process.
 */
export interface SessionRevocations {
  revoke(sessionId: string, expiresAt: Date): Promise<void>;
  isRevoked(sessionId: string): Promise<boolean>;
}

export class LocalRevocations implements SessionRevocations {
  private readonly revoked = new Map<string, number>();

  async revoke(sessionId: string, expiresAt: Date) {
    const now = Date.now();
    if (this.revoked.size > 100_000) {
      for (const [id, until] of this.revoked) if (until <= now) this.revoked.delete(id);
    }
    this.revoked.set(sessionId, expiresAt.getTime());
  }

  async isRevoked(sessionId: string) {
    const until = this.revoked.get(sessionId);
    return until !== undefined && until > Date.now();
  }
}

export class RedisRevocations implements SessionRevocations {
  private readonly local = new LocalRevocations();

  constructor(
    private readonly redis: Redis,
    private readonly prefix = "acme",
  ) {}

  async revoke(sessionId: string, expiresAt: Date) {
    await this.local.revoke(sessionId, expiresAt);
    const ttl = Math.max(1_000, expiresAt.getTime() - Date.now());
    await orFallback(() => this.redis.set(`${this.prefix}:revoked:${sessionId}`, "1", "PX", ttl), null);
  }

  async isRevoked(sessionId: string) {
    if (await this.local.isRevoked(sessionId)) return true;
    return orFallback(async () => (await this.redis.exists(`${this.prefix}:revoked:${sessionId}`)) === 1, false);
  }
}

import type { Redis } from "ioredis";

import type { InvalidationKind, Invalidations } from "../invalidations.ts";

/**
 * Cross-instance invalidation. An invalidation made here is written to two Redis hashes
 * (`<prefix>:tags`, `<prefix>:prefixes`: key → time, keeping the latest) and published on a
 * channel; every instance applies what it hears. An instance that was cut off catches up on
 * (re)connection by reading the two hashes, whose size grows with the number of tags and
 * paths ever invalidated, never with the number of cached entries. Invalidations made while
 * Redis was down are kept and written once it is back.
 */
export class InvalidationBus {
  private readonly pending: Array<{ kind: InvalidationKind; key: string; at: number }> = [];
  readonly channel: string;

  constructor(
    private readonly invalidations: Invalidations,
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly prefix = "isr",
  ) {
    this.channel = `${prefix}:invalidations`;
    invalidations.onInvalidate((kind, key, at) => void this.send({ kind, key, at }));
    subscriber.on("message", (channel: string, message: string) => {
      if (channel === this.channel) this.apply(message);
    });
    subscriber.on("ready", () => {
      void subscriber.subscribe(this.channel).catch(() => undefined);
      void this.catchUp();
    });
    publisher.on("ready", () => void this.flush().then(() => this.catchUp()));
  }

  private hash(kind: InvalidationKind) {
    return `${this.prefix}:${kind === "tag" ? "tags" : "prefixes"}`;
  }

  private apply(message: string) {
    try {
      const { kind, key, at } = JSON.parse(message) as { kind: InvalidationKind; key: string; at: number };
      if ((kind === "tag" || kind === "prefix") && typeof key === "string" && Number.isFinite(at)) {
        this.invalidations.merge(kind, key, at);
      }
    } catch {
      // not ours
    }
  }

  private async send(item: { kind: InvalidationKind; key: string; at: number }) {
    try {
      // Keep the latest time per key (a delayed write must not move it back).
      await this.publisher.eval(
        "local t = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0') if tonumber(ARGV[2]) > t then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end return 1",
        1,
        this.hash(item.kind),
        item.key,
        String(item.at),
      );
      await this.publisher.publish(this.channel, JSON.stringify(item));
    } catch {
      this.pending.push(item);
    }
  }

  private async flush() {
    const items = this.pending.splice(0);
    for (const item of items) await this.send(item);
  }

  /** Reads every recorded invalidation and applies the newer ones. */
  async catchUp(): Promise<void> {
    for (const kind of ["tag", "prefix"] as const) {
      try {
        const all = await this.publisher.hgetall(this.hash(kind));
        for (const [key, at] of Object.entries(all)) this.invalidations.merge(kind, key, Number(at));
      } catch {
        // Redis is down again: the next "ready" catches up.
      }
    }
  }
}

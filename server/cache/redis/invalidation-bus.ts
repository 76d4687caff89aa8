import { randomUUID } from "node:crypto";

import type { Redis } from "ioredis";

import type { InvalidationKind, Invalidations } from "../invalidations.ts";

/**
 * Cross-instance invalidation, ordered by Redis rather than by any instance's clock
 * (docs/decisions/0007-invalidation-clock-and-pruning.md).
 *
 * An invalidation made here is sent to Redis, where one script gives it a version (Redis's
 * own time in microseconds, or the previous version plus one if that is not larger), records
 * it in one hash (`<prefix>:invalidations`: `t:<tag>` / `p:<prefix>` → version) and publishes
 * it with the version before it. Every instance applies what it hears and keeps a watermark:
 * the version up to which it has heard everything (the published `prev` links make gaps
 * visible). A gap, or a (re)connection, is closed by reading the hash, which stands for every
 * version up to its `#version`. The same script forgets, a few fields per call, records older
 * than the longest interval plus a margin and raises `#floor` to the newest version it forgot;
 * an instance that had not reached the floor treats what it cached before as stale.
 *
 * While Redis is down invalidations wait here, one per tag or prefix (the latest); past
 * maxPending of them, or if any was forgotten before it could be sent, a single purge is sent
 * instead once Redis is back: every instance then treats what it cached before as stale.
 */

type EventKind = InvalidationKind | "purge";

interface BusEvent {
  kind: EventKind;
  key: string;
  /** The version Redis issued before this one: the link that shows a gap. */
  prev: number;
  version: number;
  /** Names the life of the hash: another one means Redis lost what it held. */
  epoch: string;
  origin: string;
  /** The sender's local number for it (only meaningful to the sender). */
  seq: number;
}

/**
 * KEYS[1] the hash; ARGV: field (`t:tag`, `p:prefix`, or empty for a purge), horizon (µs),
 * channel, origin, seq, an epoch for a hash that does not exist yet.
 * Versions are written with %d: Lua would print 16 digits in exponent notation.
 */
const SEND = `
local h = KEYS[1]
local field, horizon, channel, origin, seq = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local prev = tonumber(redis.call('HGET', h, '#version') or '0')
local epoch = redis.call('HGET', h, '#epoch')
if not epoch then
  epoch = ARGV[6]
  redis.call('HSET', h, '#epoch', epoch)
end
local v = string.format('%d', math.max(prev + 1, now))
redis.call('HSET', h, '#version', v)
if field == '' then redis.call('HSET', h, '#floor', v) else redis.call('HSET', h, field, v) end
local cutoff = now - horizon
local floor = tonumber(redis.call('HGET', h, '#floor') or '0')
local raised = floor
local scan = redis.call('HSCAN', h, redis.call('HGET', h, '#cursor') or '0', 'COUNT', 100)
local items = scan[2]
for i = 1, #items, 2 do
  local name = items[i]
  if string.sub(name, 1, 1) ~= '#' then
    local at = tonumber(items[i + 1])
    if at < cutoff then
      redis.call('HDEL', h, name)
      if at > raised then raised = at end
    end
  end
end
if raised > floor then redis.call('HSET', h, '#floor', string.format('%d', raised)) end
redis.call('HSET', h, '#cursor', scan[1])
local kind = 'purge'
if string.sub(field, 1, 2) == 't:' then kind = 'tag' elseif string.sub(field, 1, 2) == 'p:' then kind = 'prefix' end
redis.call('PUBLISH', channel, '{"kind":' .. cjson.encode(kind) .. ',"key":' .. cjson.encode(string.sub(field, 3)) ..
  ',"prev":' .. string.format('%d', prev) .. ',"version":' .. v .. ',"epoch":' .. cjson.encode(epoch) ..
  ',"origin":' .. cjson.encode(origin) .. ',"seq":' .. seq .. '}')
return { string.format('%d', prev), v, epoch }
`;

export interface InvalidationBusOptions {
  /** Key prefix in Redis. */
  prefix?: string;
  /** Invalidations kept while Redis is down, one per tag or prefix; past it, one purge. */
  maxPending?: number;
}

export class InvalidationBus {
  readonly channel: string;
  readonly hash: string;
  private readonly prefix: string;
  private readonly maxPending: number;
  private readonly pending = new Map<string, { kind: InvalidationKind; key: string; seq: number }>();
  /** prev → version, heard ahead of the watermark. */
  private readonly links = new Map<number, number>();
  private epoch: string | undefined;
  private readonly freshEpoch = randomUUID();
  private flushing: Promise<void> | undefined;
  private catchingUp: Promise<void> | undefined;
  private catchUpAgain = false;
  private legacyDropped = false;
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly invalidations: Invalidations,
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    options: InvalidationBusOptions = {},
  ) {
    this.prefix = options.prefix ?? "isr";
    this.maxPending = options.maxPending ?? 10_000;
    this.channel = `${this.prefix}:invalidation-events`;
    this.hash = `${this.prefix}:invalidations`;
    invalidations.onInvalidate((kind, key, seq) => this.send(kind, key, seq));
    subscriber.on("message", (channel: string, message: string) => {
      if (channel === this.channel) this.hear(message);
    });
    const listen = async () => {
      try {
        // Subscribed before reading the hash, so nothing published in between is missed.
        await subscriber.subscribe(this.channel);
      } catch {
        return; // down again: the next "ready" tries again
      }
      await this.catchUp();
    };
    if (subscriber.status === "ready") void listen();
    subscriber.on("ready", () => void listen());
    const connected = async () => {
      this.dropLegacyKeys();
      await this.flush();
      await this.catchUp();
    };
    if (publisher.status === "ready") void connected();
    publisher.on("ready", () => void connected());
  }

  /** Invalidations waiting for Redis (one per tag or prefix). */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Resolves once every write started so far has ended (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.writes.size > 0 || this.catchingUp || this.flushing) {
      await Promise.allSettled([...this.writes, this.catchingUp, this.flushing]);
    }
  }

  /** Reads the whole record (every version up to `#version`) and applies what is new. */
  catchUp(): Promise<void> {
    if (this.catchingUp) {
      this.catchUpAgain = true;
      return this.catchingUp;
    }
    this.catchingUp = this.readAll().finally(() => {
      this.catchingUp = undefined;
      if (this.catchUpAgain) {
        this.catchUpAgain = false;
        void this.catchUp();
      }
    });
    return this.catchingUp;
  }

  private async readAll() {
    let all: Record<string, string>;
    try {
      all = await this.publisher.hgetall(this.hash);
    } catch {
      return; // Redis is down again: the next "ready" catches up.
    }
    const invalidations = this.invalidations;
    this.checkEpoch(all["#epoch"]);
    const floor = Number(all["#floor"] ?? 0);
    // Records up to the floor were forgotten, perhaps before this instance heard of them.
    if (floor > invalidations.sharedVersion) invalidations.forgetBefore(floor);
    for (const [field, value] of Object.entries(all)) {
      if (field.startsWith("t:")) invalidations.applyShared("tag", field.slice(2), Number(value));
      else if (field.startsWith("p:")) invalidations.applyShared("prefix", field.slice(2), Number(value));
    }
    invalidations.advanceShared(Number(all["#version"] ?? 0));
    this.followLinks();
    for (const [prev, version] of this.links) {
      if (version <= invalidations.sharedVersion) this.links.delete(prev);
    }
    // Heard of something past the record's end that does not link up: read again.
    if (this.links.size > 0) this.catchUpAgain = true;
    if (invalidations.needsPurge) void this.flush();
  }

  private hear(message: string) {
    let event: BusEvent;
    try {
      event = JSON.parse(message) as BusEvent;
    } catch {
      return; // not ours
    }
    const { kind, key, prev, version, epoch, origin, seq } = event;
    if (
      (kind === "tag" || kind === "prefix" || kind === "purge") &&
      typeof key === "string" &&
      typeof epoch === "string" &&
      typeof origin === "string" &&
      [prev, version, seq].every(Number.isSafeInteger)
    ) {
      this.receive(event);
    }
  }

  /** One numbered invalidation, heard on the channel or answered to our own write. */
  private receive(event: BusEvent) {
    const invalidations = this.invalidations;
    this.checkEpoch(event.epoch);
    const own = event.origin === invalidations.origin;
    if (event.kind === "purge") {
      if (own) invalidations.confirmPurge(event.version, event.seq);
      else invalidations.forgetBefore(event.version);
    } else if (own) {
      invalidations.confirmShared(event.kind, event.key, event.version, event.seq);
    } else {
      invalidations.applyShared(event.kind, event.key, event.version);
    }
    if (event.version <= invalidations.sharedVersion) return;
    if (event.prev === invalidations.sharedVersion) {
      invalidations.advanceShared(event.version);
      this.followLinks();
    } else {
      // Something between was missed (a reconnection, or Redis started afresh).
      if (this.links.size >= 10_000) this.links.clear();
      this.links.set(event.prev, event.version);
      void this.catchUp();
    }
  }

  private followLinks() {
    const invalidations = this.invalidations;
    for (let next = this.links.get(invalidations.sharedVersion); next !== undefined; next = this.links.get(invalidations.sharedVersion)) {
      this.links.delete(invalidations.sharedVersion);
      invalidations.advanceShared(next);
    }
  }

  private checkEpoch(epoch: string | undefined) {
    if (epoch === this.epoch) return;
    // The record this instance followed is gone (Redis restarted empty, or evicted it).
    if (this.epoch !== undefined) this.invalidations.loseHistory();
    this.epoch = epoch;
  }

  private send(kind: InvalidationKind, key: string, seq: number) {
    if (this.publisher.status !== "ready") return this.hold(kind, key, seq);
    this.track(
      this.write(kind, key, seq).then(
        () => {
          if (this.pending.size > 0 || this.invalidations.needsPurge) void this.flush();
        },
        () => this.hold(kind, key, seq),
      ),
    );
  }

  /** Keeps an invalidation for later: the latest per tag or prefix, and a purge past maxPending. */
  private hold(kind: InvalidationKind, key: string, seq: number) {
    const id = `${kind}\0${key}`;
    this.pending.delete(id);
    this.pending.set(id, { kind, key, seq });
    if (this.pending.size > this.maxPending) {
      this.pending.clear();
      this.invalidations.requirePurge();
    }
  }

  private async write(kind: EventKind, key: string, seq: number): Promise<void> {
    const field = kind === "purge" ? "" : `${kind === "tag" ? "t" : "p"}:${key}`;
    const reply = (await this.publisher.eval(
      SEND,
      1,
      this.hash,
      field,
      String(this.invalidations.horizonMs * 1000),
      this.channel,
      this.invalidations.origin,
      String(seq),
      this.freshEpoch,
    )) as [string, string, string];
    const [prev, version, epoch] = reply;
    this.receive({ kind, key, prev: Number(prev), version: Number(version), epoch, origin: this.invalidations.origin, seq });
  }

  /** Sends what waited while Redis was down: a purge if one is needed (it stands for all of them), else each. */
  private flush(): Promise<void> {
    this.flushing ??= this.sendHeld().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async sendHeld() {
    try {
      if (this.invalidations.needsPurge) {
        this.pending.clear();
        await this.write("purge", "", this.invalidations.localSeq);
      }
      for (const [id, item] of this.pending) {
        this.pending.delete(id);
        try {
          await this.write(item.kind, item.key, item.seq);
        } catch (error) {
          this.hold(item.kind, item.key, item.seq);
          throw error;
        }
      }
    } catch {
      // Down again: the next "ready" flushes.
    }
  }

  private track(work: Promise<void>) {
    this.writes.add(work);
    void work.finally(() => this.writes.delete(work));
  }

  /** The unbounded hashes of the release before (`<prefix>:tags`, `<prefix>:prefixes`) are no longer read. */
  private dropLegacyKeys() {
    if (this.legacyDropped) return;
    this.legacyDropped = true;
    this.publisher.del(`${this.prefix}:tags`, `${this.prefix}:prefixes`).catch(() => {
      this.legacyDropped = false;
    });
  }
}

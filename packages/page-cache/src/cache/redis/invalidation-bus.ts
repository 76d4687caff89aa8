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
 *
 * An expiring invalidation (a takedown) carries `expire` on the channel and is also recorded
 * as `xt:<tag>` / `xp:<prefix>` → version, so an instance catching up from the hash knows it
 * expired; forgetting such a field raises `#xfloor` as well as `#floor`. A held invalidation
 * stays expiring if any of those it stands for was, and so does a purge standing for one
 * (docs/decisions/0010-takedowns-expire.md).
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
  /** An expiring invalidation (a takedown): what it hits is not served again, not even stale. */
  expire?: boolean;
}

/**
 * KEYS[1] the hash; ARGV: field (`t:tag`, `p:prefix`, or empty for a purge), horizon (µs),
 * channel, origin, seq, an epoch for a hash that does not exist yet, '1' for an expiring one.
 * Versions are written with %d: Lua would print 16 digits in exponent notation.
 */
const SEND = `
local h = KEYS[1]
local field, horizon, channel, origin, seq = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5]
local expire = ARGV[7] == '1'
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
if field == '' then
  redis.call('HSET', h, '#floor', v)
  if expire then redis.call('HSET', h, '#xfloor', v) end
else
  redis.call('HSET', h, field, v)
  if expire then redis.call('HSET', h, 'x' .. field, v) end
end
local cutoff = now - horizon
local floor = tonumber(redis.call('HGET', h, '#floor') or '0')
local xfloor = tonumber(redis.call('HGET', h, '#xfloor') or '0')
local raised, xraised = floor, xfloor
local scan = redis.call('HSCAN', h, redis.call('HGET', h, '#cursor') or '0', 'COUNT', 100)
local items = scan[2]
for i = 1, #items, 2 do
  local name = items[i]
  if string.sub(name, 1, 1) ~= '#' then
    local at = tonumber(items[i + 1])
    if at < cutoff then
      redis.call('HDEL', h, name)
      if at > raised then raised = at end
      if string.sub(name, 1, 1) == 'x' and at > xraised then xraised = at end
    end
  end
end
if raised > floor then redis.call('HSET', h, '#floor', string.format('%d', raised)) end
if xraised > xfloor then redis.call('HSET', h, '#xfloor', string.format('%d', xraised)) end
redis.call('HSET', h, '#cursor', scan[1])
local kind = 'purge'
if string.sub(field, 1, 2) == 't:' then kind = 'tag' elseif string.sub(field, 1, 2) == 'p:' then kind = 'prefix' end
redis.call('PUBLISH', channel, '{"kind":' .. cjson.encode(kind) .. ',"key":' .. cjson.encode(string.sub(field, 3)) ..
  ',"prev":' .. string.format('%d', prev) .. ',"version":' .. v .. ',"epoch":' .. cjson.encode(epoch) ..
  ',"origin":' .. cjson.encode(origin) .. ',"seq":' .. seq .. ',"expire":' .. tostring(expire) .. '}')
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
  private readonly pending = new Map<string, { kind: InvalidationKind; key: string; seq: number; expire: boolean }>();
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
    invalidations.onInvalidate((kind, key, seq, expire) => this.send(kind, key, seq, expire));
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

  /**
   * Resolves once the writes started so far have ended: every invalidation made here until now
   * has been numbered by Redis and published to the other instances, or is held for when Redis
   * is back. The revalidation route answers after it, so a CDN purge that follows its answer
   * finds every instance told.
   */
  async sent(): Promise<void> {
    await Promise.allSettled([...this.writes]);
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
    const expireFloor = Number(all["#xfloor"] ?? 0);
    // Records up to the floor were forgotten, perhaps before this instance heard of them.
    if (floor > invalidations.sharedVersion) invalidations.forgetBefore(floor);
    if (expireFloor > invalidations.sharedVersion) invalidations.forgetBefore(expireFloor, true);
    for (const [field, value] of Object.entries(all)) {
      if (field.startsWith("t:")) invalidations.applyShared("tag", field.slice(2), Number(value));
      else if (field.startsWith("p:")) invalidations.applyShared("prefix", field.slice(2), Number(value));
      else if (field.startsWith("xt:")) invalidations.applyShared("tag", field.slice(3), Number(value), true);
      else if (field.startsWith("xp:")) invalidations.applyShared("prefix", field.slice(3), Number(value), true);
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
    const { kind, key, prev, version, epoch, origin, seq, expire } = event;
    if (
      (kind === "tag" || kind === "prefix" || kind === "purge") &&
      typeof key === "string" &&
      typeof epoch === "string" &&
      typeof origin === "string" &&
      (expire === undefined || typeof expire === "boolean") &&
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
    const expire = event.expire === true;
    if (event.kind === "purge") {
      if (own) invalidations.confirmPurge(event.version, event.seq, expire);
      else invalidations.forgetBefore(event.version, expire);
    } else if (own) {
      invalidations.confirmShared(event.kind, event.key, event.version, event.seq, expire);
    } else {
      invalidations.applyShared(event.kind, event.key, event.version, expire);
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
    for (
      let next = this.links.get(invalidations.sharedVersion);
      next !== undefined;
      next = this.links.get(invalidations.sharedVersion)
    ) {
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

  private send(kind: InvalidationKind, key: string, seq: number, expire: boolean) {
    if (this.publisher.status !== "ready") return this.hold(kind, key, seq, expire);
    this.track(
      this.write(kind, key, seq, expire).then(
        () => {
          if (this.pending.size > 0 || this.invalidations.needsPurge) void this.flush();
        },
        () => this.hold(kind, key, seq, expire),
      ),
    );
  }

  /**
   * Keeps an invalidation for later: the latest per tag or prefix (expiring if any of those it
   * replaces was), and a purge past maxPending (expiring if any of those it stands for was).
   */
  private hold(kind: InvalidationKind, key: string, seq: number, expire: boolean) {
    const id = `${kind}\0${key}`;
    const earlier = this.pending.get(id);
    this.pending.delete(id);
    this.pending.set(id, { kind, key, seq, expire: expire || earlier?.expire === true });
    if (this.pending.size > this.maxPending) {
      const expiring = this.heldExpiring();
      this.pending.clear();
      this.invalidations.requirePurge(expiring);
    }
  }

  private heldExpiring(): boolean {
    for (const item of this.pending.values()) if (item.expire) return true;
    return false;
  }

  private async write(kind: EventKind, key: string, seq: number, expire: boolean): Promise<void> {
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
      expire ? "1" : "0",
    )) as [string, string, string];
    const [prev, version, epoch] = reply;
    const origin = this.invalidations.origin;
    this.receive({ kind, key, prev: Number(prev), version: Number(version), epoch, origin, seq, expire });
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
        // The purge stands for what is held: it expires if any of that did (kept if it fails).
        if (this.heldExpiring()) this.invalidations.requirePurge(true);
        this.pending.clear();
        await this.write("purge", "", this.invalidations.localSeq, this.invalidations.purgeExpires);
      }
      for (const [id, item] of this.pending) {
        this.pending.delete(id);
        try {
          await this.write(item.kind, item.key, item.seq, item.expire);
        } catch (error) {
          this.hold(item.kind, item.key, item.seq, item.expire);
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

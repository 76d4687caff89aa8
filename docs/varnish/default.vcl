vcl 4.1;
# Varnish in front of the site: caches pages as CDN-Cache-Control says, and takes the purges
# of the site's "http" CDN provider (packages/page-cache/src/cdn/providers.ts):
#   PURGE <path>                  drop that URL
#   PURGE <path> X-Purge-Soft: 1  mark it stale, kept in grace (purge.soft: CDN_SOFT_PURGE=true)
#   BAN / with X-Purge-Tags: a b  drop every object whose Surrogate-Key holds one of the tags
#   BAN / with X-Purge-All: 1     drop everything
# The tests (tests/integration/cdn-purge-varnish.test.ts) write the backend's port in.

import std;
import purge;

backend default {
  .host = "127.0.0.1";
  .port = "BACKEND_PORT";
}

acl purgers {
  "127.0.0.1";
  "::1";
}

sub vcl_recv {
  if (req.method == "PURGE") {
    if (client.ip !~ purgers) { return (synth(405, "Purging is not allowed from here")); }
    if (req.http.X-Purge-Soft) { return (hash); }
    return (purge);
  }
  if (req.method == "BAN") {
    if (client.ip !~ purgers) { return (synth(405, "Banning is not allowed from here")); }
    if (req.http.X-Purge-All) {
      ban("obj.status != 0");
      return (synth(200, "Banned everything"));
    }
    if (req.http.X-Purge-Tags) {
      # Tags are matched whole; regex characters in them are escaped first.
      ban("obj.http.Surrogate-Key ~ (^|\s)(" + regsuball(regsuball(req.http.X-Purge-Tags, "([.*+?^$()\[\]{}|\\])", "\\\1"), " +", "|") + ")(\s|$)");
      return (synth(200, "Banned"));
    }
    return (synth(400, "BAN needs X-Purge-Tags or X-Purge-All"));
  }
  # Personal requests are never served from or stored in the shared cache.
  if (req.http.Cookie || req.http.Authorization) { return (pass); }
}

# A soft purge: every variant of the URL is kept, stale (ttl 0), for its grace.
sub vcl_hit {
  if (req.method == "PURGE") {
    purge.soft(0s);
    return (synth(200, "Soft purged"));
  }
}

sub vcl_miss {
  if (req.method == "PURGE") {
    purge.soft(0s);
    return (synth(200, "Soft purged"));
  }
}

sub vcl_backend_response {
  # An answer the site says no shared cache may keep (a STALE page, a personal one): not kept,
  # and not made a hit-for-miss either, so the next fetch's fresh page is stored at once.
  if (beresp.http.CDN-Cache-Control ~ "no-store") {
    set beresp.ttl = 0s;
    set beresp.grace = 0s;
    set beresp.uncacheable = true;
    return (deliver);
  }
  # The site tells CDNs how long to keep a page in CDN-Cache-Control (s-maxage).
  if (beresp.http.CDN-Cache-Control ~ "s-maxage=[0-9]+") {
    set beresp.ttl = std.duration(regsub(beresp.http.CDN-Cache-Control, "^.*s-maxage=([0-9]+).*$", "\1") + "s", 0s);
  }
}

sub vcl_deliver {
  if (obj.hits > 0) {
    set resp.http.X-CDN-Cache = "HIT";
  } else {
    set resp.http.X-CDN-Cache = "MISS";
  }
}

vcl 4.1;
# Varnish in front of the site: caches pages as CDN-Cache-Control says, and takes the purges
# of the site's "http" CDN provider (server/cdn/providers.ts):
#   PURGE <path>                  drop that URL
#   BAN / with X-Purge-Tags: a b  drop every object whose Surrogate-Key holds one of the tags
#   BAN / with X-Purge-All: 1     drop everything
# The tests (tests/integration/cdn-purge-varnish.test.ts) write the backend's port in.

import std;

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

sub vcl_backend_response {
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

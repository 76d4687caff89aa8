"use strict";

const { isReservedFor, ROLES } = require("./admin-grants");

/**
 * On every start (src/index.js, after the admin's bootstrap, which creates the default roles and
 * re-grants the Super Admin): removes each admin role's grants on a content type that src/admin-grants.js
 * reserves for others: the project's plugin types from every role, the users-permissions users and
 * Strapi's hidden types from every role but the Super Admin. A database made before those decisions
 * (an Editor's full rights on `oauth-identity`, an Author's on their own rows) loses them here;
 * Strapi's own clean-up at start keeps a read grant on a hidden type. Returns what was removed (logged).
 */
async function removeUndecidedGrants(strapi) {
  const permissions = await strapi.db.query("admin::permission").findMany({
    where: { subject: { $in: Object.keys(strapi.contentTypes) } },
    select: ["id", "action", "subject"],
    populate: { role: { select: ["code"] } },
  });
  const removed = permissions.filter(
    (permission) =>
      permission.role &&
      isReservedFor(permission.role.code, permission.subject, strapi.contentTypes, permission.action),
  );
  if (removed.length === 0) return [];
  await strapi.service("admin::permission").deleteByIds(removed.map((permission) => permission.id));
  // The Super Admin's read of the plugins' types comes back at every start (Strapi's reset): not worth a line.
  const news = removed.filter((permission) => permission.role.code !== ROLES.SUPER_ADMIN);
  if (news.length > 0)
    strapi.log.warn(
      `[admin-grants] removed grants no one decided (src/admin-grants.js): ${news
        .map(({ role, action, subject }) => `${role.code} ${action} ${subject}`)
        .join("; ")}`,
    );
  return removed;
}

module.exports = { removeUndecidedGrants };

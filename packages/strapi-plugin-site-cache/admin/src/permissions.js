/**
 * The plugin's admin actions as the admin UI checks them (useRBAC, the menu link); the server's
 * list is server/admin-actions.js. Module-level arrays: useRBAC re-checks whenever they change.
 */
export const REVALIDATE_PERMISSION = [{ action: "plugin::site-cache.revalidate", subject: null }];
export const PURGE_PERMISSION = [{ action: "plugin::site-cache.purge-cdn", subject: null }];

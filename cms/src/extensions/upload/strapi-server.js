"use strict";

const { errors } = require("@strapi/utils");

const { refusalOf } = require("../../uploads/upload-policy");

/**
 * The upload plugin, extended (Strapi loads src/extensions/<plugin>/strapi-server.js): its upload
 * service refuses a file whose content is not an accepted type before anything is written (no
 * file in the provider, no files row), src/uploads/upload-policy.js says why Strapi's own check is
 * not enough. In the service, not in a route: every way in (the media library's upload and replace,
 * an upload from a URL, the Content API's /api/upload) reaches the same two functions.
 */
async function refuseActiveContent(files) {
  for (const file of [files].flat()) {
    const refusal = await refusalOf(file);
    if (refusal) throw new errors.ValidationError(refusal, { name: file.originalFilename ?? null });
  }
}

module.exports = (plugin) => {
  const createUploadService = plugin.services.upload;
  plugin.services.upload = (context) => {
    const service = createUploadService(context);
    return {
      ...service,
      async upload(input, options) {
        // A batch is refused whole: one bad file stores none of them.
        await refuseActiveContent(input.files);
        return service.upload(input, options);
      },
      async replace(id, input, options) {
        await refuseActiveContent(input.file);
        return service.replace(id, input, options);
      },
    };
  };
  return plugin;
};

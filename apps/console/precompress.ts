import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin } from "vite";

const compressible = /\.(js|css|html|svg|json)$/;

/**
 * Writes a Brotli and a gzip copy beside each text file of the build (`app.js.br`, `app.js.gz`),
 * which the API serves to browsers that accept them (@fastify/static `preCompressed`): the console's
 * code travels compressed without the API compressing it again on every request.
 */
export function precompress(): Plugin {
  return {
    name: "orrery:precompress",
    apply: "build",
    writeBundle(options, bundle) {
      for (const [name, file] of Object.entries(bundle)) {
        if (!compressible.test(name)) continue;
        const content = Buffer.from(file.type === "chunk" ? file.code : file.source);
        if (content.length < 1024) continue;
        const path = join(options.dir!, name);
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

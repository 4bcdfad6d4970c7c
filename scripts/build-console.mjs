#!/usr/bin/env node
// Builds the console only when what it is built from changed since the last build: `npm start`
// then restarts in a few seconds instead of rebuilding every time. The stamp is a hash of the
// console's sources, the model package it imports, the build configuration and the lock file,
// kept beside the build output. `--force` builds anyway.
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "apps/console/dist");
const stampFile = join(dist, ".build-stamp");
const inputs = [
  "apps/console/src",
  "apps/console/public",
  "apps/console/index.html",
  "apps/console/vite.config.ts",
  "apps/console/inline-start-early.ts",
  "apps/console/precompress.ts",
  "apps/console/package.json",
  "apps/console/tsconfig.json",
  "packages/model/src",
  "packages/model/package.json",
  "package-lock.json",
];

function* files(path) {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).sort()) yield* files(join(path, entry));
  } else yield path;
}

const hash = createHash("sha256");
for (const input of inputs) {
  for (const file of files(join(root, input))) {
    hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  }
}
const stamp = hash.digest("hex");
const built = existsSync(stampFile) ? readFileSync(stampFile, "utf8").trim() : "";

if (built === stamp && !process.argv.includes("--force")) {
  console.log("console: up to date, not rebuilt");
} else {
  const result = spawnSync("npm", ["run", "build", "-w", "@orrery/console"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stampFile, `${stamp}\n`);
}

import { buildApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { loadDemoContextData } from "./demo/demo-context-data.ts";
import { loadDemoData } from "./demo/demo-data.ts";
import { demoUsers } from "./auth/providers/dev.ts";
import { say } from "./messages/say.ts";
import { openStorage } from "./storage/database.ts";

const config = loadConfig(process.env, process.argv.slice(2));
const storage = await openStorage(config);
const { app, records, sessions } = await buildApp(config, storage);

if (config.loadDemo) {
  const loaded = await loadDemoData(storage.db, records, config);
  if (loaded) app.log.info("demo data loaded (start with --no-demo to skip)");
}

const close = async () => {
  await app.close();
  await storage.close();
  process.exit(0);
};
process.once("SIGINT", close);
process.once("SIGTERM", close);

await app.listen({ port: config.port, host: config.host });

if (config.loadDemo) {
  // Context data goes through the API and the broker over HTTP, so the server must be listening.
  try {
    if (await loadDemoContextData(storage.db, records, sessions, config, app.log))
      app.log.info("demo workspaces loaded: Supermarket, Farm, Smart city");
  } catch (err) {
    app.log.error({ err }, "demo context data could not be loaded");
  }
}

const lines = [
  "",
  `  Orrery is running at ${config.publicUrl}/`,
  `  API documentation:  ${config.publicUrl}/api/docs`,
  `  Storage: ${storage.driver} ${storage.version}${storage.driver === "pglite" ? ` in ${config.dataDir}` : ""}`,
];
if (config.authProvider === "dev") {
  lines.push(
    "  Demo logins (username / password):",
    ...demoUsers.map((u) => `    ${u.username.padEnd(9)} / ${u.username.padEnd(9)} ${say("en", u.summary)}`),
    "  WARNING: the development identity manager accepts these demo passwords. Never expose it to the internet.",
  );
}
console.log(lines.join("\n") + "\n");

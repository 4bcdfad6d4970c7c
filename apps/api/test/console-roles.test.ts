import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { Config } from "../src/config.ts";
import { consoleRoles } from "../src/users/console-roles.ts";

// Which roles carry console permissions, for each sign-in provider: the roles of
// config/permissions.yaml, and every role of the console's own application.

describe("the console's own roles", () => {
  it("are config/permissions.yaml's and every role of the console's Keyrock, OIDC or development application", () => {
    const permissionsFile = resolve(import.meta.dirname, "../../../config/permissions.yaml");
    const settings = (authProvider: Config["authProvider"]) =>
      ({
        authProvider,
        permissionsFile,
        keyrock: { clientId: "7a3c-Orrery-App" },
        oidc: { clientId: "orrery-oidc" },
      }) as Config;
    const keyrock = consoleRoles(settings("keyrock"));
    for (const name of ["admin", "Operator", " viewer", "SHOWROOM"])
      expect(keyrock.isConsoleRole(name), name).toBe(true);
    expect(keyrock.isConsoleRole("tenant-admin")).toBe(false);
    // Keyrock's MariaDB finds an application whatever the case and trailing spaces of its id.
    expect(keyrock.isConsoleApplication("7a3c-orrery-app ")).toBe(true);
    expect(keyrock.isConsoleApplication("market-app")).toBe(false);
    expect(consoleRoles(settings("oidc")).isConsoleApplication("orrery-oidc")).toBe(true);
    expect(consoleRoles(settings("dev")).isConsoleApplication("orrery-console")).toBe(true);
    expect(consoleRoles(settings("dev")).isConsoleApplication("7a3c-Orrery-App")).toBe(false);
  });
});

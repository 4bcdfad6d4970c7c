import { loadPolicy } from "../auth/policy.ts";
import { DEV_CONSOLE_APPLICATION } from "../auth/providers/dev-directory.ts";
import type { Config } from "../config.ts";

/** Role and application names as an identity manager compares them (MariaDB's collation ignores case and trailing spaces). */
const normal = (name: string) => name.trim().toLowerCase();

export interface ConsoleRoles {
  /** A role of config/permissions.yaml, whatever its case. */
  isConsoleRole(name: string): boolean;
  /** The console's own application, whose every role the console reads at sign-in. */
  isConsoleApplication(clientId: string): boolean;
}

/**
 * The roles that carry console permissions, which no contract detail may name and no workspace
 * may give, so that giving a contract role can make nobody more than they are: the roles of
 * config/permissions.yaml (the dev and OpenID Connect providers' sign-in reads them by name) and
 * every role of the console's own application at its identity manager (Keyrock's sign-in reads
 * the permissions of every role held there): the Keyrock or OpenID Connect client of the console,
 * or the development identity manager's console application.
 */
export function consoleRoles(config: Config): ConsoleRoles {
  const names = new Set(loadPolicy(config.permissionsFile).roleNames.map(normal));
  const application = {
    dev: DEV_CONSOLE_APPLICATION,
    keyrock: config.keyrock.clientId,
    oidc: config.oidc.clientId,
  }[config.authProvider];
  return {
    isConsoleRole: (name) => names.has(normal(name)),
    isConsoleApplication: (clientId) => !!application && normal(clientId) === normal(application),
  };
}

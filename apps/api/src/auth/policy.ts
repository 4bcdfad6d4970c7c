import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { z } from "zod";
import type { Permission } from "@orrery/model";

const policySchema = z.object({
  roles: z.record(
    z.string(),
    z.array(
      z.object({ action: z.string().min(1), resource: z.string().min(1), exact: z.boolean().optional() }),
    ),
  ),
});

/** The role-to-permission map of config/permissions.yaml, used by the dev and OIDC providers. */
export interface Policy {
  permissionsFor(roles: readonly string[]): Permission[];
  /** The roles the file names: each carries console permissions. */
  readonly roleNames: readonly string[];
}

export function loadPolicy(file: string): Policy {
  const parsed = policySchema.safeParse(parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} is not a valid permissions file: ${parsed.error.message}`);
  const { roles } = parsed.data;
  return {
    roleNames: Object.keys(roles),
    permissionsFor(names) {
      const seen = new Set<string>();
      const key = (p: Permission) => `${p.action} ${p.exact ? "=" : "~"} ${p.resource}`;
      return names
        .flatMap((name) => roles[name] ?? [])
        .map((p): Permission => ({ ...p, action: p.action.toUpperCase() }))
        .filter((p) => !seen.has(key(p)) && seen.add(key(p)));
    },
  };
}

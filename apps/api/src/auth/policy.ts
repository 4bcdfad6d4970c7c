import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { z } from "zod";
import type { Permission } from "@orrery/model";

const policySchema = z.object({
  roles: z.record(z.string(), z.array(z.object({ action: z.string().min(1), resource: z.string().min(1) }))),
});

/** The role-to-permission map of config/permissions.yaml, used by the dev and OIDC providers. */
export interface Policy {
  permissionsFor(roles: readonly string[]): Permission[];
}

export function loadPolicy(file: string): Policy {
  const parsed = policySchema.safeParse(parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} is not a valid permissions file: ${parsed.error.message}`);
  const { roles } = parsed.data;
  return {
    permissionsFor(names) {
      const seen = new Set<string>();
      return names
        .flatMap((name) => roles[name] ?? [])
        .map((p) => ({ action: p.action.toUpperCase(), resource: p.resource }))
        .filter((p) => !seen.has(`${p.action} ${p.resource}`) && seen.add(`${p.action} ${p.resource}`));
    },
  };
}

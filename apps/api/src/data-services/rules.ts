import { dataServiceAccesses, roleNameOf, roles } from "@orrery/model";
import { fieldError, invalid } from "../problems.ts";
import type { KindHooks } from "../resources/kind-routes.ts";
import type { Records } from "../resources/records.ts";

/**
 * The rules of roles and data service accesses that need other records: a role starts
 * unsynchronised and its validity ends after it begins, its roleName made from its name when a
 * client sends none; an access carries its role's roleName (the access subject of the role's
 * iSHARE policy), kept in step, in the role's update, when the role's roleName changes.
 */
export function dataServiceHooks(records: Records): Record<string, KindHooks> {
  return {
    roles: {
      async prepare(input, { id, workspaceId }) {
        if (Number(input.notOnOrAfter) <= Number(input.notBefore))
          throw invalid([fieldError("notOnOrAfter", "field.afterField", { field: "notBefore" })]);
        if (!id)
          Object.assign(input, { synchronized: false, synchronizationTime: 0, lastDelegationEvidence: null });
        // Clients older than roleName leave it out: the name's words joined, as the form proposes.
        if (!id && input.roleName === undefined) input.roleName = roleNameOf(String(input.name));
        if (input.roleName === "") throw invalid([fieldError("roleName", "field.required")]);
        // The registry's policy is under the old access subject: nothing proves the new one.
        if (id && input.roleName !== undefined) {
          const stored = await records.find(roles, id, workspaceId);
          if (stored && stored.data.roleName !== input.roleName) input.synchronized = false;
        }
        return input;
      },
      // Its accesses carry its roleName along, in the same transaction as the role's update.
      async dependents({ id, after }, tx) {
        for (const access of await tx.referring(dataServiceAccesses, "hasRole", id))
          if (access.data.roleName !== after.roleName)
            await tx.carry(dataServiceAccesses, access.id, { roleName: after.roleName });
        return [];
      },
    },
    "data-service-accesses": {
      async prepare(input, { workspaceId }) {
        const role = await records.find(roles, String(input.hasRole), workspaceId);
        // A role of another workspace or none: the reference check names it.
        if (role) input.roleName = role.data.roleName;
        return input;
      },
    },
  };
}

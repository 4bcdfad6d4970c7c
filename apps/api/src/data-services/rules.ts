import { dataServiceAccesses, roles } from "@orrery/model";
import { fieldError, invalid } from "../problems.ts";
import type { KindHooks } from "../resources/kind-routes.ts";
import type { Records } from "../resources/records.ts";

/**
 * The rules of roles and data service accesses that need other records: a role starts
 * unsynchronised and its validity ends after it begins; an access carries its role's name
 * (`roleName`, the access subject of the role's iSHARE policy), kept in step when the role is renamed.
 */
export function dataServiceHooks(records: Records): Record<string, KindHooks> {
  return {
    roles: {
      async prepare(input, { id }) {
        if (Number(input.notOnOrAfter) <= Number(input.notBefore))
          throw invalid([fieldError("notOnOrAfter", "field.afterField", { field: "notBefore" })]);
        if (!id)
          Object.assign(input, { synchronized: false, synchronizationTime: 0, lastDelegationEvidence: null });
        return input;
      },
      async changed({ workspaceId, id }) {
        if (!workspaceId || !id) return;
        const role = await records.find(roles, id, workspaceId);
        if (!role) return;
        for (const access of await records.list(dataServiceAccesses, workspaceId))
          if (access.hasRole === id && access.roleName !== role.data.name)
            await records.patchData(dataServiceAccesses, access.id, { roleName: role.data.name });
      },
    },
    "data-service-accesses": {
      async prepare(input, { workspaceId }) {
        const role = await records.find(roles, String(input.hasRole), workspaceId);
        // A role of another workspace or none: the reference check names it.
        if (role) input.roleName = role.data.name;
        return input;
      },
    },
  };
}

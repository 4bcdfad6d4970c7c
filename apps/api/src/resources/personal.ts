import type { FastifyRequest } from "fastify";
import { isAllowed, type KindDefinition } from "@orrery/model";
import { asSegment } from "../auth/guard.ts";

type Item = { id: string; [field: string]: unknown };

/** Whether a kind has fields of personal data (an identity manager grant's user name). */
export const hasPersonalFields = (kind: KindDefinition) => kind.fields.some((f) => f.personal);

/**
 * Records as a reader may see them: personal fields only for those who may change the record
 * (PUT on its path, as the guard decides it). A showroom, or anyone who only reads, gets the rest.
 */
export function withoutPersonal(
  kind: KindDefinition,
  request: FastifyRequest,
  collection: string,
  items: Item[],
) {
  const permissions = request.session?.permissions ?? [];
  const personal = kind.fields.filter((f) => f.personal).map((f) => f.name);
  return items.map((item) => {
    if (isAllowed(permissions, "PUT", `${collection}/${asSegment(item.id)}`)) return item;
    const shown = { ...item };
    for (const name of personal) delete shown[name];
    return shown;
  });
}

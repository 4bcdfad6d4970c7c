import type { MessageCode } from "../messages/say.ts";
import { fieldError, problem, type Problem } from "../problems.ts";

/** The unique indexes (migrations 0005, 0010, 0012 and 0013): the field each one holds, and how its clash is told. */
const clashes: Record<string, { field: string; code: MessageCode }> = {
  records_unique_data_model_name: { field: "dataModelName", code: "conflict.dataModelName" },
  records_unique_type_name: { field: "name", code: "conflict.typeName" },
  records_unique_property_name: { field: "name", code: "conflict.propertyName" },
  // Migration 0012: the names of a thing description's affordances and routings, of an action's inputs.
  records_unique_wot_property_name: { field: "name", code: "conflict.wotPropertyName" },
  records_unique_wot_action_name: { field: "name", code: "conflict.wotActionName" },
  records_unique_wot_event_name: { field: "name", code: "conflict.wotEventName" },
  records_unique_routing_name: { field: "name", code: "conflict.routingName" },
  records_unique_wot_input_name: { field: "name", code: "conflict.wotInputName" },
  // Migration 0010: a role's roleName, its access subject in the authorization registry.
  records_unique_role_name: { field: "roleName", code: "conflict.roleName" },
  // Migration 0013: names and sequence numbers a workspace needs unique; migration 0025 compares
  // the names of roles, data services, thing descriptions and broker clients without case.
  records_unique_named_role: { field: "name", code: "conflict.roleTitle" },
  records_unique_data_service_name: { field: "name", code: "conflict.dataServiceName" },
  records_unique_thing_description_name: { field: "name", code: "conflict.thingDescriptionName" },
  records_unique_operation_sequence: { field: "sequenceNumber", code: "conflict.operationSequence" },
  // Migration 0019: a broker client's name, which the data access log shows.
  records_unique_broker_client_name: { field: "name", code: "conflict.brokerClientName" },
};

/** The error of a storage driver, bare or wrapped by the ORM: its SQLSTATE and message. */
function storageError(err: unknown): { code?: string; message: string } {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const own = err as { code?: string; message?: string };
  return own.code
    ? { code: own.code, message: own.message ?? "" }
    : { code: cause?.code, message: `${own.message} ${cause?.message ?? ""}` };
}

/**
 * A 409 naming the clash when a write broke one of the unique names (two operators, or two
 * requests, creating the same name at once); undefined for any other error.
 */
export function uniqueClash(err: unknown, data: Record<string, unknown>): Problem | undefined {
  const { code, message } = storageError(err);
  if (code !== "23505") return undefined;
  const index = Object.keys(clashes).find((name) => message.includes(name));
  if (!index) return problem(409, "conflict.unique");
  const { field, code: messageCode } = clashes[index]!;
  const value = String(data[field] ?? "");
  const clash = fieldError(field, messageCode, { value });
  return problem(409, messageCode, { value }, { errors: [clash] });
}

/** Runs a write, answering a broken unique name as a 409 that names it. */
export async function uniquely<T>(data: Record<string, unknown>, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw uniqueClash(err, data) ?? err;
  }
}

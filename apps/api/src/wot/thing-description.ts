import {
  dataServices,
  properties,
  types,
  woTActionInputProperties,
  woTActions,
  woTEvents,
  woTProperties,
} from "@orrery/model";
import type { Item, Records } from "../resources/records.ts";
import { capacityOf, capacityText, type Capacity } from "./capacity.ts";

/** The JSON Schema type of a property of the data model, as a WoT consumer reads its value. */
function valueType(property: Item | undefined): Record<string, unknown> {
  if (!property) return {};
  if (property.ngsiLdType === "Relationship") return { type: "string", format: "iri" };
  if (property.ngsiLdType === "GeoProperty") return { type: "object" };
  const type = { String: "string", Number: "number", Boolean: "boolean", Object: "object", Array: "array" }[
    String(property.propertyNgsiLdValueType)
  ];
  return type ? { type } : {};
}

/** The JSON Schema terms a capacity adds to a value of the given type. */
function capacityTerms(capacity: Capacity, type: unknown): Record<string, unknown> {
  if (capacity.type === "Range")
    return type === "number" ? { minimum: capacity.minimum, maximum: capacity.maximum } : {};
  if (capacity.type === "ListOfValues") return { enum: capacity.values };
  if (capacity.type === "FixedValue") {
    const value =
      type === "number"
        ? Number(capacity.value)
        : type === "boolean"
          ? capacity.value === "true"
          : capacity.value;
    return type === "number" && Number.isNaN(value) ? {} : { const: value };
  }
  return {};
}

const text = (item: Item) => (item.description ? { description: String(item.description) } : {});

/** The entity a consumer reads or acts on, named in the form's URI template; `entityId` as its default. */
const entityVariable = (typeName: string, entityId?: string) => ({
  entityId: {
    type: "string",
    title: "entityId",
    description: `The id of the ${typeName} entity to read or act on (urn:ngsi-ld:${typeName}:...).`,
    ...(entityId ? { default: entityId } : {}),
  },
});

/**
 * The forms of an observation (observeproperty, subscribeevent): one address that long-polls by
 * default and streams Server-Sent Events when asked. Long polling comes first because consumers
 * send their credentials with it: node-wot 0.9 (and a browser's EventSource) opens Server-Sent
 * Events without the Authorization header, which these private data need. No htv:methodName: the
 * binding's default (GET) holds, and a long poll's handshake is a HEAD that node-wot would turn
 * into the named method.
 */
const liveForms = (href: string, op: string[]) =>
  ["longpoll", "sse"].map((subprotocol) => ({ href, op, subprotocol, contentType: "application/json" }));

/**
 * The W3C WoT Thing Description 1.1 of a thing description record: one TD for the type, the
 * entity named by the `entityId` URI variable of each form (given `entityId`, the variable's
 * default: the TD of that entity, for consumers that read all properties without URI variables,
 * as node-wot 0.9 does). Properties read the linked attribute of the entity (GET
 * .../wot-properties/{id}/value), all at once (GET .../wot-thing-descriptions/{id}/property-values)
 * and observe it (GET .../wot-properties/{id}/changes); actions write their inputs to it (POST
 * .../wot-actions/{id}/execute); events are the new values of their WoT property within the
 * event's capacity (GET .../wot-events/{id}/changes), both through the API's live channel.
 * Security: Orrery's bearer tokens (a session or an API token), in the Authorization header.
 */
export async function thingDescription(
  records: Records,
  td: Item,
  workspaceId: string,
  publicUrl: string,
  entityId?: string,
) {
  const [typeRow, wotProps, actions, inputs, events, props, services] = await Promise.all([
    records.find(types, String(td.hasType), workspaceId),
    records.list(woTProperties, workspaceId),
    records.list(woTActions, workspaceId),
    records.list(woTActionInputProperties, workspaceId),
    records.list(woTEvents, workspaceId),
    records.list(properties, workspaceId),
    records.list(dataServices, workspaceId),
  ]);
  const typeName = String(typeRow?.data.name ?? "");
  const mine = (item: Item) => item.hasWoTThingDescription === td.id;
  const propertyById = new Map(props.map((p) => [p.id, p]));
  const api = `api/workspace/${encodeURIComponent(workspaceId)}`;
  const uriVariables = entityVariable(typeName, entityId);
  const query = "{?entityId}";
  const byName = (a: Item, b: Item) => String(a.name).localeCompare(String(b.name));
  const inputsOf = new Map<string, Item[]>();
  for (const input of inputs) {
    const list = inputsOf.get(String(input.hasWoTAction)) ?? [];
    list.push(input);
    inputsOf.set(String(input.hasWoTAction), list);
  }

  const wotPropertyTerms = (wotProperty: Item | undefined) => {
    const type = valueType(propertyById.get(String(wotProperty?.hasProperty)));
    const capacity = wotProperty
      ? capacityOf(wotProperty.capacityType, wotProperty.capacityValue)
      : undefined;
    return { ...type, ...(capacity && !("refused" in capacity) ? capacityTerms(capacity, type.type) : {}) };
  };

  const propertyAffordances = Object.fromEntries(
    wotProps
      .filter(mine)
      .sort(byName)
      .map((p) => [
        String(p.name),
        {
          title: String(p.name),
          ...text(p),
          ...wotPropertyTerms(p),
          readOnly: true,
          observable: true,
          uriVariables,
          forms: [
            {
              href: `${api}/wot-properties/${encodeURIComponent(p.id)}/value${query}`,
              op: ["readproperty"],
              contentType: "application/json",
              "htv:methodName": "GET",
            },
            ...liveForms(`${api}/wot-properties/${encodeURIComponent(p.id)}/changes${query}`, [
              "observeproperty",
              "unobserveproperty",
            ]),
          ],
        },
      ]),
  );

  const inputSchema = (input: Item) => ({
    type: String(input.propertyType),
    ...text(input),
    ...(typeof input.minimum === "number" ? { minimum: input.minimum } : {}),
    ...(typeof input.maximum === "number" ? { maximum: input.maximum } : {}),
    ...(Array.isArray(input.enum) ? { enum: input.enum } : {}),
  });

  const actionAffordances = Object.fromEntries(
    actions
      .filter(mine)
      .sort(byName)
      .map((a) => {
        const own = (inputsOf.get(a.id) ?? []).sort(byName);
        const required = own.filter((i) => i.required === true).map((i) => String(i.name));
        return [
          String(a.name),
          {
            title: String(a.name),
            ...text(a),
            ...(own.length
              ? {
                  input: {
                    type: "object",
                    properties: Object.fromEntries(own.map((i) => [String(i.name), inputSchema(i)])),
                    ...(required.length ? { required } : {}),
                    additionalProperties: false,
                  },
                }
              : {}),
            safe: false,
            idempotent: false,
            uriVariables,
            forms: [
              {
                href: `${api}/wot-actions/${encodeURIComponent(a.id)}/execute${query}`,
                op: ["invokeaction"],
                contentType: "application/json",
                "htv:methodName": "POST",
              },
            ],
          },
        ];
      }),
  );

  const eventAffordances = Object.fromEntries(
    events
      .filter(mine)
      .sort(byName)
      .map((e) => {
        const service = services.find((s) => s.id === e.hasDataService);
        const wotProperty = wotProps.find((p) => p.id === e.hasWoTProperty);
        const capacity = capacityOf(e.capacityType, e.capacityValue);
        return [
          String(e.name),
          {
            title: String(e.name),
            description: String(
              e.description ??
                `A new value of ${String(wotProperty?.name ?? e.hasWoTProperty)} on the ${typeName} entity${
                  "refused" in capacity || capacity.type === "FreeText"
                    ? ""
                    : ` within ${capacityText(capacity)}`
                }, as the data service ${String(service?.name ?? e.hasDataService)} notifies it.`,
            ),
            data: wotPropertyTerms(wotProperty),
            uriVariables,
            forms: liveForms(`${api}/wot-events/${encodeURIComponent(e.id)}/changes${query}`, [
              "subscribeevent",
              "unsubscribeevent",
            ]),
          },
        ];
      }),
  );

  return {
    "@context": "https://www.w3.org/2022/wot/td/v1.1",
    "@type": "Thing",
    id: td.id,
    title: String(td.name),
    ...text(td),
    base: `${publicUrl}/`,
    securityDefinitions: {
      bearer_sc: {
        scheme: "bearer",
        in: "header",
        name: "Authorization",
        format: "opaque",
        description: "An Orrery bearer token: sign in to the console, or make an API token (npm run token).",
      },
    },
    security: ["bearer_sc"],
    uriVariables,
    forms: [
      {
        href: `${api}/wot-thing-descriptions/${encodeURIComponent(String(td.id))}/property-values${query}`,
        op: ["readallproperties"],
        contentType: "application/json",
        "htv:methodName": "GET",
      },
    ],
    properties: propertyAffordances,
    actions: actionAffordances,
    events: eventAffordances,
  };
}

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
import { capacityOf, capacityText, valueTypeOf, type Capacity } from "./capacity.ts";
import { STREAM_TOKEN, STREAM_TOKEN_MS } from "./stream-tokens.ts";

/** The JSON Schema type of a property of the data model, as a WoT consumer reads its value. */
function valueType(property: Item | undefined): Record<string, unknown> {
  const type = valueTypeOf(property);
  if (!type) return {};
  return property?.ngsiLdType === "Relationship" ? { type, format: "iri" } : { type };
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

/** The entity a consumer reads or acts on, named in the form's URI template. */
const entityVariable = (typeName: string) => ({
  entityId: {
    type: "string",
    title: "entityId",
    description:
      `The id of the ${typeName} entity to read or act on (urn:ngsi-ld:${typeName}:...), in the query of every form; a form without it answers 400. ` +
      "The TD of one entity (this TD's address with ?entityId=, its link of relation item) names it in every form, for consumers that give no URI variables.",
  },
});

/**
 * The Thing-level URI variable of the TD for every entity: what it names, and why reading all
 * properties at once takes the TD of one entity. node-wot 0.9.2 never reads a Thing-level form
 * (its ConsumedThing has no use of `forms` of the Thing): ConsumedThing.readAllProperties (and readMultipleProperties) read each property through
 * ConsumedThing._readProperties, which calls readProperty(name) with no options, so the
 * uriVariables given are dropped, and only a Thing-level variable's `default`
 * (Helpers.parseInteractionOptions) reaches a form; no default names one entity among all.
 */
const thingVariable = (typeName: string) => ({
  entityId: {
    ...entityVariable(typeName).entityId,
    description:
      `The id of the ${typeName} entity to read or act on (urn:ngsi-ld:${typeName}:...), in the query of every form (?entityId=); a form without it answers 400. ` +
      "To read all properties at once (readallproperties), consume the TD of one entity: this TD's address with ?entityId=, its link of relation item. " +
      "Its forms, a Thing-level one included, name the entity, as consumers that give no URI variables need: " +
      "node-wot 0.9's readAllProperties reads each property and passes them none.",
  },
});

/**
 * The forms of an observation (observeproperty, subscribeevent): one address that long-polls by
 * default and streams Server-Sent Events when asked, both with the bearer token in the
 * Authorization header. Clients that cannot send that header with Server-Sent Events (node-wot 0.9,
 * a browser's EventSource) get, in a TD fetched with a bearer token, a first form whose href
 * carries a stream token (scheme stream_sc): they open it as it is. No htv:methodName: the
 * binding's default (GET) holds, and a long poll's handshake is a HEAD that node-wot would turn
 * into the named method.
 */
const liveForms = (href: (extra: string) => string, op: string[], streamToken?: string) => [
  ...(streamToken
    ? [
        {
          href: href(`${STREAM_TOKEN}=${encodeURIComponent(streamToken)}`),
          op,
          subprotocol: "sse",
          contentType: "application/json",
        },
      ]
    : []),
  ...["longpoll", "sse"].map((subprotocol) => ({
    href: href(""),
    op,
    subprotocol,
    contentType: "application/json",
  })),
];

/** What a thing description is served for: one entity (named in every form), and a stream token. */
export interface Served {
  entityId?: string;
  streamToken?: string;
}

/**
 * The W3C WoT Thing Description 1.1 of a thing description record: one TD for the type, the
 * entity named by the `entityId` URI variable of each form; given `entityId`, the TD of that
 * entity, every form's href naming it (no URI variables: node-wot 0.9 reads all properties, and
 * any consumer acts, without giving any). Properties read the linked attribute of the entity (GET
 * .../wot-properties/{id}/value), all at once (GET .../wot-thing-descriptions/{id}/property-values,
 * a Thing-level form of the TD of one entity only, which the TD for every entity links to) and
 * observe it (GET .../wot-properties/{id}/changes); actions write their inputs to it (POST
 * .../wot-actions/{id}/execute); events are the new values of their WoT property within the
 * event's capacity (GET .../wot-events/{id}/changes), both through the API's live channel.
 * Security: Orrery's bearer tokens (a session or an API token), in the Authorization header; a
 * stream token in the query of the Server-Sent Events forms of a TD fetched with one.
 */
export async function thingDescription(
  records: Records,
  td: Item,
  workspaceId: string,
  publicUrl: string,
  served: Served = {},
) {
  const { entityId, streamToken } = served;
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
  // The entity: a URI variable of every form, or named in their hrefs.
  const variables = entityId ? {} : { uriVariables: entityVariable(typeName) };
  const at = (path: string, extra = "") =>
    entityId
      ? `${path}?${[`entityId=${encodeURIComponent(entityId)}`, extra].filter(Boolean).join("&")}`
      : extra
        ? `${path}?${extra}{&entityId}`
        : `${path}{?entityId}`;
  const tdPath = `wot-thing-descriptions/${encodeURIComponent(String(td.id))}`;
  // All properties at once: a Thing-level form in the TD of one entity; the TD for every entity
  // links to those (see thingVariable: node-wot 0.9 would not give the entity to a Thing-level form).
  const thingLevel = entityId
    ? {
        links: [{ rel: "collection", href: tdPath, type: "application/td+json" }],
        forms: [
          {
            href: at(`${api}/wot-thing-descriptions/${encodeURIComponent(String(td.id))}/property-values`),
            op: ["readallproperties"],
            contentType: "application/json",
            "htv:methodName": "GET",
          },
        ],
      }
    : {
        uriVariables: thingVariable(typeName),
        links: [{ rel: "item", href: `${tdPath}{?entityId}`, type: "application/td+json" }],
      };
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
          ...variables,
          forms: [
            {
              href: at(`${api}/wot-properties/${encodeURIComponent(p.id)}/value`),
              op: ["readproperty"],
              contentType: "application/json",
              "htv:methodName": "GET",
            },
            ...liveForms(
              (extra) => at(`${api}/wot-properties/${encodeURIComponent(p.id)}/changes`, extra),
              ["observeproperty", "unobserveproperty"],
              streamToken,
            ),
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
            ...variables,
            forms: [
              {
                href: at(`${api}/wot-actions/${encodeURIComponent(a.id)}/execute`),
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
            ...variables,
            forms: liveForms(
              (extra) => at(`${api}/wot-events/${encodeURIComponent(e.id)}/changes`, extra),
              ["subscribeevent", "unsubscribeevent"],
              streamToken,
            ),
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
      stream_sc: {
        scheme: "apikey",
        in: "query",
        name: STREAM_TOKEN,
        description:
          `A stream token, for clients that cannot send the Authorization header with Server-Sent Events (EventSource): ` +
          `fetch this TD with a bearer token, and its first Server-Sent Events forms carry one in their href, ` +
          `read-only, for this thing's observations the token's holder may open, valid ${STREAM_TOKEN_MS / 60_000} minutes.`,
      },
    },
    security: ["bearer_sc"],
    ...thingLevel,
    properties: propertyAffordances,
    actions: actionAffordances,
    events: eventAffordances,
  };
}

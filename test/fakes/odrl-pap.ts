import { listen, readBody, sendJson, type Listening } from "./http.ts";

/**
 * A fake ODRL-PAP (SEAMWARE/odrl-pap 1.4.3, api/odrl.yaml), stateful, answering as the Quarkus
 * service does (notes/fdsc.md §1, §2) rather than as its OpenAPI document says:
 * - create answers 200 with the generated Rego as text/plain and `Location: <id>` (the bare id,
 *   10 lowercase letters); PUT creates or overwrites; `main` is refused with a plain-text 409;
 * - a policy reads `{id, "odrl:uid", odrl: "<JSON as a string>", rego}`; lists are bare arrays paged
 *   by page/pageSize, without a total; unknown ids are 404 with an empty body; DELETE is always 204;
 * - invalid ODRL, a duplicate or reserved service id are 400 `{error, status, message, timestamp}`
 *   with the mapper's messages; an unknown service under /service/{sid}/policy is a 404 whose body is
 *   the bare text "Service X does not exist.";
 * - `/validate` answers only when the PAP has its own OPA (`validation: true`), else the rest
 *   client's failure as a 500;
 * - `GET /mappings` lists what the mapper knows.
 */
export interface FakePap extends Listening {
  readonly policies: Map<string, StoredPolicy>;
  readonly services: Map<string, { id: string; policyPath: string }>;
}

export interface StoredPolicy {
  id: string;
  uid: string;
  /** The compacted ODRL, as the PAP keeps it. */
  odrl: Record<string, unknown>;
  rego: string;
  /** The PAP service it belongs to; undefined for the global policies. */
  service?: string;
}

/** What the mapper maps (mapping.json): actions to HTTP methods, the operands and operators it knows. */
export const papMappings = {
  actions: {
    "odrl:read": ["GET"],
    "odrl:modify": ["PATCH"],
    "odrl:delete": ["DELETE"],
    "odrl:use": ["GET", "POST", "PUT", "PATCH", "DELETE"],
    "dome-op:read": ["GET"],
    "dome-op:modify": ["PATCH"],
    "dome-op:write": ["PUT"],
    "dome-op:create": ["POST"],
    "tmf:create": ["POST"],
    "ngsild:create": ["POST"],
  } as Record<string, string[]>,
  leftOperands: [
    "ngsi-ld:entityType",
    "ngsi-ld:entityTypeGroup",
    "http:path",
    "http:bodyValue",
    "vc:role",
    "vc:type",
    "vc:currentParty",
    "odrl:dateTime",
    "odrl:dayOfWeek",
    "odrl:hourOfDay",
    "dome-op:role",
    "dome-op:currentParty",
    "dome-op:relatedParty",
    "dome-op:owner",
    "tmf:lifecycleStatus",
    "tmf:resource",
    "ovc:leftOperand",
  ],
  operators: [
    "odrl:eq",
    "odrl:neq",
    "odrl:gt",
    "odrl:gteq",
    "odrl:lt",
    "odrl:lteq",
    "odrl:hasPart",
    "odrl:isPartOf",
    "odrl:isAllOf",
    "odrl:isAnyOf",
    "odrl:anyOf",
    "odrl:isNoneOf",
    "odrl:regex",
    "http:isInPath",
  ],
  operands: ["odrl:and", "odrl:andSequence", "odrl:or", "odrl:xone"],
};

const ODRL = "http://www.w3.org/ns/odrl/2/";
/** The small context the PAP compacts against. */
const CONTEXT = {
  odrl: ODRL,
  "dome-op": "https://dome-marketplace.eu/ontology/operations/",
  xsd: "http://www.w3.org/2001/XMLSchema#",
};

/** Mapper failures: the PAP answers them as 400 with their messages joined by ",". */
class Refused extends Error {}

type Json = Record<string, unknown>;

/**
 * Expansion then compaction, as far as the fake needs it: full ODRL IRIs become `odrl:` terms, and
 * unprefixed terms (`permission`) only when the body's context gives a vocabulary or maps them.
 */
function compact(value: unknown, context: unknown): unknown {
  const maps = (term: string): string | undefined => {
    const ctx = [context].flat().filter((c): c is Json => !!c && typeof c === "object");
    for (const c of ctx) {
      const mapped = c[term];
      if (typeof mapped === "string") return mapped;
      if (mapped && typeof mapped === "object" && typeof (mapped as Json)["@id"] === "string")
        return (mapped as Json)["@id"] as string;
      if (typeof c["@vocab"] === "string") return `${c["@vocab"] as string}${term}`;
    }
    if ([context].flat().some((c) => c === "http://www.w3.org/ns/odrl.jsonld")) return `${ODRL}${term}`;
    return undefined;
  };
  const term = (key: string) => {
    if (key.startsWith("@")) return key;
    if (key.startsWith(ODRL)) return `odrl:${key.slice(ODRL.length)}`;
    if (key.includes(":")) return key;
    const iri = maps(key);
    return iri?.startsWith(ODRL) ? `odrl:${iri.slice(ODRL.length)}` : iri ? iri : key;
  };
  // Compaction makes a one-item array its item (JSON-LD's compactArrays).
  if (Array.isArray(value))
    return value.length === 1 ? compact(value[0], context) : value.map((v) => compact(v, context));
  if (!value || typeof value !== "object") return typeof value === "string" ? term(value) : value;
  return Object.fromEntries(
    Object.entries(value as Json)
      .filter(([k]) => k !== "@context")
      .map(([k, v]) => [term(k), k === "@value" ? v : compact(v, context)]),
  );
}

const idOf = (v: unknown): string | undefined =>
  typeof v === "string"
    ? v
    : v && typeof v === "object"
      ? ((v as Json)["@id"] as string | undefined)
      : undefined;
const list = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const namespaced = (v: string) => {
  if (!/^[A-Za-z-]+:/.test(v)) throw new Refused(`${v} is not a namespaced value.`);
  return v;
};

/** Every constraint of a refinement or constraint tree, logical ones opened. */
function constraintsOf(value: unknown): Json[] {
  return list(value).flatMap((c) => {
    const constraint = c as Json;
    const logical = papMappings.operands.find((op) => constraint[op] !== undefined);
    return logical ? constraintsOf(constraint[logical]) : [constraint];
  });
}

function checkConstraint(constraint: Json): void {
  const left = idOf(constraint["odrl:leftOperand"]);
  const operator = idOf(constraint["odrl:operator"]);
  if (!left || !operator) throw new Refused("The constraint is incomplete.");
  if (!papMappings.leftOperands.includes(namespaced(left)))
    throw new Refused(`No mapping for \`leftOperand:${left}\` configured`);
  if (!papMappings.operators.includes(namespaced(operator)))
    throw new Refused(`No mapping for \`operator:${operator}\` configured`);
}

/** The policies of a body (one, or an @graph of them), checked as the mapper checks them. */
function policiesOf(body: Json): Json[] {
  const context = body["@context"];
  const compacted = compact(body, context) as Json;
  const found = compacted["@graph"] ? list(compacted["@graph"]).map((g) => g as Json) : [compacted];
  const valid = found.filter((p) => ["odrl:Policy", "odrl:Agreement"].includes(String(p["@type"])));
  if (!valid.length) throw new Refused("The odrl does not contain valid policies.");
  for (const policy of valid) {
    const uid = policy["odrl:uid"] ?? policy["@id"];
    if (typeof idOf(uid) !== "string") throw new Refused("The policy does not contain a valid UID.");
    const permissions = list(policy["odrl:permission"]) as Json[];
    if (!permissions.length) throw new Refused("The policy has no permission.");
    for (const permission of permissions) {
      if (!permission || typeof permission !== "object")
        throw new Refused("The object is not of a valid type odrl:Permission.");
      if (permission["@type"] !== undefined && permission["@type"] !== "odrl:Permission")
        throw new Refused("The object is not of a valid type odrl:Permission.");
      const action = idOf(permission["odrl:action"]);
      if (!action) throw new Refused("The permission does not contain an action.");
      if (!papMappings.actions[namespaced(action)])
        throw new Refused(`No mapping for \`action:${action}\` configured`);
      const target = (permission["odrl:target"] ?? policy["odrl:target"]) as Json | undefined;
      const assignee = (permission["odrl:assignee"] ?? policy["odrl:assignee"]) as Json | undefined;
      for (const c of [
        ...constraintsOf(target && typeof target === "object" ? target["odrl:refinement"] : undefined),
        ...constraintsOf(assignee && typeof assignee === "object" ? assignee["odrl:refinement"] : undefined),
        ...constraintsOf(permission["odrl:constraint"]),
      ])
        checkConstraint(c);
    }
  }
  return valid;
}

const letters = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(10)), (b) => String.fromCharCode(97 + (b % 26))).join("");

/** The Rego the PAP generates: one `is_allowed` rule per permission (shape of examples/odrl/3000). */
function regoOf(id: string, policy: Json): string {
  const rules = (list(policy["odrl:permission"]) as Json[]).map((permission) => {
    const action = idOf(permission["odrl:action"])!;
    const target = (permission["odrl:target"] ?? policy["odrl:target"]) as unknown;
    const assignee = (permission["odrl:assignee"] ?? policy["odrl:assignee"]) as unknown;
    const calls = [`\todrl_action.is_${action.split(":")[1]}(helper.http_part)`];
    const constraintCalls = (value: unknown) =>
      constraintsOf(value).map((c) => {
        const [ns, name] = idOf(c["odrl:leftOperand"])!.split(":") as [string, string];
        const op = idOf(c["odrl:operator"])!.split(":")[1];
        const right = c["odrl:rightOperand"];
        const literal = JSON.stringify(
          right && typeof right === "object" ? ((right as Json)["@value"] ?? idOf(right)) : right,
        );
        return `\todrl_operator.${op}_operator(${ns.replace("-", "")}_operand.${name}(helper.http_part), ${literal})`;
      });
    if (typeof target === "string")
      calls.push(`\todrl_target.is_target(helper.target, ${JSON.stringify(target)})`);
    else if (target) calls.push(...constraintCalls((target as Json)["odrl:refinement"]));
    if (typeof idOf(assignee) === "string" && !(assignee as Json)?.["@type"])
      calls.push(
        idOf(assignee) === "vc:any"
          ? "\tvc_assignee.is_any"
          : `\todrl_assignee.is_user(helper.issuer, ${JSON.stringify(idOf(assignee))})`,
      );
    else if (assignee) calls.push(...constraintCalls((assignee as Json)["odrl:refinement"]));
    calls.push(...constraintCalls(permission["odrl:constraint"]));
    return `is_allowed if {\n${calls.join("\n")}\n}`;
  });
  return [
    `package policy.${id}`,
    "",
    "import rego.v1",
    "",
    "import data.odrl.action as odrl_action",
    "import data.odrl.operator as odrl_operator",
    "import data.odrl.target as odrl_target",
    "import data.odrl.assignee as odrl_assignee",
    "import data.vc.assignee as vc_assignee",
    "import data.vc.leftOperand as vc_operand",
    "import data.ngsild.leftOperand as ngsild_operand",
    "import data.http.leftOperand as http_operand",
    "import data.utils.apisix as helper",
    "",
    "default is_allowed := false",
    "",
    ...rules,
    "",
  ].join("\n");
}

/** What a test request's bearer token says: the credential's types and its roles' names. */
function credentialOf(headers: Json | undefined): { types: string[]; roles: string[] } {
  const auth = String(headers?.authorization ?? headers?.Authorization ?? "");
  const payload = auth.replace(/^Bearer\s+/i, "").split(".")[1];
  try {
    const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8")) as Json;
    const vc = (claims.verifiableCredential ?? claims.vc) as Json | undefined;
    const subject = (vc?.credentialSubject ?? {}) as Json;
    return {
      types: list(vc?.type).map(String),
      roles: list(subject.roles).flatMap((r) => list((r as Json).names).map(String)),
    };
  } catch {
    return { types: [], roles: [] };
  }
}

/** Whether a request passes one policy: what OPA would decide with the generated Rego (enough for tests). */
function allows(policy: Json, request: Json): boolean {
  const method = String(request.method ?? "GET").toUpperCase();
  const path = String(request.path ?? "");
  const url = new URL(path, "http://pap.invalid");
  const body = (request.body ?? {}) as Json;
  const entityType = url.searchParams.get("type") ?? (typeof body.type === "string" ? body.type : undefined);
  const credential = credentialOf(request.headers as Json | undefined);
  const holds = (c: Json): boolean => {
    const logical = papMappings.operands.find((op) => c[op] !== undefined);
    if (logical === "odrl:or" || logical === "odrl:xone")
      return list(c[logical]).some((x) => holds(x as Json));
    if (logical) return list(c[logical]).every((x) => holds(x as Json));
    const left = idOf(c["odrl:leftOperand"]);
    const right = c["odrl:rightOperand"];
    const value = String(
      right && typeof right === "object" ? ((right as Json)["@value"] ?? idOf(right)) : right,
    );
    const actual: string[] =
      left === "ngsi-ld:entityType"
        ? entityType
          ? [entityType]
          : []
        : left === "vc:role"
          ? credential.roles
          : left === "vc:type"
            ? credential.types
            : left === "http:path"
              ? [url.pathname]
              : [];
    const op = idOf(c["odrl:operator"]);
    if (op === "odrl:neq") return !actual.includes(value);
    if (op === "http:isInPath") return actual.some((a) => a.startsWith(value));
    return actual.includes(value);
  };
  return (list(policy["odrl:permission"]) as Json[]).some((permission) => {
    const action = idOf(permission["odrl:action"])!;
    if (!papMappings.actions[action]?.includes(method)) return false;
    const target = permission["odrl:target"] ?? policy["odrl:target"];
    const assignee = permission["odrl:assignee"] ?? policy["odrl:assignee"];
    const refinementHolds = (party: unknown) =>
      !party ||
      typeof party !== "object" ||
      list((party as Json)["odrl:refinement"]).every((c) => holds(c as Json));
    if (typeof target === "string" && url.pathname.split("/").at(-1) !== target) return false;
    if (typeof idOf(assignee) === "string" && idOf(assignee) !== "vc:any" && !(assignee as Json)?.["@type"])
      return false;
    return (
      refinementHolds(target) &&
      refinementHolds(assignee) &&
      list(permission["odrl:constraint"]).every((c) => holds(c as Json))
    );
  });
}

export async function startFakePap(options: { port?: number; validation?: boolean } = {}): Promise<FakePap> {
  const policies = new Map<string, StoredPolicy>();
  const services = new Map<string, { id: string; policyPath: string }>();
  const error = (status: number, message: string, error = "Bad Request") => ({
    error,
    status,
    message,
    timestamp: Date.now(),
  });
  const shown = (p: StoredPolicy) => ({
    id: p.id,
    "odrl:uid": p.uid,
    odrl: JSON.stringify(p.odrl),
    rego: p.rego,
  });
  const page = (url: URL) => {
    const number = Number(url.searchParams.get("page") ?? 0);
    const size = Number(url.searchParams.get("pageSize") ?? 25);
    return <T>(items: T[]) => items.slice(number * size, number * size + size);
  };
  const text = (
    res: Parameters<Parameters<typeof listen>[0]>[1],
    status: number,
    body: string,
    headers = {},
  ) => {
    res.writeHead(status, { "content-type": "text/plain;charset=UTF-8", ...headers });
    res.end(body);
  };

  /** Parses and maps a policy body, storing it under `id`; answers the Rego as the PAP does. */
  async function write(
    req: Parameters<Parameters<typeof listen>[0]>[0],
    res: Parameters<Parameters<typeof listen>[0]>[1],
    id: string,
    service?: string,
  ) {
    let body: Json;
    try {
      body = JSON.parse(await readBody(req)) as Json;
      if (!body || typeof body !== "object" || Array.isArray(body)) throw new Error("not an object");
    } catch {
      return sendJson(res, 400, error(400, "Unable to parse the request body.", "Error parsing body"));
    }
    let found: Json[];
    try {
      found = policiesOf(body);
    } catch (err) {
      if (err instanceof Refused) return sendJson(res, 400, error(400, err.message));
      throw err;
    }
    const policy = found[0]!;
    const odrl = { "@context": CONTEXT, ...policy };
    const rego = regoOf(id, policy);
    policies.set(id, {
      id,
      uid: idOf(policy["odrl:uid"] ?? policy["@id"])!,
      odrl,
      rego,
      ...(service ? { service } : {}),
    });
    return text(res, 200, rego, { location: id });
  }

  const server = await listen(async (req, res, url) => {
    const path = url.pathname;
    const method = req.method ?? "GET";
    const notFound = () => {
      res.writeHead(404).end();
    };
    const noContent = () => {
      res.writeHead(204).end();
    };
    if (path === "/_fake/health")
      return sendJson(res, 200, { policies: policies.size, services: services.size });
    if (path === "/mappings" && method === "GET")
      return sendJson(res, 200, {
        actions: Object.keys(papMappings.actions).map((name) => ({
          name,
          description: papMappings.actions[name]!.join(", "),
        })),
        operators: papMappings.operators.map((name) => ({ name })),
        operands: papMappings.operands.map((name) => ({ name })),
        leftOperands: papMappings.leftOperands.map((name) => ({ name })),
        rightOperands: [{ name: "odrl:policyUsage" }, { name: "dome-op:currentParty" }],
        assignees: [{ name: "vc:any" }, { name: "odrl:PartyCollection" }],
        targets: [{ name: "odrl:AssetCollection" }],
        constraints: [{ name: "ovc:constraint" }, { name: "ovc:credentialSubjectType" }],
      });
    if (path === "/validate" && method === "POST") {
      if (!options.validation)
        return sendJson(res, 500, error(500, "Unable to reach the validation OPA.", "Internal Server Error"));
      let body: Json;
      try {
        body = JSON.parse(await readBody(req)) as Json;
        if (!body?.policy || !body.testRequest) throw new Error("incomplete");
      } catch {
        return sendJson(res, 400, error(400, "policy and testRequest are required.", "Error parsing body"));
      }
      try {
        const [policy] = policiesOf(body.policy as Json);
        return allows(policy!, body.testRequest as Json)
          ? sendJson(res, 200, { allow: true })
          : sendJson(res, 200, { allow: false, explanation: ["No is_allowed rule matched the request."] });
      } catch (err) {
        if (err instanceof Refused) return sendJson(res, 400, error(400, err.message));
        throw err;
      }
    }

    // Policies, globally or of one service.
    const scoped = /^\/service\/([^/]+)\/policy(\/.*)?$/.exec(path);
    const service = scoped ? decodeURIComponent(scoped[1]!) : undefined;
    const rest = scoped
      ? (scoped[2] ?? "")
      : path.startsWith("/policy")
        ? path.slice("/policy".length)
        : undefined;
    if (rest !== undefined) {
      if (service && !services.has(service)) return text(res, 404, `Service ${service} does not exist.`);
      const mine = [...policies.values()].filter((p) => p.service === service);
      if (rest === "" || rest === "/") {
        if (method === "GET") return sendJson(res, 200, page(url)(mine).map(shown));
        if (method === "POST") return write(req, res, letters(), service);
      }
      const byUid = /^\/odrl\/(.+)$/.exec(rest);
      const id = byUid ? undefined : /^\/([^/]+)$/.exec(rest)?.[1];
      const found = byUid
        ? mine.find((p) => p.uid === decodeURIComponent(byUid[1]!))
        : id
          ? mine.find((p) => p.id === decodeURIComponent(id))
          : undefined;
      if (method === "GET" && (byUid || id)) return found ? sendJson(res, 200, shown(found)) : notFound();
      if (method === "DELETE" && (byUid || id)) {
        if (found) policies.delete(found.id);
        return noContent();
      }
      if (method === "PUT" && id) {
        const policyId = decodeURIComponent(id);
        if (policyId === "main") return text(res, 409, "Policy `main` cannot be manually modified.");
        const other = policies.get(policyId);
        // Another service's policy of that id stays its own: the PAP keys policies by id.
        if (other && other.service !== service)
          return sendJson(res, 400, error(400, `Policy ${policyId} belongs to another service.`));
        return write(req, res, policyId, service);
      }
    }

    if (path === "/service" && method === "POST") {
      let id: unknown;
      try {
        id = (JSON.parse(await readBody(req)) as Json).id;
      } catch {
        return sendJson(res, 400, error(400, "Unable to parse the request body.", "Error parsing body"));
      }
      if (typeof id !== "string" || !id)
        return sendJson(res, 400, error(400, "The service needs an id.", "Error parsing body"));
      if (["policy", "data", "methods"].includes(id))
        return sendJson(res, 400, error(400, `${id} is a reserved id.`));
      if (services.has(id)) return sendJson(res, 400, error(400, `Service ${id} already exists.`));
      const created = { id, policyPath: `${letters()}/main` };
      services.set(id, created);
      return sendJson(res, 200, { policyPath: created.policyPath });
    }
    if (path === "/service" && method === "GET")
      // The list builds the path from the id: it disagrees with what create and show answer.
      return sendJson(
        res,
        200,
        page(url)([...services.values()]).map((s) => ({ id: s.id, policyPath: `${s.id}/main` })),
      );
    const sid = /^\/service\/([^/]+)$/.exec(path)?.[1];
    if (sid) {
      const found = services.get(decodeURIComponent(sid));
      if (method === "GET")
        return found
          ? sendJson(res, 200, {
              ...found,
              policies: [...policies.values()].filter((p) => p.service === found.id).map(shown),
            })
          : notFound();
      if (method === "DELETE") {
        if (found) {
          services.delete(found.id);
          for (const p of [...policies.values()]) if (p.service === found.id) policies.delete(p.id);
        }
        return noContent();
      }
    }
    // Quarkus' own 404 for a path it does not serve.
    res.writeHead(404, { "content-type": "text/html;charset=UTF-8" });
    res.end("<html><body><h1>Resource not found</h1></body></html>");
  }, options.port ?? 0);
  return { ...server, policies, services };
}

import "reflect-metadata";
import { X509Certificate, createPrivateKey, randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import * as x509 from "@peculiar/x509";
import { Ajv, type ErrorObject } from "ajv";
import { SignJWT, compactVerify, decodeJwt, decodeProtectedHeader, importX509 } from "jose";
import { isForm, listen, readBody, sendJson, type Listening } from "./http.ts";
import type { PartyCredentials } from "./pki.ts";

/**
 * A fake iSHARE authorization registry that answers as Keyrock 8.4's internal one does
 * (`IDM_AR_URL=internal`; notes/keyrock-real.md, "Keyrock 8.4 as an iSHARE authorization registry"):
 *
 * - token (`/oauth2/token`): a client assertion signed by the leaf of its `x5c`, `iss` = client_id
 *   = the leaf's serialNumber, `aud` naming the registry, not expired, RS256 with a leaf of at least
 *   2048 bits for digital signature only; the party must be active (here: its chain ends at a
 *   trusted root). Refusals are Keyrock's OAuth error page, `400 text/html`.
 * - `/ar/policy`: only the registry's own party may write (403 JSON otherwise), the body is checked
 *   against Keyrock's delegation evidence schema (`additionalProperties: false`, access subject
 *   without whitespace), `policyIssuer` must be the registry (422); stored per access subject.
 * - `/ar/delegation`: the request is checked against Keyrock's delegation request schema; an unknown
 *   subject is a 404 with an empty body; the evidence comes back filtered by the request, one
 *   policy per requested policy with one Permit or Deny rule, in a `delegation_token` whose `aud`
 *   is the registry's internal id of the requesting party. Keyrock's matcher fails (500) where its
 *   code throws: a stored `environment` met by a request with one, a request without identifiers or
 *   attributes, a matching Deny rule without a target; a stored `environment` met by a request
 *   without one is a Deny.
 */

export interface FakeRegistryOptions {
  /** The registry's own party and keys (signs delegation tokens; the only party that writes policies). */
  credentials: PartyCredentials;
  /** Roots (base64 DER) whose parties the satellite lists as active. */
  trustedRoots: string[];
  tokenPath?: string;
  delegationPath?: string;
  policyPath?: string;
}

export interface FakeRegistry extends Listening {
  /** The stored delegation evidences, by "policyIssuer accessSubject". */
  readonly policies: Map<string, Record<string, any>>;
  /** Client assertions refused, with why (Keyrock only logs it; its page says "invalid client credentials"). */
  readonly refusals: string[];
  /** The registry's internal user id of a party (the `aud` of its delegation tokens). */
  userIdOf(party: string): string | undefined;
}

const pem = (body: string) =>
  `-----BEGIN CERTIFICATE-----\n${body.replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`;

/** Keyrock's JSON Schemas (controllers/authregistry/*.json), as the constraints they put on a body. */
const word = { type: "string", pattern: "^\\S+$" };
const words = { type: "array", uniqueItems: true, minItems: 1, items: word };
const closed = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  additionalProperties: false,
  required,
  properties,
});
const policies = {
  type: "array",
  minItems: 1,
  items: closed(
    {
      target: closed(
        {
          resource: closed(
            { type: { type: "string", pattern: "^[^\\s\\*]+$" }, identifiers: words, attributes: words },
            ["type", "identifiers"],
          ),
          actions: words,
          environment: closed(
            { serviceProviders: { type: "array", minItems: 1, items: { type: "string" } } },
            ["serviceProviders"],
          ),
        },
        ["resource", "actions"],
      ),
      // A rule's other members are not checked (Keyrock's schema puts a target's schema where ajv 6 ignores it).
      rules: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          required: ["effect"],
          properties: { effect: { enum: ["Permit", "Deny"] } },
        },
      },
    },
    ["target", "rules"],
  ),
};
const subject = closed({ accessSubject: word }, ["accessSubject"]);
const evidenceSchema = closed(
  {
    delegationEvidence: closed(
      {
        notBefore: { type: "integer" },
        notOnOrAfter: { type: "integer" },
        policyIssuer: word,
        target: subject,
        policySets: {
          type: "array",
          minItems: 1,
          items: closed(
            {
              maxDelegationDepth: { type: "integer" },
              target: closed(
                {
                  environment: closed(
                    { licenses: { type: "array", minItems: 1, items: { type: "string" } } },
                    ["licenses"],
                  ),
                },
                ["environment"],
              ),
              policies,
            },
            ["policies", "target"],
          ),
        },
      },
      ["notOnOrAfter", "notBefore", "policyIssuer", "target", "policySets"],
    ),
  },
  ["delegationEvidence"],
);
// Keyrock 8.4 takes delegation_path and previous_steps inside the request only.
const requestSchema = closed(
  {
    delegationRequest: closed(
      {
        policyIssuer: word,
        target: subject,
        policySets: { type: "array", minItems: 1, items: closed({ policies }, ["policies"]) },
        delegation_path: { type: "array", items: word },
        previous_steps: { type: "array", items: word },
      },
      ["policyIssuer", "target", "policySets"],
    ),
  },
  ["delegationRequest"],
);
// Keyrock runs ajv 6: first error only, paths written `.a.b[0]`.
const ajv = new Ajv({ strict: false });
const validate = {
  evidence: ajv.compile<Record<string, any>>(evidenceSchema),
  request: ajv.compile<Record<string, any>>(requestSchema),
};
const ajv6Errors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map(({ instancePath, ...rest }) => ({
    ...rest,
    dataPath: instancePath.replace(/\/(\d+)/g, "[$1]").replace(/\//g, "."),
  }));

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Keyrock's OAuth error page (views/errors/oauth.ejs in its layout), with the error's message. */
function oauthErrorPage(res: ServerResponse, status: number, message: string, clientId = "") {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Keyrock</title>
<script src="/javascripts/jquery.min.js"></script><script>var lang = "en";</script></head>
<body><header class="navbar"><a class="navbar-brand" href="/">Keyrock</a><nav><a href="/auth/login">Sign in</a> <a href="/sign_up">Sign up</a></nav></header>
<div class="container"><div class="error">
  <h1>ops! something went wrong!</h1>
  <p>contact with the administrators of your web service provider and send your <a class="collapsed" href="#error_oauth">error details <i class="fa fa-angle-up"></i></a></p>
  <div class="collapse_out"><div id="error_oauth" class="form-group collapse"><div class="error-oauth">
    <h2>OAuth2 request has failed!</h2>
    <p><b>error - </b>
        ${escape(message)}
    </p>
    <div id="request_parameters" class="collapse_out">
      <div><div class="panel-heading">client_id (required)</div> ${escape(clientId || "undefined")}</div>
      <div><div class="panel-heading">response_type (required)</div> undefined</div>
    </div>
  </div></div></div>
</div></div>
<footer><p>© FIWARE Foundation</p></footer>
<script>$('.collapsed').click(function(){ $(this).children('i').toggleClass('fa-rotate-180'); });</script>
</body></html>`);
}

/** Keyrock's answer when its code throws inside a route: the error, serialised as `{}`. */
const internalError = (res: ServerResponse) =>
  sendJson(res, 500, { message: {}, code: 500, title: "Internal Server Error" });

type Policy = { target: any; rules: any[] };

/** Whether a stored policy matches a requested one, as Keyrock 8.4 decides it; throws where it throws. */
function matches(mask: Policy, policy: Policy): boolean {
  if (policy.target.resource.type !== mask.target.resource.type) return false;
  if (policy.target.environment != null) {
    if (mask.target.environment == null) return false;
    // Keyrock calls Set#has on the stored array: a TypeError, answered 500.
    throw new TypeError("service_providers.has is not a function");
  }
  const covers = (held: string[], asked: string[]) =>
    asked.every((a) => (held.length === 1 && held.includes("*")) || held.includes(a));
  // Keyrock 8.4 reads the request's identifiers and attributes without checking they are there.
  const resource = policy.target.resource;
  if (!covers(resource.identifiers, mask.target.resource.identifiers.slice())) return false;
  if (!covers(resource.attributes, mask.target.resource.attributes.slice())) return false;
  return mask.target.actions?.length > 0 && covers(policy.target.actions, mask.target.actions);
}

/** Whether a matching policy denies the requested target: a Deny rule on it, last first (its target read unchecked). */
const denies = (mask: Policy, policy: Policy) =>
  [...policy.rules]
    .reverse()
    .some(
      (rule) =>
        rule.effect === "Deny" &&
        rule.target.resource.type === mask.target.resource.type &&
        (rule.target.resource.identifiers.includes("*") ||
          mask.target.resource.identifiers.some((i: string) =>
            rule.target.resource.identifiers.includes(i),
          )) &&
        (rule.target.resource.attributes.includes("*") ||
          mask.target.resource.attributes.some((a: string) => rule.target.resource.attributes.includes(a))) &&
        (rule.target.actions.length === 0 ||
          rule.target.actions.includes("*") ||
          mask.target.actions.some((a: string) => rule.target.actions.includes(a))),
    );

export async function startFakeRegistry(options: FakeRegistryOptions, port = 0): Promise<FakeRegistry> {
  const { credentials } = options;
  const paths = {
    token: options.tokenPath ?? "/oauth2/token",
    delegation: options.delegationPath ?? "/ar/delegation",
    policy: options.policyPath ?? "/ar/policy",
  };
  const tokens = new Map<string, { party: string; expiresAt: number }>();
  /** Keyrock creates a user for each party that gets a token; its id is internal. */
  const users = new Map<string, string>();
  const policies = new Map<string, Record<string, any>>();
  const refusals: string[] = [];
  const signingKey = createPrivateKey(
    `-----BEGIN PRIVATE KEY-----\n${credentials.privateKey.replace(/.{1,64}/g, "$&\n")}-----END PRIVATE KEY-----\n`,
  );

  /** Why a client assertion does not hold, as Keyrock checks it, or undefined. */
  async function assertionProblem(jwt: string, clientId: string): Promise<string | undefined> {
    let header;
    let payload;
    try {
      header = decodeProtectedHeader(jwt);
      payload = decodeJwt(jwt);
    } catch {
      return "not a JWT";
    }
    if (header.alg !== "RS256") return `alg ${String(header.alg)} is not RS256`;
    const leafBody = header.x5c?.[0];
    if (!leafBody) return "no x5c";
    try {
      await compactVerify(jwt, await importX509(pem(leafBody), "RS256"));
    } catch {
      return "the signature does not hold for the leaf certificate";
    }
    if (payload.iss !== clientId) return "iss must be the client_id";
    const aud = typeof payload.aud === "string" ? [payload.aud] : (payload.aud ?? []);
    if (!aud.includes(credentials.identifier)) return "aud must name the registry's party id";
    if (typeof payload.exp !== "number" || payload.exp < Date.now() / 1000) return "expired";
    const leaf = new X509Certificate(Buffer.from(leafBody, "base64"));
    const serialNumber = /^serialNumber=(.*)$/m.exec(leaf.subject)?.[1];
    if (payload.iss !== serialNumber) return "iss must be the leaf certificate's serialNumber";
    if ((leaf.publicKey.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) return "key smaller than 2048 bits";
    const usages = new x509.X509Certificate(Buffer.from(leafBody, "base64")).getExtension(
      x509.KeyUsagesExtension,
    )?.usages;
    const ca = x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign;
    if (!usages || !(usages & x509.KeyUsageFlags.digitalSignature) || usages & ca)
      return "the leaf is not for digital signature only";
    return undefined;
  }

  /** Whether the satellite lists the party as active: its chain verifies up to a trusted root. */
  function trustedParty(chain: string[]): boolean {
    const certificates = chain.map((c) => new X509Certificate(Buffer.from(c, "base64")));
    for (let i = 0; i + 1 < certificates.length; i++)
      if (!certificates[i]!.verify(certificates[i + 1]!.publicKey)) return false;
    const root = certificates.at(-1)?.fingerprint256;
    return options.trustedRoots.some(
      (r) => new X509Certificate(Buffer.from(r, "base64")).fingerprint256 === root,
    );
  }

  const server = await listen(async (req, res, url) => {
    const route = `${req.method} ${url.pathname}`;
    if (route === "GET /_fake/health") return sendJson(res, 200, { ok: true });
    if (route === `POST ${paths.token}`) {
      if (!isForm(req))
        return oauthErrorPage(res, 400, "Invalid request: content must be application/x-www-form-urlencoded");
      const form = new URLSearchParams(await readBody(req));
      const clientId = form.get("client_id") ?? "";
      if (
        !["client_credentials", "urn:ietf:params:oauth:grant-type:jwt-bearer"].includes(
          form.get("grant_type") ?? "",
        ) ||
        form.get("client_assertion_type") !== "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
      )
        return oauthErrorPage(res, 400, "Invalid client: cannot retrieve client credentials", clientId);
      const assertion = form.get("client_assertion");
      if (!assertion)
        return oauthErrorPage(res, 400, "invalid_request: include client_assertion in request", clientId);
      const refused = await assertionProblem(assertion, clientId);
      if (refused) {
        refusals.push(refused);
        return oauthErrorPage(res, 400, "invalid_request: invalid client credentials", clientId);
      }
      if (!trustedParty(decodeProtectedHeader(assertion).x5c ?? [])) {
        refusals.push("the party is not active in the satellite");
        return oauthErrorPage(res, 400, "client is not a trusted participant", clientId);
      }
      if (!users.has(clientId)) users.set(clientId, randomUUID());
      const token = randomUUID();
      tokens.set(token, { party: clientId, expiresAt: Date.now() + 3600_000 });
      return sendJson(res, 200, { access_token: token, expires_in: 3600, token_type: "Bearer" });
    }
    if (route !== `POST ${paths.policy}` && route !== `POST ${paths.delegation}`)
      return sendJson(res, 404, "Path not Found");

    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!bearer) return oauthErrorPage(res, 401, "Unauthorized request: no authentication given");
    const entry = tokens.get(bearer);
    if (!entry || entry.expiresAt <= Date.now())
      return oauthErrorPage(res, 401, "Invalid token: access token is invalid");
    const party = entry.party;
    let body: Record<string, any>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, any>;
    } catch {
      return oauthErrorPage(res, 400, "Unexpected token in JSON");
    }

    if (route === `POST ${paths.policy}`) {
      // The user Keyrock made for its own party (`${IDM_PR_CLIENT_ID}@${IDM_PR_URL}`) is the only writer.
      if (party !== credentials.identifier)
        return sendJson(res, 403, { error: "You are not authorized to update policies", details: null });
      if (!validate.evidence(body))
        return sendJson(res, 400, {
          error: "Invalid policy document",
          details: ajv6Errors(validate.evidence.errors),
        });
      const evidence = body.delegationEvidence;
      if (evidence.policyIssuer !== credentials.identifier)
        return sendJson(res, 422, {
          error: `Invalid value for policyIssuer: ${String(evidence.policyIssuer)}`,
        });
      policies.set(`${evidence.policyIssuer} ${evidence.target.accessSubject}`, evidence);
      return sendJson(res, 200, {});
    }

    if (!validate.request(body))
      return sendJson(res, 400, {
        error: "Invalid mask document",
        details: ajv6Errors(validate.request.errors),
      });
    const mask = body.delegationRequest;
    // Keyrock looks the subject up among its own policies, whatever issuer the request names.
    const stored = policies.get(`${credentials.identifier} ${mask.target.accessSubject}`);
    if (!stored) {
      res.writeHead(404);
      res.end();
      return;
    }
    let policySets;
    try {
      policySets = (mask.policySets as Array<{ policies: Policy[] }>).flatMap((maskSet) =>
        (
          stored.policySets as Array<{ maxDelegationDepth?: number; target: unknown; policies: Policy[] }>
        ).map((set) => ({
          maxDelegationDepth: set.maxDelegationDepth,
          target: set.target,
          policies: maskSet.policies.map((asked) => {
            const matching = set.policies.filter((policy) => matches(asked, policy));
            const deny = matching.length === 0 || matching.some((policy) => denies(asked, policy));
            return { target: asked.target, rules: [{ effect: deny ? "Deny" : "Permit" }] };
          }),
        })),
      );
    } catch {
      return internalError(res);
    }
    const iat = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ delegationEvidence: { ...stored, policySets } })
      .setProtectedHeader({ alg: "RS256", typ: "JWT", x5c: credentials.certificates })
      .setIssuer(credentials.identifier)
      .setSubject(String(mask.target.accessSubject))
      .setAudience(users.get(party)!)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(iat + 30)
      .sign(signingKey);
    return sendJson(res, 200, { delegation_token: token });
  }, port);
  return { ...server, policies, refusals, userIdOf: (party) => users.get(party) };
}

import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ConsumersPanel } from "../src/data-access/ConsumersPanel.tsx";
import i18n from "../src/i18n/index.ts";
import { allow, mockApi, renderAt, sent, settled } from "./support.tsx";

const workspace = { id: "urn:ngsi-ld:Workspace:shop", name: "Shop" };
const path = `/workspace/${workspace.id}/data-access/consumers`;
const decisions = (get: string, others: string) =>
  ["GET", "POST", "PATCH", "DELETE"].map((method) => {
    const reason = method === "GET" ? get : others;
    return { method, permit: reason === "permit", reason, detail: `${method}: ${reason}` };
  });
const ishare = {
  mode: "ishare",
  onEmbeddedBroker: true,
  enforced: true,
  broker: {
    url: "http://localhost:3000/ngsi-ld/v1",
    tenant: "supermarket",
    context: "http://localhost:3000/data-models/supermarket/2/context.jsonld",
  },
  ishareUser: {
    identityManager: "Shop Keyrock",
    tokenUrl: "http://keyrock:3005/oauth2/token",
    grantType: "password",
    clientId: "consumer-app",
  },
  ishareParty: { registry: "Keyrock AR", audience: ["EU.EORI.NLKEYROCK"] },
  fdsc: null,
  roles: [
    {
      id: "urn:ngsi-ld:Role:stocker",
      name: "Shelf stocker",
      roleName: "Shelf_stocker",
      credentialType: "",
      rows: [
        { entityType: "Shelf", granted: true, decisions: decisions("permit", "registryDeny"), summary: "" },
        {
          entityType: "Product",
          granted: false,
          decisions: decisions("registryUnreachable", "registryUnreachable"),
          summary: "",
        },
      ],
    },
  ],
};
/** A shell command as one line (its continuation lines joined). */
const oneLine = (element: HTMLElement) => element.textContent!.replace(/\s*\\\n\s*/g, " ");
const everything = ["GET", "POST", "PUT", "DELETE"].map((action) => allow(action, "^/api/.*$"));

const renderPanel = (permissions = everything, guide: unknown = ishare) => {
  const calls = mockApi({ [`GET ${path}`]: { body: guide } }, permissions);
  const view = renderAt("/", "/", <ConsumersPanel workspace={workspace} />);
  return { calls, ...view };
};

describe("the consumers card of a workspace", () => {
  it("asks nothing until opened, then says how to get a token, how to call the broker, and what each role may do", async () => {
    const { user, calls, client } = renderPanel();
    await settled(client);
    expect(sent(calls, "GET").map((c) => c.path)).not.toContain(path);
    await user.click(await screen.findByRole("button", { name: "Show how consumers get in" }));

    expect(
      await screen.findByText("iSHARE: consumers are judged by the workspace's authorization registry."),
    ).toBeInTheDocument();
    expect(oneLine(screen.getByLabelText("Getting a token"))).toBe(
      "TOKEN=$(curl -s -u 'consumer-app:CLIENT_SECRET' -d grant_type=password -d username=EMAIL -d password=PASSWORD 'http://keyrock:3005/oauth2/token' | jq -r .access_token)",
    );
    expect(screen.getByText(/signs its own iSHARE JWT/)).toHaveTextContent("aud one of EU.EORI.NLKEYROCK");
    expect(oneLine(screen.getByLabelText("Reading an entity type"))).toBe(
      `curl -H "Authorization: Bearer $TOKEN" -H 'NGSILD-Tenant: supermarket' ` +
        `-H 'Link: <http://localhost:3000/data-models/supermarket/2/context.jsonld>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"' ` +
        `'http://localhost:3000/ngsi-ld/v1/entities?type=Shelf'`,
    );

    const table = screen.getByRole("table", { name: "Role Shelf stocker" });
    const shelf = within(table).getByRole("row", { name: /^Shelf/ });
    expect(shelf).toHaveTextContent(
      "Shelf: GET permitted; POST, PATCH, DELETE denied (the registry denies it)",
    );
    expect(within(shelf).getByText("its data services")).toBeInTheDocument();
    // A registry that cannot be reached says so on its row.
    expect(within(table).getByRole("row", { name: /^Product/ })).toHaveTextContent(
      "Product: GET, POST, PATCH, DELETE denied (the registry or the policy administration point cannot be reached)",
    );
  });

  it("in French", async () => {
    await i18n.changeLanguage("fr");
    try {
      const { user } = renderPanel();
      await user.click(
        await screen.findByRole("button", { name: "Montrer comment les consommateurs accèdent" }),
      );
      const table = await screen.findByRole("table", { name: "Rôle Shelf stocker" });
      const shelf = within(table).getByRole("row", { name: /^Shelf/ });
      expect(shelf.querySelector("td")!.textContent).toBe(
        "Shelf\u00a0: autorisé pour GET\u00a0; refusé pour POST, PATCH, DELETE (le registre le refuse)",
      );
    } finally {
      await i18n.changeLanguage("en");
    }
  });

  it("FDSC: names the verifier's token endpoint", async () => {
    const fdsc = {
      ...ishare,
      mode: "fdsc",
      ishareUser: null,
      ishareParty: null,
      fdsc: {
        clientId: "buildings",
        organizationDid: "did:web:provider.example.org",
        grantType: "vp_token",
        verifiers: [{ name: "Provider verifier", tokenUrl: "http://verifier/services/buildings/token" }],
      },
    };
    const { user } = renderPanel(everything, fdsc);
    await user.click(await screen.findByRole("button", { name: "Show how consumers get in" }));
    expect(oneLine(await screen.findByLabelText("Getting a token"))).toBe(
      "TOKEN=$(curl -s -d grant_type=vp_token -d vp_token=PRESENTATION_BASE64URL -d scope=SCOPE 'http://verifier/services/buildings/token' | jq -r .access_token)",
    );
    expect(
      screen.getByText(/Provider verifier \(http:\/\/verifier\/services\/buildings\/token\)/),
    ).toBeInTheDocument();
  });

  it("a workspace without trust layer says that no consumer's token is accepted, and gives no token command", async () => {
    const none = { ...ishare, mode: "none", ishareUser: null, ishareParty: null, fdsc: null };
    const { user } = renderPanel(everything, none);
    await user.click(await screen.findByRole("button", { name: "Show how consumers get in" }));
    expect(await screen.findByText(/No data-space consumer's token is accepted/)).toBeInTheDocument();
    expect(screen.queryByLabelText("Getting a token")).toBeNull();
    expect(screen.queryByText(/BROKER_AUTH=open/)).toBeNull();
  });

  it("warns that nothing is enforced with BROKER_AUTH=open", async () => {
    const { user } = renderPanel(everything, { ...ishare, enforced: false });
    await user.click(await screen.findByRole("button", { name: "Show how consumers get in" }));
    expect(
      await screen.findByText(/BROKER_AUTH=open: the embedded broker answers anyone/),
    ).toBeInTheDocument();
  });

  it("is not shown, and asks nothing, to whom may not read the workspace's data access (viewers, the showroom)", async () => {
    const { calls, client } = renderPanel([
      allow("GET", "^/api/(?!(audit|data-access|broker-clients)(/|$)|workspace/[^/]+/data-access(/|$)).*"),
    ]);
    await settled(client);
    expect(screen.queryByRole("button", { name: "Show how consumers get in" })).toBeNull();
    expect(sent(calls, "GET").map((c) => c.path)).not.toContain(path);
  });
});

import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import AuthorizationRegistryTool from "../src/tools/AuthorizationRegistryTool.tsx";
import { mockApi, renderAt, sent, settled, type Call } from "./support.tsx";

// The authorization registry tool (Tools → authorization registries): its delegation request starts
// from a subject the registry knows, and a failed request leaves no earlier answer on screen.

const registry = { id: "r1", name: "Keyrock", identifier: "EU.EORI.NLKEYROCK" };
const grant = {
  id: "g1",
  name: "Orrery grant",
  hasAuthorizationRegistry: "r1",
  identifier: "EU.EORI.NLORRERY",
};
const subject = "Picker.*+?(|\\";
const shelfTarget = { resource: { type: "Shelf", identifiers: ["*"], attributes: ["*"] }, actions: ["GET"] };
const synchronisedRole = {
  id: "urn:ngsi-ld:Role:picker",
  name: "Picker",
  roleName: subject,
  synchronized: true,
  lastDelegationEvidence: {
    delegationEvidence: {
      policyIssuer: registry.identifier,
      target: { accessSubject: subject },
      policySets: [{ policies: [{ target: shelfTarget, rules: [{ effect: "Permit" }] }] }],
    },
  },
};

function start(answers: Array<{ status: number; body: unknown }>) {
  let n = 0;
  const calls = mockApi({
    "GET /authorization-registries": { body: [registry] },
    "GET /authorization-registry-grants": { body: [grant] },
    "GET /workspaces": {
      body: [
        { id: "w0", name: "Elsewhere", hasAuthorizationRegistry: "r9" },
        { id: "w1", name: "Shop", hasAuthorizationRegistry: "r1" },
      ],
    },
    "GET /workspace/w0/roles": { body: [{ ...synchronisedRole, roleName: "Other" }] },
    "GET /workspace/w1/roles": {
      body: [
        { id: "urn:ngsi-ld:Role:new", name: "New", roleName: "New", synchronized: false },
        synchronisedRole,
      ],
    },
    "POST /proxies/authorization-registry/request-delegation": (_call: Call) => answers[n++]!,
  });
  return { calls, ...renderAt("/tools", "/tools", <AuthorizationRegistryTool />) };
}

async function choose(user: ReturnType<typeof start>["user"]) {
  await user.selectOptions(await screen.findByLabelText("Authorization registry"), "r1");
  await user.selectOptions(screen.getByLabelText("Authorization registry grant"), "g1");
}

describe("the authorization registry tool", () => {
  it("asks about a role synchronised with the registry, on its policy's target, not the signing party", async () => {
    const { user, client, calls } = start([
      {
        status: 200,
        body: { delegationEvidence: { policySets: [{ policies: [{ rules: [{ effect: "Permit" }] }] }] } },
      },
    ]);
    await settled(client);
    await choose(user);
    await settled(client);
    await user.click(screen.getByRole("button", { name: "Send a delegation request" }));
    const text = JSON.parse((screen.getByLabelText("Delegation request") as HTMLTextAreaElement).value);
    expect(text.delegationRequest).toEqual({
      policyIssuer: registry.identifier,
      target: { accessSubject: subject },
      policySets: [{ policies: [{ target: shelfTarget, rules: [{ effect: "Permit" }] }] }],
    });
    // The guided side starts from the same subject.
    expect(screen.getByLabelText("Access subject")).toHaveValue(subject);
    await user.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(sent(calls, "POST")).toHaveLength(1));
    expect(sent(calls, "POST")[0]!.body).toEqual(text);
  });

  it("clears the previous answer when a request fails", async () => {
    const { user, client } = start([
      {
        status: 200,
        body: { delegationEvidence: { policySets: [{ policies: [{ rules: [{ effect: "Permit" }] }] }] } },
      },
      {
        status: 502,
        body: {
          type: "about:blank",
          title: "Bad Gateway",
          status: 502,
          detail: "The authorization registry Keyrock knows no policy for the access subject Nobody (404).",
        },
      },
    ]);
    await settled(client);
    await choose(user);
    await settled(client);
    await user.click(screen.getByRole("button", { name: "Send a delegation request" }));
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByRole("heading", { name: "Result" })).toBeInTheDocument();
    expect(screen.getByText(/Permit/)).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Send a delegation request" }));
    await user.click(screen.getByRole("button", { name: "Send" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("The delegation request failed.")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Result" })).toBeNull();
    expect(screen.queryByText(/Permit/)).toBeNull();
  });
});

import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { odrlOf } from "@orrery/model/odrl";
import i18n from "../src/i18n/index.ts";
import { Toasts } from "../src/app/Toasts.tsx";
import PoliciesScreen from "../src/fdsc/PoliciesScreen.tsx";
import { policyTitle } from "../src/fdsc/PolicyStatement.tsx";
import { currentPath, field, mockApi, renderAt, sent } from "./support.tsx";

// The ODRL policies of a workspace in FDSC mode: read as statements, built with the guided builder
// (or as JSON), tried against the PAP's /validate.

const workspace = "urn:ngsi-ld:Workspace:1";
const base = `/workspace/${workspace}/odrl-policies`;
const url = `/workspace/${encodeURIComponent(workspace)}/odrl-policies`;
const readOperators = odrlOf({
  uid: "urn:orrery:policy:operators",
  assignee: { kind: "role", role: "OPERATOR", credentialType: "OperatorCredential" },
  actions: ["odrl:read", "odrl:modify"],
  target: { kind: "entityType", entityType: "K8SCluster" },
  constraints: [],
});
const policy = {
  id: "abcdefghij",
  uid: "urn:orrery:policy:operators",
  odrl: readOperators,
  rego: "package policy.abcdefghij\n\nis_allowed if {\n}",
};
const common = {
  [`GET /workspaces/${workspace}`]: { body: { id: workspace, name: "Clusters" } },
  [`GET /workspace/${workspace}/types`]: { body: [{ id: "urn:ngsi-ld:Type:1", name: "K8SCluster" }] },
  [`GET /workspace/${workspace}/roles`]: {
    body: [
      {
        id: "urn:ngsi-ld:Role:1",
        name: "Operator",
        roleName: "OPERATOR",
        verifiableCredentialType: "OperatorCredential",
      },
    ],
  },
};

describe("ODRL policies screens", () => {
  it("list the PAP's policies as readable statements and show one with its Rego folded", async () => {
    mockApi({ ...common, [`GET ${base}`]: { body: [policy] }, [`GET ${base}/abcdefghij`]: { body: policy } });
    const { unmount } = renderAt(
      url,
      "/workspace/:workspaceId/odrl-policies",
      <PoliciesScreen action="index" />,
    );
    // Titled by what it allows, not by its urn:orrery:policy:… uid.
    const row = (
      await screen.findByRole("link", { name: "OPERATOR: read, modify entities of type K8SCluster" })
    ).closest("tr")!;
    expect(
      within(row)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([
      "Holders of an OperatorCredential with the role OPERATOR may read (odrl:read) entities of type K8SCluster.",
      "Holders of an OperatorCredential with the role OPERATOR may modify (odrl:modify) entities of type K8SCluster.",
    ]);
    unmount();
    renderAt(
      `${url}/abcdefghij`,
      "/workspace/:workspaceId/odrl-policies/:policyId",
      <PoliciesScreen action="show" />,
    );
    const rego = await screen.findByTestId("policy-rego");
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent(
      "OPERATOR: read, modify entities of type K8SCluster",
    );
    expect(screen.queryByRole("heading", { name: /urn:orrery:policy/ })).toBeNull();
    expect(rego.closest("details")).not.toHaveAttribute("open");
    expect(rego.textContent).toContain("package policy.abcdefghij");
  });

  it("builds a policy with a role taken from the workspace's roles, tries it, and writes it to the PAP", async () => {
    const calls = mockApi({
      ...common,
      [`POST ${base}/validate`]: { body: { allow: true } },
      [`POST ${base}`]: (call) => ({
        status: 201,
        body: { ...policy, id: "newpolicyx", odrl: (call.body as { odrl: object }).odrl },
      }),
    });
    const { user } = renderAt(
      `${url}/create`,
      "/workspace/:workspaceId/odrl-policies/create",
      <PoliciesScreen action="create" />,
    );
    await user.selectOptions(await screen.findByLabelText("Take from a role"), "urn:ngsi-ld:Role:1");
    expect(field("Role (vc:role)")).toHaveValue("OPERATOR");
    await user.type(field("Entity type (ngsi-ld:entityType)"), "K8SCluster");
    await user.click(screen.getByLabelText("delete (odrl:delete)"));
    await user.click(screen.getByRole("button", { name: "Make the request from the policy" }));
    await user.click(screen.getByRole("button", { name: "Validate" }));
    expect(await screen.findByTestId("policy-verdict")).toHaveTextContent("Allowed");
    expect(sent(calls, "POST").find((c) => c.path.endsWith("/validate"))?.body).toMatchObject({
      request: {
        method: "GET",
        path: "/ngsi-ld/v1/entities?type=K8SCluster",
        roles: ["OPERATOR"],
        credentialType: "OperatorCredential",
      },
    });
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(currentPath()).toBe(`${url}/newpolicyx`));
    const written = sent(calls, "POST").find((c) => c.path === base)!.body as { odrl: any };
    expect(written.odrl["odrl:permission"].map((p: any) => p["odrl:action"]["@id"])).toEqual([
      "odrl:read",
      "odrl:delete",
    ]);
    expect(written.odrl["odrl:permission"][0]["odrl:target"]["odrl:refinement"][0]["odrl:rightOperand"]).toBe(
      "K8SCluster",
    );
  });

  it("titles a saved policy by its role, action and target in the toast, in French, and counts its other permissions", async () => {
    await i18n.changeLanguage("fr");
    try {
      const mixed = {
        ...policy,
        odrl: {
          ...readOperators,
          "odrl:permission": [
            ...(readOperators["odrl:permission"] as object[]),
            ...(odrlOf({
              uid: "urn:orrery:policy:x",
              assignee: { kind: "any" },
              actions: ["odrl:delete"],
              target: { kind: "entity", entityId: "urn:ngsi-ld:K8SCluster:(.*+?|\\)" },
              constraints: [],
            })["odrl:permission"] as object[]),
          ],
        },
      };
      mockApi({
        ...common,
        [`GET ${base}/abcdefghij`]: { body: mixed },
        [`PUT ${base}/abcdefghij`]: { body: mixed },
      });
      const { user } = renderAt(
        `${url}/abcdefghij/edit`,
        // The show page it goes to after saving keeps the same element, and so its toasts.
        "/workspace/:workspaceId/odrl-policies/:policyId/*",
        <>
          <PoliciesScreen action="edit" />
          <Toasts />
        </>,
      );
      const title = "OPERATOR\u00a0: lire, modifier les entités de type K8SCluster, et 1 de plus";
      expect(policyTitle(i18n.t, mixed)).toBe(title);
      await user.click(await screen.findByRole("button", { name: "Enregistrer" }));
      const toast = await screen.findByText(/^Enregistrée.*politique ODRL/);
      expect(toast.textContent).toContain(title);
      expect(toast).not.toHaveTextContent("urn:orrery:policy");
    } finally {
      await i18n.changeLanguage("en");
    }
  });

  it("says what a guided policy lacks, and keeps a policy the builder cannot show in JSON", async () => {
    const calls = mockApi(common);
    const { user } = renderAt(
      `${url}/create`,
      "/workspace/:workspaceId/odrl-policies/create",
      <PoliciesScreen action="create" />,
    );
    await user.click(await screen.findByRole("button", { name: "Save" }));
    expect(await screen.findByTestId("policy-problem")).toHaveTextContent(
      "Give the role and the credential type it comes from.",
    );
    await user.click(screen.getByRole("button", { name: "JSON" }));
    const json = field("ODRL policy (JSON-LD)");
    await user.clear(json);
    await user.click(json);
    await user.paste(
      '{"@type": "odrl:Policy", "odrl:uid": "urn:x", "odrl:permission": {"odrl:action": {"@id": "odrl:use"}}}',
    );
    await user.click(screen.getByRole("button", { name: "Guided" }));
    expect(await screen.findByTestId("policy-problem")).toHaveTextContent(
      "more than the guided builder can show",
    );
    await user.clear(json);
    await user.click(json);
    await user.paste("{ not json");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByTestId("policy-problem")).toHaveTextContent("The JSON parsing failed.");
    expect(sent(calls, "POST")).toEqual([]);
  });

  it("shows the PAP's refusal in the error alert and the failure dialog", async () => {
    mockApi({
      ...common,
      [`GET ${base}/abcdefghij`]: { body: policy },
      [`PUT ${base}/abcdefghij`]: {
        status: 400,
        body: {
          title: "Bad request",
          status: 400,
          detail: "The policy administration point PAP refused the policy: The policy has no permission.",
        },
      },
    });
    const { user } = renderAt(
      `${url}/abcdefghij/edit`,
      "/workspace/:workspaceId/odrl-policies/:policyId/edit",
      <PoliciesScreen action="edit" />,
    );
    expect(await screen.findByLabelText("modify (odrl:modify)")).toBeChecked();
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("The update of the ODRL policy has failed.")).toBeInTheDocument();
    expect(screen.getAllByText(/The policy has no permission\./).length).toBeGreaterThan(0);
  });
});

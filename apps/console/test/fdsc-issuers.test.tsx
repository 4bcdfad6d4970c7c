import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import IssuersScreen from "../src/fdsc/IssuersScreen.tsx";
import { currentPath, field, mockApi, renderAt, sent } from "./support.tsx";

// The issuers of a trusted issuers list: one added with a credential, its validity and claims
// (a role object kept as JSON), one shown with its allowed and forbidden claims.

const list = "urn:ngsi-ld:TrustedIssuersList:1";
const base = `/trusted-issuers-lists/${list}/issuers`;
const url = `/trusted-issuers-lists/${encodeURIComponent(list)}/issuers`;
const common = { [`GET /trusted-issuers-lists/${list}`]: { body: { id: list, name: "Provider TIL" } } };

describe("trusted issuers screens", () => {
  it("add an issuer with a credential, its validity and claim values to the list", async () => {
    const calls = mockApi({ ...common, [`POST ${base}`]: (call) => ({ status: 201, body: call.body }) });
    const { user } = renderAt(
      `${url}/create`,
      "/trusted-issuers-lists/:id/issuers/create",
      <IssuersScreen action="create" />,
    );
    await user.type(await screen.findByLabelText("Issuer DID"), "did:web:operator.example.org");
    await user.type(field("Credential type"), "OperatorCredential");
    await user.type(field("Valid from"), "2026-01-01T00:00");
    await user.click(screen.getByRole("button", { name: "Add a claim" }));
    const values = field("Allowed values (one a line, JSON for objects)");
    await user.click(values);
    await user.paste('OPERATOR\n{"names":["READER"],"target":"did:web:provider.example.org"}');
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent(calls, "POST")).toHaveLength(1));
    expect(sent(calls, "POST")[0]!.body).toEqual({
      did: "did:web:operator.example.org",
      credentials: [
        {
          credentialsType: "OperatorCredential",
          validFor: { from: new Date("2026-01-01T00:00").toISOString().replace(/\.000Z$/, "Z") },
          claims: [
            {
              name: "roles",
              allowedValues: ["OPERATOR", { names: ["READER"], target: "did:web:provider.example.org" }],
            },
          ],
        },
      ],
    });
    await waitFor(() => expect(currentPath()).toBe(`${url}/did%3Aweb%3Aoperator.example.org`));
  });

  it("refuses a DID that is not one before sending anything", async () => {
    const calls = mockApi(common);
    const { user } = renderAt(
      `${url}/create`,
      "/trusted-issuers-lists/:id/issuers/create",
      <IssuersScreen action="create" />,
    );
    await user.type(await screen.findByLabelText("Issuer DID"), "operator.example.org");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByTestId("issuer-problem")).toHaveTextContent("Give the issuer's DID");
    expect(sent(calls, "POST")).toEqual([]);
  });

  it("show an issuer's credentials: allowed values, and a claim listed without value as forbidden", async () => {
    mockApi({
      ...common,
      [`GET ${base}/did%3Aweb%3Ahappypets.org`]: {
        body: {
          did: "did:web:happypets.org",
          credentials: [
            {
              credentialsType: "CustomerCredential",
              claims: [
                { name: "roles", allowedValues: ["GOLD_CUSTOMER", "STANDARD_CUSTOMER"] },
                { name: "email", allowedValues: [] },
              ],
            },
          ],
        },
      },
    });
    renderAt(
      `${url}/did%3Aweb%3Ahappypets.org`,
      "/trusted-issuers-lists/:id/issuers/:did",
      <IssuersScreen action="show" />,
    );
    const card = await screen.findByTestId("issuer-credential");
    expect(within(card).getByRole("heading", { name: "CustomerCredential" })).toBeInTheDocument();
    expect(
      within(card)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["roles: GOLD_CUSTOMER, STANDARD_CUSTOMER", "email: forbidden (no allowed value)"]);
  });
});

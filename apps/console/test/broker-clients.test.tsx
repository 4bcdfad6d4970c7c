import { screen, waitFor, within } from "@testing-library/react";
import { Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { brokerClients } from "@orrery/model";
import KindShowPage from "../src/app/KindShowPage.tsx";
import { TopBar } from "../src/app/TopBar.tsx";
import { curlExample } from "../src/broker-clients/curlExample.ts";
import { FormPage } from "../src/resources/FormPage.tsx";
import { allow, currentPath, field, mockApi, renderAt, sent, type Call } from "./support.tsx";

// Broker clients (issue 35): the generic pages, and what is their own: the key shown once.

const id = "urn:ngsi-ld:BrokerClient:1";
const key = "obk_n3wK3yF0rTh3Sh3lfC0unt3rAAAAAAAAAAAAAAAAAAA";
const client = {
  id,
  name: "Shelf counter",
  tenants: ["", "supermarket"],
  access: "write",
  keyIssuedAt: 1_790_000_000,
  revoked: false,
};

/** The create form and the show page of broker clients, at their console paths. */
const pages = (
  <Routes>
    <Route path="/broker-clients/create" element={<FormPage kind={brokerClients} action="create" />} />
    <Route path="/broker-clients/:id" element={<KindShowPage kind={brokerClients} />} />
  </Routes>
);

const dialog = () => screen.findByRole("dialog", { name: /^Key of/ });

describe("broker clients", () => {
  it("creates a client with its tenants and shows its key once: gone from the page when closed", async () => {
    const calls = mockApi({
      "POST /broker-clients": (call: Call) => ({
        status: 201,
        body: { ...client, ...(call.body as object), key },
      }),
      [`GET /broker-clients/${id}`]: { body: client },
      "GET /audit": { body: { items: [], next: null } },
    });
    const { user } = renderAt("/broker-clients/create", "*", pages);
    await user.type(field("Name"), "Shelf counter");
    await user.click(screen.getByRole("checkbox", { name: "(default tenant)" }));
    await user.type(field("Tenants"), "supermarket");
    await user.click(screen.getByRole("button", { name: "Add" }));
    await user.type(field("Tenants"), "parking{Enter}");
    await user.click(screen.getByRole("button", { name: "Remove parking" }));
    await user.selectOptions(field("Access"), "write");
    await user.click(screen.getByRole("button", { name: "Create" }));

    await waitFor(() => expect(sent(calls, "POST")).toHaveLength(1));
    expect(sent(calls, "POST")[0]!.body).toEqual({
      name: "Shelf counter",
      tenants: ["", "supermarket"],
      access: "write",
    });
    await waitFor(() => expect(currentPath()).toBe(`/broker-clients/${encodeURIComponent(id)}`));

    const shown = await dialog();
    expect(within(shown).getByText(key)).toBeInTheDocument();
    expect(within(shown).getByText(/it will not be shown again/)).toBeInTheDocument();
    expect(within(shown).getByText(/NGSILD-Tenant: supermarket/)).toHaveTextContent(
      `Authorization: Bearer ${key}`,
    );
    // Only its button closes it: a click beside or Escape would lose the key unseen.
    await user.keyboard("{Escape}");
    expect(screen.getByRole("dialog", { name: /^Key of/ })).toBeInTheDocument();
    await user.click(within(shown).getByRole("button", { name: "I have copied it" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.body.textContent).not.toContain(key.slice(4));
    // The default tenant is written readably.
    expect(screen.getByText("(default tenant)")).toBeInTheDocument();
  });

  it("replaces the key after asking, with the ETag read, and shows the new one once", async () => {
    const calls = mockApi({
      [`GET /broker-clients/${id}`]: { body: client, headers: { etag: '"4"' } },
      [`POST /broker-clients/${id}/key`]: { body: { ...client, key }, headers: { etag: '"5"' } },
      "GET /audit": { body: { items: [], next: null } },
    });
    const { user } = renderAt(`/broker-clients/${encodeURIComponent(id)}`, "*", pages);
    expect(await screen.findByText("Shelf counter", { selector: "h1" })).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).toBeNull(); // no key is shown on a plain visit
    await user.click(screen.getByRole("button", { name: "New key" }));
    // A dialog's first opening loads its code (errors/Dialogs.tsx): it shows a moment after the click.
    expect(
      await screen.findByText("Replace the key of “Shelf counter”? The current key stops working at once."),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Yes" }));
    const shown = await dialog();
    expect(within(shown).getByText(key)).toBeInTheDocument();
    const post = sent(calls, "POST")[0]!;
    expect(post.path).toBe(`/broker-clients/${id}/key`);
    expect(post.headers["if-match"]).toBe('"4"');
    await user.click(within(shown).getByRole("button", { name: "I have copied it" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.body.textContent).not.toContain(key.slice(4));
  });

  it("revokes after asking; a revoked client offers neither New key nor Revoke", async () => {
    let revoked = false;
    const calls = mockApi({
      [`GET /broker-clients/${id}`]: () => ({ body: { ...client, revoked } }),
      [`POST /broker-clients/${id}/revoke`]: () => {
        revoked = true;
        return { body: { ...client, revoked: true, revokedAt: 1_790_000_100 } };
      },
      "GET /audit": { body: { items: [], next: null } },
    });
    const { user } = renderAt(`/broker-clients/${encodeURIComponent(id)}`, "*", pages);
    await user.click(await screen.findByRole("button", { name: "Revoke" }));
    expect(screen.getByText(/Its key stops working at once and it gets no other/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Yes" }));
    expect(await screen.findByText("Revoked: no key works for this client any more.")).toBeInTheDocument();
    expect(sent(calls, "POST").map((c) => c.path)).toEqual([`/broker-clients/${id}/revoke`]);
    expect(screen.queryByRole("button", { name: "New key" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Revoke" })).toBeNull();
  });

  it("is in the Administration menu of administrators only", async () => {
    mockApi({});
    const admin = renderAt("/", "/", <TopBar />);
    await admin.user.click(await screen.findByRole("button", { name: "Administration" }));
    expect(await screen.findByRole("link", { name: "Broker clients" })).toHaveAttribute(
      "href",
      "/broker-clients",
    );
    admin.unmount();
    // The operator's and the viewer's reading permission (config/permissions.yaml).
    mockApi({}, [allow("GET", "^/api/(?!(audit|broker-clients)(/|$)).*")]);
    const viewer = renderAt("/", "/", <TopBar />);
    await viewer.user.click(await screen.findByRole("button", { name: "Administration" }));
    expect(await screen.findByRole("link", { name: /Context brokers/ })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Broker clients" })).toBeNull();
  });

  it("writes a curl example on the first named tenant, without the tenant header for the default one alone", () => {
    expect(curlExample(key, ["", "supermarket"], "https://orrery.example.org")).toBe(
      [
        `curl -H "Authorization: Bearer ${key}" \\`,
        `  -H "NGSILD-Tenant: supermarket" \\`,
        `  "https://orrery.example.org/ngsi-ld/v1/entities?type=<type>"`,
      ].join("\n"),
    );
    expect(curlExample(key, [""], "http://localhost:8080")).not.toContain("NGSILD-Tenant");
  });
});

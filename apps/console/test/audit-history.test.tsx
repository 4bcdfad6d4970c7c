import { screen, within } from "@testing-library/react";
import i18n from "../src/i18n/index.ts";
import { describe, expect, it } from "vitest";
import { contextBrokers } from "@orrery/model";
import { ShowPage } from "../src/resources/ShowPage.tsx";
import { allow, mockApi, renderAt, sent, settled } from "./support.tsx";

const id = "urn:ngsi-ld:ContextBroker:b1";
const broker = { id, name: "Orion North", scheme: "http", host: "b.example.org", port: 1027 };
const events = [
  {
    id: "7",
    at: "2026-11-20T10:15:00.000Z",
    subject: "s",
    username: "alice",
    provider: "keyrock",
    action: "update",
    kind: "context-brokers",
    recordId: id,
    title: "Orion North",
    workspaceId: "",
    outcome: "success",
    changes: [{ field: "port", before: 1026, after: 1027 }],
    detail: null,
  },
  {
    id: "3",
    at: "2026-11-19T08:00:00.000Z",
    subject: "s",
    username: "bob",
    provider: "keyrock",
    action: "create",
    kind: "context-brokers",
    recordId: id,
    title: "Orion North",
    workspaceId: "",
    outcome: "success",
    changes: [{ field: "name", after: "Orion North" }],
    detail: null,
  },
];

const renderShow = (permissions?: Parameters<typeof mockApi>[1]) => {
  const calls = mockApi(
    {
      [`GET /context-brokers/${id}`]: { body: broker },
      "GET /audit": { body: { items: events, next: null } },
    },
    permissions,
  );
  return {
    calls,
    ...renderAt(
      `/context-brokers/${encodeURIComponent(id)}`,
      "/context-brokers/:id",
      <ShowPage kind={contextBrokers} />,
    ),
  };
};

describe("a record's History on its show page", () => {
  it("shows who changed the record and how, newest first, asked for this record only", async () => {
    const { user, calls } = renderShow();
    await user.click(await screen.findByRole("button", { name: "Show the history" }));
    const update = await screen.findByRole("region", { name: "Updated" });
    expect(update).toHaveTextContent("By alice (keyrock)");
    const port = within(update).getByRole("row", { name: /Port/ });
    expect(within(port).getByText("1026").tagName).toBe("DEL");
    expect(within(port).getByText("1027").tagName).toBe("INS");
    expect(screen.getByRole("region", { name: "Created" })).toHaveTextContent("By bob (keyrock)");
    const asked = sent(calls, "GET").filter((c) => c.path === "/audit");
    expect(asked).toHaveLength(1);
  });

  it("is not there, and asks nothing, for whom may not read the trail", async () => {
    const { client, calls } = renderShow([allow("GET", "^/api/(?!audit(/|$)).*")]);
    await settled(client);
    expect(await screen.findByText("b.example.org")).toBeInTheDocument();
    expect(screen.queryByText("History")).toBeNull();
    expect(sent(calls, "GET").map((c) => c.path)).not.toContain("/audit");
  });

  it("speaks French", async () => {
    await i18n.changeLanguage("fr");
    try {
      const { user } = renderShow();
      await user.click(await screen.findByRole("button", { name: "Afficher l’historique" }));
      expect(await screen.findByRole("region", { name: "Modifié" })).toHaveTextContent("Par alice (keyrock)");
      expect(screen.getByRole("heading", { name: "Historique" })).toBeInTheDocument();
    } finally {
      await i18n.changeLanguage("en");
    }
  });
});

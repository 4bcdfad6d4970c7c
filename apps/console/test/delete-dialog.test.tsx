import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { contextBrokers, dataServices } from "@orrery/model";
import i18n from "../src/i18n/index.ts";
import { ShowPage } from "../src/resources/ShowPage.tsx";
import { mockApi, renderAt, sent, type Answer } from "./support.tsx";

// Issue 37, "The console says what will happen before it happens": a delete's confirmation names
// what keeps the record, or what goes with it, before Yes.

const id = "urn:ngsi-ld:ContextBroker:a";
const broker = {
  id,
  name: "Embedded broker",
  scheme: "http",
  host: "alpha",
  port: 1026,
  paginationMaxLimit: 100,
};
const checkUrl = `GET /context-brokers/${id}/delete-check`;
const service = (n: string) => ({
  id: `urn:ngsi-ld:Service:${n}`,
  kind: "services",
  name: n === "demo" ? "Demo service" : "Protected demo service",
  refs: { hasContextBroker: id },
});

const showBroker = (check: Answer | ((n: number) => Answer)) => {
  let asked = 0;
  const calls = mockApi({
    [`GET /context-brokers/${id}`]: { body: broker },
    [checkUrl]: () => (typeof check === "function" ? check(++asked) : check),
    [`DELETE /context-brokers/${id}`]: { status: 204 },
  });
  return {
    calls,
    ...renderAt(`/context-brokers/${id}`, "/context-brokers/:id", <ShowPage kind={contextBrokers} />),
  };
};

const open = async (user: ReturnType<typeof showBroker>["user"], name = "Delete") => {
  await user.click(await screen.findByRole("button", { name }));
  return screen.findByRole("dialog");
};

afterEach(() => i18n.changeLanguage("en"));

describe("a delete's confirmation", () => {
  it("names what keeps the record, with links, before Yes, and Yes cannot be given", async () => {
    const { user, calls } = showBroker({
      body: { blockers: [service("demo"), service("protected")], cascades: [] },
    });
    const dialog = await open(user);
    expect(dialog).toHaveTextContent(
      "Are you sure you want to delete this context broker, “Embedded broker”?",
    );
    expect(
      await within(dialog).findByText(
        "It cannot be deleted while these records refer to it: delete them or change them first.",
      ),
    ).toBeInTheDocument();
    const list = within(dialog).getByRole("list", { name: "What still uses it" });
    expect(within(list).getByRole("link", { name: "service “Demo service”" })).toHaveAttribute(
      "href",
      `/services/${encodeURIComponent("urn:ngsi-ld:Service:demo")}`,
    );
    expect(within(list).getByRole("link", { name: "service “Protected demo service”" })).toBeInTheDocument();
    const yes = within(dialog).getByRole("button", { name: "Yes" });
    expect(yes).toBeDisabled();
    expect(yes).toHaveAccessibleDescription(/cannot be deleted while these records refer to it/);
    await user.click(within(dialog).getByRole("button", { name: "No" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(sent(calls, "DELETE")).toEqual([]);
  });

  it("reads the same in French", async () => {
    await i18n.changeLanguage("fr");
    const { user } = showBroker({ body: { blockers: [service("demo")], cascades: [] } });
    const dialog = await open(user, "Supprimer");
    await within(dialog).findByRole("link", { name: "service « Demo service »" });
    // The French colon after a no-break space, as the catalogue writes it.
    expect(dialog.querySelector("#delete-blocked")!.textContent).toBe(
      "Il ne peut être supprimé tant que ces enregistrements y font référence\u00a0: supprimez-les ou modifiez-les d’abord.",
    );
    expect(within(dialog).getByRole("link", { name: "service « Demo service »" })).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Oui" })).toBeDisabled();
  });

  it("says how many more keep it when the check lists only the first of them, in English and French", async () => {
    const { user } = showBroker({
      body: { blockers: [service("demo"), service("protected")], blockersTotal: 14, cascades: [] },
    });
    let dialog = await open(user);
    const list = await within(dialog).findByRole("list", { name: "What still uses it" });
    expect(within(list).getAllByRole("listitem").at(-1)).toHaveTextContent(/^and 12 more$/);
    await user.click(within(dialog).getByRole("button", { name: "No" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await i18n.changeLanguage("fr");
    dialog = await open(user, "Supprimer");
    expect(await within(dialog).findByText("et 12 autres")).toBeInTheDocument();
  });

  it("says no more when the check named every one", async () => {
    const { user } = showBroker({ body: { blockers: [service("demo")], blockersTotal: 1, cascades: [] } });
    const dialog = await open(user);
    const list = await within(dialog).findByRole("list", { name: "What still uses it" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(1);
  });

  it("says nothing else uses it, and Yes deletes", async () => {
    const { user, calls } = showBroker({ body: { blockers: [], cascades: [] } });
    const dialog = await open(user);
    expect(await within(dialog).findByText("Nothing else uses it.")).toBeInTheDocument();
    const yes = within(dialog).getByRole("button", { name: "Yes" });
    expect(yes).toBeEnabled();
    await user.click(yes);
    await waitFor(() => expect(sent(calls, "DELETE")).toHaveLength(1));
  });

  it("keeps Yes until the check has answered", async () => {
    let answer: (a: Answer) => void = () => {};
    const pending = new Promise<Answer>((resolve) => (answer = resolve));
    const calls = mockApi({
      [`GET /context-brokers/${id}`]: { body: broker },
      [`DELETE /context-brokers/${id}`]: { status: 204 },
    });
    // The check answers only when told to.
    const fetching = globalThis.fetch;
    globalThis.fetch = (async (input: string, init?: RequestInit) =>
      String(input).endsWith("/delete-check")
        ? pending.then((a) => new Response(JSON.stringify(a.body), { status: a.status ?? 200 }))
        : fetching(input, init)) as typeof fetch;
    const { user } = renderAt(
      `/context-brokers/${id}`,
      "/context-brokers/:id",
      <ShowPage kind={contextBrokers} />,
    );
    const dialog = await open(user);
    expect(within(dialog).getByRole("status")).toHaveTextContent("Looking for what uses it…");
    expect(within(dialog).getByRole("button", { name: "Yes" })).toBeDisabled();
    answer({ body: { blockers: [], cascades: [] } });
    await waitFor(() => expect(within(dialog).getByRole("button", { name: "Yes" })).toBeEnabled());
    expect(sent(calls, "DELETE")).toEqual([]);
  });

  it("asks again at every opening: a blocker removed meanwhile no longer keeps it", async () => {
    const { user } = showBroker((n) => ({
      body: { blockers: n === 1 ? [service("demo")] : [], cascades: [] },
    }));
    let dialog = await open(user);
    await within(dialog).findByRole("link", { name: "service “Demo service”" });
    await user.click(within(dialog).getByRole("button", { name: "No" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    dialog = await open(user);
    expect(await within(dialog).findByText("Nothing else uses it.")).toBeInTheDocument();
    expect(within(dialog).queryByRole("link", { name: "service “Demo service”" })).toBeNull();
    expect(within(dialog).getByRole("button", { name: "Yes" })).toBeEnabled();
  });

  it("leaves the delete to answer when the check cannot be made", async () => {
    const { user, calls } = showBroker({ status: 503, body: { title: "Service Unavailable", status: 503 } });
    const dialog = await open(user);
    expect(
      await within(dialog).findByText(
        "What uses it could not be checked: if something keeps it, the deletion will say so.",
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Yes" }));
    await waitFor(() => expect(sent(calls, "DELETE")).toHaveLength(1));
  });

  it("names what goes with a data service, and the records its blockers sit under", async () => {
    const ws = "ws1";
    const svc = {
      id: "urn:ngsi-ld:DataService:shelf",
      name: "Shelf stock levels",
      hasEntityType: "urn:ngsi-ld:Type:shelf",
    };
    const td = "urn:ngsi-ld:WoTThingDescription:smart";
    mockApi({
      [`GET /workspaces/${ws}`]: { body: { id: ws, name: "Supermarket", dataModelUpToDate: true } },
      [`GET /workspace/${ws}/data-services/${svc.id}`]: { body: svc },
      [`GET /workspace/${ws}/data-services/${svc.id}/delete-check`]: {
        body: {
          blockers: [
            {
              id: "urn:ngsi-ld:WoTEvent:stockChanged",
              kind: "wot-events",
              name: "stockChanged",
              workspaceId: ws,
              refs: { hasDataService: svc.id, hasWoTThingDescription: td },
            },
          ],
          cascades: [
            {
              id: "urn:ngsi-ld:Property:items",
              kind: "properties",
              name: "numberOfItems",
              workspaceId: ws,
              refs: { hasType: "urn:ngsi-ld:Type:shelf" },
            },
          ],
        },
      },
    });
    const { user } = renderAt(
      `/workspace/${ws}/data-services/${encodeURIComponent(svc.id)}`,
      "/workspace/:workspaceId/data-services/:dataServiceId",
      <ShowPage kind={dataServices} />,
    );
    const dialog = await open(user);
    const event = await within(dialog).findByRole("link", { name: "WoT event “stockChanged”" });
    expect(event).toHaveAttribute(
      "href",
      `/workspace/${ws}/wot-thing-descriptions/${encodeURIComponent(td)}/wot-events/${encodeURIComponent("urn:ngsi-ld:WoTEvent:stockChanged")}`,
    );
    expect(
      within(dialog).getByText("Its links to these records go with it (the records themselves stay):"),
    ).toBeInTheDocument();
    const goes = within(dialog).getByRole("list", { name: "What goes with it" });
    expect(within(goes).getByRole("link", { name: "property “numberOfItems”" })).toHaveAttribute(
      "href",
      `/workspace/${ws}/types/${encodeURIComponent("urn:ngsi-ld:Type:shelf")}/properties/${encodeURIComponent("urn:ngsi-ld:Property:items")}`,
    );
    expect(within(dialog).getByRole("button", { name: "Yes" })).toBeDisabled();
  });
});

import { render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { contextBrokers } from "@orrery/model";
import { ApiError } from "../src/api.ts";
import { TopBar } from "../src/app/TopBar.tsx";
import { ErrorAlert } from "../src/errors/ErrorAlert.tsx";
import { setLanguage } from "../src/i18n/index.ts";
import { ShowPage } from "../src/resources/ShowPage.tsx";
import { currentPath, mockApi, renderAt, sent, type Answer } from "./support.tsx";

const id = "urn:ngsi-ld:ContextBroker:a";
const broker = { id, name: "Alpha", scheme: "http", host: "alpha", port: 1026, paginationMaxLimit: 100 };

describe("delete", () => {
  const renderShow = (deleteAnswer: Answer = { status: 204 }) => {
    const calls = mockApi({
      [`GET /context-brokers/${id}`]: { body: broker },
      [`DELETE /context-brokers/${id}`]: deleteAnswer,
    });
    const view = renderAt(
      `/context-brokers/${id}`,
      "/context-brokers/:id",
      <ShowPage kind={contextBrokers} />,
    );
    return { calls, ...view };
  };
  const askToDelete = async (user: ReturnType<typeof renderShow>["user"]) => {
    await user.click(await screen.findByRole("button", { name: "Delete" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("Are you sure you want to delete this context broker, “Alpha”?");
    // The tab says where the user is.
    expect(document.title).toBe("Alpha · Context brokers · Orrery");
    return dialog;
  };

  it("asks Yes/No first, and No deletes nothing", async () => {
    const { user, calls } = renderShow();
    const dialog = await askToDelete(user);
    expect(within(dialog).getByRole("button", { name: "Yes" })).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "No" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(sent(calls, "DELETE")).toHaveLength(0);
    expect(currentPath()).toBe(`/context-brokers/${id}`);
  });

  it("sends DELETE on Yes and goes to the list", async () => {
    const { user, calls } = renderShow();
    const dialog = await askToDelete(user);
    await user.click(within(dialog).getByRole("button", { name: "Yes" }));
    await waitFor(() => expect(currentPath()).toBe("/context-brokers"));
    expect(sent(calls, "DELETE").map((c) => c.path)).toEqual([`/context-brokers/${id}`]);
    // The deleted record is not asked for again (it would only answer 404).
    const deletedAt = calls.findIndex((c) => c.method === "DELETE");
    expect(
      calls.slice(deletedAt).filter((c) => c.method === "GET" && c.path === `/context-brokers/${id}`),
    ).toEqual([]);
  });

  it("shows the deletion failure dialog with the server's detail on 409", async () => {
    const detail = "The service City refers to this context broker.";
    const referrers = [{ id: "urn:ngsi-ld:Service:city", kind: "services", name: "City" }];
    const { user } = renderShow({ status: 409, body: { title: "Conflict", status: 409, detail, referrers } });
    const confirm = await askToDelete(user);
    await user.click(within(confirm).getByRole("button", { name: "Yes" }));
    const failure = await screen.findByRole("dialog", { name: "Error" });
    expect(failure).toHaveTextContent("The deletion of the context broker has failed.");
    expect(failure).toHaveTextContent(detail);
    expect(screen.getByTestId("error-alert")).toHaveTextContent("Conflict");
    // What keeps it, as links to their pages.
    expect(screen.getByRole("link", { name: "service “City”" })).toHaveAttribute(
      "href",
      `/services/${encodeURIComponent("urn:ngsi-ld:Service:city")}`,
    );
    expect(currentPath()).toBe(`/context-brokers/${id}`);
    await user.click(within(failure).getAllByRole("button", { name: "Close" }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("says how many more keep it when a refused delete names only the first of them", async () => {
    const referrers = [{ id: "urn:ngsi-ld:Service:city", kind: "services", name: "City" }];
    const { user } = renderShow({
      status: 409,
      body: { title: "Conflict", status: 409, code: "record.inUse", referrers, referrersTotal: 13 },
    });
    const confirm = await askToDelete(user);
    await user.click(within(confirm).getByRole("button", { name: "Yes" }));
    await screen.findByRole("dialog", { name: "Error" });
    const alert = screen.getByTestId("error-alert");
    expect(within(alert).getByTestId("blockers-more")).toHaveTextContent("and 12 more");
  });
});

describe("error alert", () => {
  it("shows the heading, the title and the details as JSON", () => {
    const error = new ApiError(409, {
      title: "Conflict",
      detail: "Still referenced",
      referencedBy: ["urn:ngsi-ld:Service:1"],
    });
    render(<ErrorAlert error={error} />);
    const alert = screen.getByRole("alert");
    expect(within(alert).getByRole("heading", { name: "the api returned an error" })).toBeInTheDocument();
    expect(within(alert).getByText("Conflict", { selector: "p" })).toBeInTheDocument();
    for (const text of ["detail", "Still referenced", "referencedBy", "urn:ngsi-ld:Service:1"]) {
      expect(within(alert).getAllByText(new RegExp(text)).length).toBeGreaterThan(0);
    }
  });

  it("renders nothing without an error", () => {
    const { container } = render(<ErrorAlert error={null} />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe("language", () => {
  afterEach(() => setLanguage("en"));

  it("turns the labels French and stores the choice", async () => {
    mockApi();
    const { user } = renderAt("/workspaces", "*", <TopBar />);
    await user.click(screen.getByRole("button", { name: "French" }));
    expect(await screen.findByRole("button", { name: "Se déconnecter" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Français" })).toHaveAttribute("aria-pressed", "true");
    await user.click(await screen.findByRole("button", { name: "Administration" }));
    expect(await screen.findByRole("link", { name: "Courtiers de contexte" })).toBeInTheDocument();
    expect(localStorage.getItem("orrery.language")).toBe("fr");
    expect(document.documentElement.lang).toBe("fr");
  });

  it("starts in the stored language after a reload", async () => {
    localStorage.setItem("orrery.language", "fr");
    vi.resetModules(); // the console's modules load again, as on a page reload (the translator is a new one)
    const reloaded = (await import("../src/i18n/index.ts")).default;
    expect(reloaded.language).toBe("fr");
    expect(reloaded.t("kinds.context-brokers.many")).toBe("Courtiers de contexte");
  });
});

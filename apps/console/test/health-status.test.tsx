import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import StatusPage from "../src/health/StatusPage.tsx";
import type { ComponentHealth, HealthPage, HealthSummary } from "../src/health/healthApi.ts";
import i18n from "../src/i18n/index.ts";
import { allow, mockApi, renderAt, sent, type Call } from "./support.tsx";

// The platform's Status page: every registered component with its last result, "Check all now",
// and results read again by themselves.

const embedded: ComponentHealth = {
  kind: "context-brokers",
  id: "urn:ngsi-ld:ContextBroker:embedded",
  name: "Embedded broker",
  state: "up",
  reasons: [],
  roundTripMs: 12,
  version: "0.1.0 (NGSI-LD 1.8)",
  checkedAt: "2026-11-26T04:00:00.000Z",
};
const closed: ComponentHealth = {
  kind: "identity-managers",
  id: "urn:ngsi-ld:IdentityManager:closed",
  name: "Closed Keyrock",
  state: "down",
  reasons: [
    { code: "health.refused", message: "The connection was refused: nothing listens at 127.0.0.1:9." },
  ],
  roundTripMs: 2,
  version: null,
  checkedAt: "2026-11-26T04:00:01.000Z",
};
const fresh: ComponentHealth = {
  ...closed,
  id: "urn:ngsi-ld:IdentityManager:new",
  name: "New one",
  state: "unchecked",
  reasons: [],
  roundTripMs: null,
  checkedAt: null,
};

const rank = ["down", "unchecked", "up", "notApplicable"];
const kindOrder = [
  "context-brokers",
  "identity-managers",
  "vc-verifiers",
  "policy-administration-points",
  "credentials-config-services",
];

/**
 * The API's health routes over these components, as it answers them: GET /health/summary (counts
 * per kind and state) and GET /health/components?limit&offset (a page, down first, by name).
 */
function health(components: () => ComponentHealth[], intervalSeconds = 60) {
  const summary = (): HealthSummary => {
    const all = components();
    const count = (kind: string, state: string) =>
      all.filter((c) => c.kind === kind && c.state === state).length;
    const kinds = kindOrder
      .map((kind) => ({
        kind,
        down: count(kind, "down"),
        unchecked: count(kind, "unchecked"),
        up: count(kind, "up"),
        notApplicable: count(kind, "notApplicable"),
      }))
      .filter((k) => k.down + k.unchecked + k.up + k.notApplicable > 0);
    const down = all.filter((c) => c.state === "down").length;
    return { intervalSeconds, timeoutSeconds: 10, total: all.length, down, kinds };
  };
  const page = (): HealthPage => {
    // The address of the call being answered: mockApi's routes see its path only.
    const query = new URL(String(vi.mocked(fetch).mock.lastCall![0]), "http://localhost").searchParams;
    const [limit, offset] = [Number(query.get("limit")), Number(query.get("offset") ?? 0)];
    const sorted = [...components()].sort(
      (a, b) =>
        rank.indexOf(a.state) - rank.indexOf(b.state) ||
        a.name.toLowerCase().localeCompare(b.name.toLowerCase()),
    );
    const components_ = sorted.slice(offset, offset + limit);
    return { intervalSeconds, timeoutSeconds: 10, total: sorted.length, components: components_ };
  };
  return {
    "GET /health/summary": () => ({ body: summary() }),
    "GET /health/components": () => ({ body: page() }),
  };
}

const row = (name: string) => screen.getByText(name).closest("tr")!;

afterEach(async () => {
  vi.useRealTimers();
  await i18n.changeLanguage("en");
});

describe("the Status page", () => {
  it("lists the policy administration points and credentials configuration services, named by kind and linked, in French", async () => {
    await i18n.changeLanguage("fr");
    const pap: ComponentHealth = {
      ...embedded,
      kind: "policy-administration-points",
      id: "urn:ngsi-ld:PolicyAdministrationPoint:pap",
      name: "PAP du fournisseur",
      version: null,
    };
    const ccs: ComponentHealth = {
      ...closed,
      kind: "credentials-config-services",
      id: "urn:ngsi-ld:CredentialsConfigService:ccs",
      name: "CCS du vérifieur",
    };
    mockApi(health(() => [pap, ccs]));
    renderAt("/status", "/status", <StatusPage />);
    await screen.findByText("PAP du fournisseur");
    expect(row("PAP du fournisseur")).toHaveTextContent(/point d.administration des politiques/i);
    expect(
      within(row("PAP du fournisseur")).getByRole("link", { name: "PAP du fournisseur" }),
    ).toHaveAttribute(
      "href",
      "/policy-administration-points/urn%3Angsi-ld%3APolicyAdministrationPoint%3Apap",
    );
    expect(row("CCS du vérifieur")).toHaveTextContent(/service de configuration des attestations/i);
    expect(within(row("CCS du vérifieur")).getByRole("link", { name: "CCS du vérifieur" })).toHaveAttribute(
      "href",
      "/credentials-config-services/urn%3Angsi-ld%3ACredentialsConfigService%3Accs",
    );
  });

  it("lists every component with its state, the reason it is down, its round trip, version and check time", async () => {
    mockApi(health(() => [embedded, closed, fresh]));
    renderAt("/status", "/status", <StatusPage />);
    await screen.findByText("Embedded broker");
    expect(row("Embedded broker")).toHaveTextContent("Up");
    expect(row("Embedded broker")).toHaveTextContent("12 ms");
    expect(row("Embedded broker")).toHaveTextContent("0.1.0 (NGSI-LD 1.8)");
    expect(within(row("Embedded broker")).getByRole("link", { name: "Embedded broker" })).toHaveAttribute(
      "href",
      "/context-brokers/urn%3Angsi-ld%3AContextBroker%3Aembedded",
    );
    expect(row("Closed Keyrock")).toHaveTextContent("Down");
    expect(row("Closed Keyrock")).toHaveTextContent("nothing listens at 127.0.0.1:9");
    expect(row("Closed Keyrock").querySelector("time")).toHaveAttribute("dateTime", closed.checkedAt);
    expect(row("New one")).toHaveTextContent("Not checked yet");
    expect(row("New one")).toHaveTextContent("never");
    expect(screen.getByText("1 component is down.")).toBeInTheDocument();
    expect(screen.getByText(/checked in the background every 60 s/)).toBeInTheDocument();
  });

  it("checks all now, and shows the new results", async () => {
    let checked = false;
    const calls: Call[] = mockApi({
      ...health(() =>
        checked ? [embedded, { ...closed, state: "up", reasons: [], version: "8.3.0" }] : [embedded, closed],
      ),
      "POST /health/components": () => {
        checked = true;
        return { body: {} };
      },
    });
    const { user } = renderAt("/status", "/status", <StatusPage />);
    await screen.findByText("Closed Keyrock");
    await user.click(screen.getByRole("button", { name: "Check all now" }));
    await waitFor(() => expect(sent(calls, "POST").map((c) => c.path)).toEqual(["/health/components"]));
    await waitFor(() => expect(row("Closed Keyrock")).toHaveTextContent("8.3.0"));
  });

  it("reads the results again by itself, so that a component that goes down shows without a reload", async () => {
    let answer = [embedded];
    mockApi(health(() => answer, 8));
    renderAt("/status", "/status", <StatusPage />);
    await screen.findByText("Embedded broker");
    expect(row("Embedded broker")).toHaveTextContent("Up");
    answer = [
      {
        ...embedded,
        state: "down",
        reasons: [{ code: "health.timedOut", message: "No answer within 10 s." }],
      },
    ];
    // A quarter of the 8 s interval: the page asks again within 2 s.
    await waitFor(() => expect(row("Embedded broker")).toHaveTextContent("No answer within 10 s."), {
      timeout: 4_000,
    });
    expect(row("Embedded broker")).toHaveTextContent("Down");
  });

  it("keeps a platform of thousands readable: a count per kind and state, the components down first, a page at a time", async () => {
    // 130 components of three kinds, named out of order; the three down ones are named to sort last.
    const many: ComponentHealth[] = Array.from({ length: 130 }, (_, i) => ({
      ...(i % 3 === 0 ? embedded : closed),
      kind: ["context-brokers", "identity-managers", "vc-verifiers"][i % 3]!,
      id: `urn:ngsi-ld:Component:${i}`,
      name: `Component ${String(129 - i).padStart(3, "0")}`,
      state: i % 3 === 0 ? "up" : i % 3 === 1 ? "unchecked" : "notApplicable",
      reasons: [],
    }));
    for (const [i, name] of [
      [10, "zz down .*+?(|\\"],
      [11, "zz down two"],
      [12, "zz down three"],
    ] as const)
      many[i] = { ...closed, id: `urn:ngsi-ld:IdentityManager:${i}`, name };
    const calls = mockApi(health(() => many));
    const { user } = renderAt("/status", "/status", <StatusPage />);
    const byKind = await screen.findByRole("table", { name: "Components by kind and state" });
    const cells = (selector: string) => Array.from(byKind.querySelectorAll(selector), (c) => c.textContent);
    const counts = (kind: string) => cells(`tr[data-kind="${kind}"] td`);
    // Columns: down, not checked yet, up, not applicable.
    expect(cells("thead th")).toEqual(["Kind", "Down", "Not checked yet", "Up", "Not applicable"]);
    expect(cells("tbody th")).toEqual(["Context brokers", "Identity managers", "VC verifiers"]);
    expect(counts("context-brokers")).toEqual(["0", "0", "43", "0"]);
    expect(counts("identity-managers")).toEqual(["3", "42", "0", "0"]);
    expect(counts("vc-verifiers")).toEqual(["0", "0", "0", "42"]);
    expect(screen.getByText("3 components are down.")).toBeInTheDocument();

    const components = () => document.querySelectorAll("tr[data-component]");
    expect(components()).toHaveLength(100);
    expect([...components()].slice(0, 4).map((tr) => tr.querySelector("td")!.textContent)).toEqual([
      "zz down .*+?(|\\",
      "zz down three",
      "zz down two",
      // Then the ones not checked yet, by name.
      "Component 002",
    ]);
    // The API sent the first page only, and sends the next one on "Show more".
    const asked = () =>
      vi
        .mocked(fetch)
        .mock.calls.map(([input]) => String(input))
        .filter((url) => url.includes("/health/components"));
    expect(asked()).toEqual(["/api/health/components?limit=100&offset=0"]);
    await user.click(screen.getByText("Show more (100 of 130 shown)"));
    await waitFor(() => expect(components()).toHaveLength(130));
    expect(asked()).toEqual([
      "/api/health/components?limit=100&offset=0",
      "/api/health/components?limit=100&offset=100",
    ]);
    expect(screen.queryByText(/Show more/)).toBeNull();
    expect(sent(calls, "GET").filter((c) => c.path === "/health/summary")).toHaveLength(1);
  }, 20_000);

  it("offers no check to a viewer, who still reads the results", async () => {
    mockApi(
      health(() => [embedded]),
      [allow("GET", "^/api/.*")],
    );
    renderAt("/status", "/status", <StatusPage />);
    await screen.findByText("Embedded broker");
    expect(screen.queryByRole("button", { name: "Check all now" })).toBeNull();
  });

  it("speaks French", async () => {
    await i18n.changeLanguage("fr");
    mockApi(health(() => [embedded, closed]));
    renderAt("/status", "/status", <StatusPage />);
    await screen.findByText("Embedded broker");
    expect(screen.getByRole("heading", { name: "État" })).toBeInTheDocument();
    expect(row("Embedded broker")).toHaveTextContent("Disponible");
    expect(row("Closed Keyrock")).toHaveTextContent("Indisponible");
    expect(screen.getByRole("button", { name: "Tout tester maintenant" })).toBeInTheDocument();
    expect(screen.getByText("1 composant est indisponible.")).toBeInTheDocument();
  });
});

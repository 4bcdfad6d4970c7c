import { screen, waitFor, within } from "@testing-library/react";
import i18n from "../src/i18n/index.ts";
import { describe, expect, it, vi } from "vitest";
import { tickFormats } from "../src/context-data/TemporalChart.tsx";
import { numericSeries, sortedValues } from "../src/context-data/temporal.ts";
import { TemporalView } from "../src/context-data/TemporalView.tsx";
import { routePaths, routeTo } from "../src/routes.ts";
import { building, modelRoutes, mockContextApi, T, type RawAnswer } from "./context-data-support.tsx";
import { renderAt, settled } from "./support.tsx";

// jsdom has no canvas: the chart is a stand-in that shows what it was given.
vi.mock("../src/context-data/TemporalChart.tsx", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  default: ({ series, writtenLabel }: { series: unknown[][]; writtenLabel: string }) => (
    <div data-testid="temporal-chart" data-written={writtenLabel}>
      {JSON.stringify(series)}
    </div>
  ),
}));

const servicePath = `/workspace/ws1/temporal-entities/${building.id}/properties/urn:ngsi-ld:Property:temperature/temporal-services/urn:ngsi-ld:TemporalService:ts1`;

function renderView(answer: RawAnswer) {
  const calls = mockContextApi({
    ...modelRoutes,
    [`GET /workspace/ws1/entities/${building.id}`]: { body: building },
    "GET /temporal-services": { body: [{ id: "urn:ngsi-ld:TemporalService:ts1", name: "Mintaka" }] },
    [`GET ${servicePath}`]: answer,
  });
  const url = routeTo("temporalEntities.properties.show", {
    workspaceId: "ws1",
    typeId: T.building,
    entityId: building.id,
    propertyId: "urn:ngsi-ld:Property:temperature",
  });
  const view = renderAt(url, routePaths["temporalEntities.properties.show"]!, <TemporalView />);
  return { calls, ...view };
}

describe("temporal view", () => {
  it("asks for the last hour in UTC and lists the values newest first", async () => {
    const { calls, client } = renderView({
      body: {
        id: building.id,
        data: [
          {
            type: "Property",
            value: 20,
            observedAt: "2025-01-31T10:00:00Z",
            unit: { type: "Property", value: "CEL" },
          },
          { type: "Property", value: 22, observedAt: "2025-01-31T10:20:00Z" },
          { type: "Property", value: 21, observedAt: "2025-01-31T10:10:00Z" },
          // Undated (written without observedAt): no place in a history.
          { type: "Property", value: 99 },
        ],
      },
    });
    await settled(client);
    const table = await screen.findByRole("table", { name: "Values over time" });
    const dates = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((r) => r.querySelector("td")!.textContent);
    expect(dates).toEqual(["2025-01-31T10:20:00Z", "2025-01-31T10:10:00Z", "2025-01-31T10:00:00Z"]);
    expect(within(table).queryByText("99")).toBeNull();
    expect(within(table).getByRole("columnheader", { name: "unit" })).toBeInTheDocument();
    expect(within(table).getByText("CEL")).toBeInTheDocument();
    expect(screen.getByTestId("temporal-scroll")).toHaveStyle({ maxHeight: "500px" });
    // The window: from an hour ago to now, in unix seconds; the inputs show it in UTC.
    const call = calls.find((c) => c.path === servicePath)!;
    const from = Number(call.query.get("fromTime"));
    const to = Number(call.query.get("toTime"));
    expect(to - from).toBe(3600);
    expect(Math.abs(to - Date.now() / 1000)).toBeLessThan(120);
    const shown = Date.parse(`${(screen.getByLabelText("To (UTC)") as HTMLInputElement).value}:00Z`) / 1000;
    expect(Math.abs(to - shown)).toBeLessThanOrEqual(120);
    expect(screen.getByLabelText("Temporal service")).toHaveDisplayValue("Mintaka");
    // Every value observed: the legend names the line only.
    const legend = screen.getByRole("list", { name: "Legend of the chart" });
    expect(within(legend).getAllByRole("listitem")).toHaveLength(1);
  });

  it("shows values written without observedAt at their modifiedAt, marked, in English and French", async () => {
    const answer = {
      id: building.id,
      data: [
        {
          type: "Property",
          value: 20,
          observedAt: "2025-01-31T10:00:00Z",
          modifiedAt: "2025-01-31T10:00:01Z",
        },
        // A WoT action's writes: the broker's sysAttrs date them.
        {
          type: "Property",
          value: 500,
          createdAt: "2025-01-31T09:00:00Z",
          modifiedAt: "2025-01-31T11:05:00Z",
        },
        { type: "Property", value: "40", createdAt: "2025-01-31T11:07:00Z" },
      ],
    };
    const { client } = renderView({ body: answer });
    await settled(client);
    const table = await screen.findByRole("table", { name: "Values over time" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.querySelector("td .font-monospace")!.textContent)).toEqual([
      "2025-01-31T11:07:00Z",
      "2025-01-31T11:05:00Z",
      "2025-01-31T10:00:00Z",
    ]);
    expect(rows[1]!.querySelectorAll("td")[1]).toHaveTextContent("500");
    expect(rows[0]!.querySelectorAll("td")[1]).toHaveTextContent("40");
    const marks = within(table).getAllByTestId("temporal-written");
    expect(marks).toHaveLength(2);
    expect(marks[1]).toHaveAttribute(
      "title",
      "No observedAt: placed at the time the broker wrote it (modifiedAt).",
    );
    expect(marks[0]).toHaveAttribute(
      "title",
      "No observedAt: placed at the time the broker wrote it (createdAt).",
    );
    expect(within(rows[2]!).queryByTestId("temporal-written")).toBeNull();
    // The chart: every number on the line, those without observedAt marked again.
    const series = [
      [Date.UTC(2025, 0, 31, 10) / 1000, Date.UTC(2025, 0, 31, 11, 5) / 1000],
      [20, 500],
      [null, 500],
    ];
    expect(numericSeries(sortedValues(answer))).toEqual(series);
    const chart = await screen.findByTestId("temporal-chart");
    expect(chart).toHaveTextContent(JSON.stringify(series));
    expect(chart).toHaveAttribute("data-written", "written");
    // Its legend names the line and the hollow points of the values without observedAt.
    const legend = screen.getByRole("list", { name: "Legend of the chart" });
    expect(
      within(legend)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([expect.any(String), "written without observedAt (at the time the broker wrote it)"]);

    await i18n.changeLanguage("fr");
    try {
      expect(await within(table).findAllByText("écrite")).toHaveLength(2);
      const légende = screen.getByRole("list", { name: "Légende du graphique" });
      expect(within(légende).getAllByRole("listitem")[1]).toHaveTextContent(
        "écrite sans observedAt (à l’heure où le courtier l’a écrite)",
      );
      expect(within(table).getAllByTestId("temporal-written")[1]).toHaveAttribute(
        "title",
        "Sans observedAt\u00a0: placée à l’heure où le courtier l’a écrite (modifiedAt).",
      );
    } finally {
      await i18n.changeLanguage("en");
    }
  });

  it("reads the hour up to now again when a live change comes, so a value written after the page opened is in it", async () => {
    const { calls, client } = renderView({ body: { data: [] } });
    await settled(client);
    const first = calls.filter((c) => c.path === servicePath).at(-1)!;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await client.invalidateQueries({ queryKey: ["context-data", "ws1", "temporal"] });
    await settled(client);
    const again = calls.filter((c) => c.path === servicePath).at(-1)!;
    expect(Number(again.query.get("toTime"))).toBeGreaterThan(Number(first.query.get("toTime")));
    expect(Number(again.query.get("toTime"))).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it("asks again for the window typed in, on Apply", async () => {
    const { calls, user, client } = renderView({ body: { data: [] } });
    await settled(client);
    expect(await screen.findByText("No value in this window.")).toBeInTheDocument();
    const from = screen.getByLabelText("From (UTC)");
    await user.clear(from);
    await user.type(from, "2025-01-31T09:00");
    const to = screen.getByLabelText("To (UTC)");
    await user.clear(to);
    await user.type(to, "2025-01-31T11:00");
    await user.click(screen.getByRole("button", { name: "Apply" }));
    await waitFor(() =>
      expect(
        calls
          .filter((c) => c.path === servicePath)
          .at(-1)!
          .query.get("fromTime"),
      ).toBe(String(Date.UTC(2025, 0, 31, 9) / 1000)),
    );
    expect(
      calls
        .filter((c) => c.path === servicePath)
        .at(-1)!
        .query.get("toTime"),
    ).toBe(String(Date.UTC(2025, 0, 31, 11) / 1000));
  });

  it("says why Apply waits when From is after To", async () => {
    const { user, client } = renderView({ body: { data: [] } });
    await settled(client);
    const from = screen.getByLabelText("From (UTC)");
    await user.clear(from);
    await user.type(from, "2030-01-01T00:00");
    expect(screen.getByRole("button", { name: "Apply" })).toBeDisabled();
    expect(screen.getByLabelText("To (UTC)")).toHaveAccessibleDescription(/must be before/);
  });

  it("writes the chart's ticks in the reader's language, times in UTC", () => {
    const at = Date.UTC(2025, 0, 31, 14, 5) / 1000;
    expect(tickFormats("fr").times([at, at + 600])).toEqual(["14:05", "14:15"]);
    expect(tickFormats("en").times([at])[0]).toMatch(/^02:05\sPM$/);
    expect(tickFormats("fr").times([at, at + 86_400])[1]).toMatch(
      /^1 févr\.? 14:05$|^1 févr\.?, 14:05$|1 févr/,
    );
    expect(tickFormats("fr").numbers([21.5, 1000])).toEqual(["21,5", "1\u202f000"]);
  });

  it("shows an API error in the error alert instead of crashing", async () => {
    const { client } = renderView({
      status: 502,
      body: { title: "Bad gateway", detail: "mintaka: connection refused" },
    });
    await settled(client);
    expect(await screen.findByTestId("error-alert")).toHaveTextContent("Bad gateway");
    expect(screen.getByRole("button", { name: "Apply" })).toBeInTheDocument();
  });
});

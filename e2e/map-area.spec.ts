import { expect, test } from "@playwright/test";
import fr from "../apps/console/src/i18n/fr.json" with { type: "json" };
import { bearer, en, openSupermarket, selectType, workspaceIdOf } from "./support.ts";

// A type with more entities than the map holds (10,000): the map says so, and the user zooms to an
// area and asks for the entities there, which the API reads with a geo-query (issue 38's map of a
// bounding box). The entities are imported through the API and deleted afterwards, so that the
// demo's Shelf keeps its own.

const MANY = 10_050;

test("a map of more than 10,000 entities shows those of the area the user zoomed to, in English and French", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await openSupermarket(page);
  await selectType(page, "Shelf");
  const ws = workspaceIdOf(page);
  const typeId = new URL(page.url()).searchParams.get("typeId")!;
  const headers = await bearer(page);
  const workspace = (await (
    await page.request.get(`/api/workspaces/${encodeURIComponent(ws)}`, { headers })
  ).json()) as {
    contextBrokerTenant?: string;
  };
  // A grid of shelves over the Île-de-France, 1 km apart or so.
  const ids = Array.from({ length: MANY }, (_, i) => `urn:ngsi-ld:Shelf:area-${i}`);
  const rows = ids.map((id, i) => ({
    id,
    type: "Shelf",
    name: `Area shelf ${i}`,
    location: JSON.stringify({
      type: "Point",
      coordinates: [1.5 + (i % 100) * 0.015, 48.3 + Math.floor(i / 100) * 0.009],
    }),
  }));
  try {
    const imported = await page.request.post(
      `/api/workspace/${encodeURIComponent(ws)}/entities/import?typeId=${encodeURIComponent(typeId)}`,
      { headers, data: rows, timeout: 180_000 },
    );
    expect(imported.status(), await imported.text()).toBe(200);
    expect((await imported.json()).rejected).toEqual([]);

    await page.reload();
    await page.getByRole("tab", { name: en.map.tab }).click();
    const capped = page.getByText(/^Only the first 10000 of \d+ entities are shown\.$/);
    await expect(capped).toBeVisible({ timeout: 60_000 });
    const total = Number((await capped.textContent())!.match(/of (\d+)/)![1]);
    expect(total).toBeGreaterThan(MANY);

    // Zoomed in three steps on the middle of the grid: a few hundred shelves in view.
    const map = page.getByRole("region", { name: "Map of the Shelf entities" });
    for (let i = 0; i < 3; i++) {
      await map.getByRole("button", { name: "Zoom in" }).click();
      await page.waitForTimeout(400);
    }
    const asked = page.waitForResponse(
      (r) => r.url().includes("/entities?") && r.url().includes("georel=intersects"),
    );
    await page.getByRole("button", { name: en.map.searchArea }).click();
    const answer = await asked;
    expect(answer.status()).toBe(200);
    const inArea = page.getByText(/^Entities in the area shown: (\d+) of (\d+)\.$/);
    await expect(inArea).toBeVisible({ timeout: 30_000 });
    const [, shown, of] = (await inArea.textContent())!.match(/(\d+) of (\d+)/)!;
    expect(Number(shown)).toBe(Number(of));
    expect(Number(shown)).toBeGreaterThan(0);
    expect(Number(shown)).toBeLessThan(MANY);
    await expect(capped).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath("map-area-en.png") });

    // In French, then back to the whole type.
    await page.getByRole("button", { name: en.app.languages.fr }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByText(/^Entités de la zone affichée\u00a0: \d+ sur \d+\.$/)).toBeVisible();
    await page.getByRole("button", { name: fr.map.wholeType }).click();
    await expect(page.getByText(/^Seules les 10000 premières entités sur \d+ sont affichées\.$/)).toBeVisible(
      {
        timeout: 60_000,
      },
    );
    await page.getByRole("button", { name: fr.app.languages.en }).click();
  } finally {
    for (let start = 0; start < ids.length; start += 1000) {
      const gone = await page.request.post("/ngsi-ld/v1/entityOperations/delete", {
        headers: {
          ...headers,
          ...(workspace.contextBrokerTenant ? { "NGSILD-Tenant": workspace.contextBrokerTenant } : {}),
        },
        data: ids.slice(start, start + 1000),
      });
      expect([204, 207]).toContain(gone.status());
    }
  }
});

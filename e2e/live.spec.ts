import { expect, test, type APIRequestContext } from "@playwright/test";
import { en, openSupermarket, selectType, workspaceIdOf } from "./support.ts";

/** Another client of the API: the operator, signed in on its own (not this page's session). */
async function otherClient(request: APIRequestContext) {
  const login = await request.post("/api/auth/dev-token", {
    data: { username: "operator", password: "operator" },
  });
  const { token } = (await login.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

test("entities written by another client appear on screen by themselves, in English and French", async ({
  page,
  request,
}) => {
  await openSupermarket(page);
  await selectType(page, "Building");
  await expect(page.getByTestId("live-state")).toHaveText(`● ${en.live.on}`);
  const ws = encodeURIComponent(workspaceIdOf(page));
  const headers = await otherClient(request);
  const id = `urn:ngsi-ld:Building:live-${Date.now()}`;

  // A new building: the list shows it without a reload.
  const created = await request.post(`/api/workspace/${ws}/entities`, {
    headers,
    data: { id, type: "Building", name: { type: "Property", value: "Live depot" } },
  });
  expect(created.status()).toBe(201);
  await expect(
    page.getByRole("table", { name: "Entities of Building" }).getByText("Live depot"),
  ).toBeVisible();

  // Its card follows a change of its name.
  await page.getByRole("table", { name: "Entities of Building" }).getByRole("link", { name: id }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Live depot (Building)" })).toBeVisible();
  await expect(page.getByTestId("live-state")).toHaveText(`● ${en.live.on}`);
  const renamed = await request.put(`/api/workspace/${ws}/entities/${encodeURIComponent(id)}/attrs/name`, {
    headers,
    data: { type: "Property", value: "Live depot, renamed" },
  });
  expect(renamed.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 2, name: "Live depot, renamed (Building)" })).toBeVisible();

  await page.getByRole("button", { name: en.app.languages.fr }).click();
  await expect(page.getByTestId("live-state")).toHaveText("● En direct");

  await request.delete(`/api/workspace/${ws}/entities/${encodeURIComponent(id)}`, { headers });
});

test("entities deleted by another client, through the API or NGSI-LD, leave the live list within two seconds", async ({
  page,
  request,
}) => {
  await openSupermarket(page);
  await page.getByRole("button", { name: en.app.languages.fr }).click();
  await selectType(page, "Building");
  await expect(page.getByTestId("live-state")).toHaveText("● En direct");
  const ws = encodeURIComponent(workspaceIdOf(page));
  const headers = await otherClient(request);
  const workspace = (await (await request.get(`/api/workspaces/${ws}`, { headers })).json()) as {
    contextBrokerTenant?: string;
  };
  const stamp = Date.now();
  const gone = [
    { id: `urn:ngsi-ld:Building:gone-api-${stamp}`, name: "Depot deleted through the API" },
    { id: `urn:ngsi-ld:Building:gone-ngsi-${stamp}`, name: "Depot (.*+?) deleted through NGSI-LD" },
  ];
  const table = page.getByRole("table", { name: /Building/ });
  for (const { id, name } of gone) {
    const created = await request.post(`/api/workspace/${ws}/entities`, {
      headers,
      data: { id, type: "Building", name: { type: "Property", value: name } },
    });
    expect(created.status()).toBe(201);
    await expect(table.getByText(name)).toBeVisible();
  }

  const viaApi = await request.delete(`/api/workspace/${ws}/entities/${encodeURIComponent(gone[0]!.id)}`, {
    headers,
  });
  expect(viaApi.status()).toBe(204);
  await expect(table.getByText(gone[0]!.name)).toHaveCount(0, { timeout: 2_000 });

  const viaNgsi = await request.delete(`/ngsi-ld/v1/entities/${encodeURIComponent(gone[1]!.id)}`, {
    headers: {
      ...headers,
      ...(workspace.contextBrokerTenant ? { "NGSILD-Tenant": workspace.contextBrokerTenant } : {}),
    },
  });
  expect(viaNgsi.status()).toBe(204);
  await expect(table.getByText(gone[1]!.name)).toHaveCount(0, { timeout: 2_000 });
  await expect(page.getByTestId("live-state")).toHaveText("● En direct");
});

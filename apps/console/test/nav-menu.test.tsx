import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { TopBar } from "../src/app/TopBar.tsx";
import { mockApi, renderAt } from "./support.tsx";

// The top bar's menus are the console's own (app/NavMenu.tsx: no Popper on the first screen); they
// behave as a menu does.
describe("top bar menus", () => {
  const open = async () => {
    mockApi();
    const view = renderAt("/workspaces", "*", <TopBar />);
    const button = await screen.findByRole("button", { name: "Administration" });
    expect(button).toHaveAttribute("aria-expanded", "false");
    await view.user.click(button);
    expect(button).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByRole("link", { name: "Context brokers" })).toBeVisible();
    return { ...view, button };
  };

  it("closes on Escape, giving the focus back to its button", async () => {
    const { user, button } = await open();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("link", { name: "Context brokers" })).toBeNull();
    expect(button).toHaveFocus();
  });

  it("closes on a click elsewhere, and when another menu opens", async () => {
    const { user } = await open();
    await user.click(screen.getByRole("button", { name: "Tools" }));
    expect(screen.queryByRole("link", { name: "Context brokers" })).toBeNull();
    expect(screen.getByRole("link", { name: "Authorization registries" })).toBeVisible();
    await user.click(document.body);
    await waitFor(() => expect(screen.queryByRole("link", { name: "Authorization registries" })).toBeNull());
  });

  it("closes once a page is chosen in it", async () => {
    const { user } = await open();
    await user.click(screen.getByRole("link", { name: "Context brokers" }));
    expect(screen.queryByRole("link", { name: "Context brokers" })).toBeNull();
  });
});

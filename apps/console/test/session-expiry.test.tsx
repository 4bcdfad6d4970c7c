import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { RENEWAL_WINDOW, SessionExpiry } from "../src/auth/SessionExpiry.tsx";
import { getSession, loginUrl, setSession } from "../src/session.ts";
import "../src/i18n/index.ts";

describe("session expiry", () => {
  it("insists until the session is renewed in a window of its own, leaving the page as it is", async () => {
    setSession({ token: "old", tokenType: "Bearer", expiresAt: Date.now() + 5_000 });
    const open = vi.spyOn(window, "open").mockReturnValue({} as Window);
    const user = userEvent.setup();
    render(<SessionExpiry />);
    const dialog = await screen.findByRole("dialog", { name: "Session expired!" });
    // Neither Escape nor a close cross dismisses it.
    await user.keyboard("{Escape}");
    expect(dialog).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Close" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Renew the session" }));
    expect(open).toHaveBeenCalledWith(loginUrl, RENEWAL_WINDOW, expect.any(String));
    // The page was not left: the session is still there until the new one arrives.
    expect(getSession()?.token).toBe("old");
    setSession({ token: "new", tokenType: "Bearer", expiresAt: Date.now() + 3_600_000 });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    open.mockRestore();
  });

  it("is shared by every tab: a session stored by another tab is taken up", async () => {
    setSession(null);
    const other = { token: "tab", tokenType: "Bearer", expiresAt: Date.now() + 3_600_000 };
    localStorage.setItem("orrery.session", JSON.stringify(other));
    window.dispatchEvent(new StorageEvent("storage", { key: "orrery.session" }));
    expect(getSession()?.token).toBe("tab");
  });
});

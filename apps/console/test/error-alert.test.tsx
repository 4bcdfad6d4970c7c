import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../src/api.ts";
import { ErrorAlert } from "../src/errors/ErrorAlert.tsx";
import i18n from "../src/i18n/index.ts";

const long =
  "The context broker Orion-LD of workspace Supermarket refused: attribute 'shelfLevel' is not a Property";

describe("error alert", () => {
  it("prints the problem's title and detail as sentences above the tree, whose strings are whole", async () => {
    const nested = `${long} (nested)`;
    render(
      <ErrorAlert
        error={
          new ApiError(502, {
            title: "Bad gateway",
            detail: long,
            status: 502,
            brokerProblem: { detail: nested },
          })
        }
      />,
    );
    expect(screen.getByText("Bad gateway")).toBeInTheDocument();
    expect(screen.getByText(long, { selector: "p" })).toBeInTheDocument();
    // The tree (loaded lazily) shows the strings whole, not cut after 30 characters.
    expect(await screen.findByText(`"${nested}"`, { exact: false })).toBeInTheDocument();
  });

  it("folds the answer of a failed read under its sentence, and offers to try again", async () => {
    const retry = vi.fn();
    const detail = "The context broker Far away could not be reached (getaddrinfo ENOTFOUND far.example).";
    render(<ErrorAlert error={new ApiError(502, { title: "Bad gateway", detail })} folded onRetry={retry} />);
    expect(screen.getByText(detail, { selector: "p" })).toBeVisible();
    const answer = screen.getByText("The server's answer").closest("details")!;
    expect(answer).not.toHaveAttribute("open");
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it("folds a create's 409 under its readable sentence, in English and French, instead of a tree above the form", async () => {
    const detail = "A context broker is already named “Orion (.*+?|\\)”: choose another name.";
    const conflict = new ApiError(409, {
      type: "https://orrery.dev/problems/record.nameTaken",
      title: "Conflict",
      status: 409,
      detail,
      code: "record.nameTaken",
      params: { kind: "context-brokers", name: "Orion (.*+?|\\)" },
    });
    const { unmount } = render(<ErrorAlert error={conflict} />);
    const sentence = screen.getByText(detail, { selector: "p" });
    const answer = screen.getByText("The server's answer").closest("details")!;
    expect(answer).not.toHaveAttribute("open");
    // The sentence comes first, the folded answer after it.
    expect(sentence.compareDocumentPosition(answer) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    unmount();
    await i18n.changeLanguage("fr");
    try {
      render(<ErrorAlert error={conflict} />);
      expect(screen.getByText("Réponse du serveur", { exact: false }).closest("details")).not.toHaveAttribute(
        "open",
      );
    } finally {
      await i18n.changeLanguage("en");
    }
  });

  it("counts the items of the tree in French", async () => {
    await i18n.changeLanguage("fr");
    render(
      <ErrorAlert
        error={new ApiError(400, { title: "Requête invalide", errors: [{ path: "a", message: "b" }] })}
      />,
    );
    expect(await screen.findByText("1 élément")).toBeInTheDocument();
    await i18n.changeLanguage("en");
  });
});

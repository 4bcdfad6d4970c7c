import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
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

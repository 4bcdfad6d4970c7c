import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import i18n, { addArea, setLanguage, useTranslation } from "../src/i18n/index.ts";

// The console's translator (src/i18n/index.ts) does what i18next did for the console's texts.
function Count({ count, kind }: { count: number; kind: string }) {
  const { t } = useTranslation();
  return (
    <>
      <p>{t("common.items", { count })}</p>
      <h1>{t("common.createTitle", { kind })}</h1>
    </>
  );
}

describe("the console's texts", () => {
  afterEach(() => act(() => setLanguage("en")));

  it("count in each language's plural forms, and a shown screen switches language", async () => {
    render(<Count count={0} kind="Context broker" />);
    expect(screen.getByText("0 items")).toBeInTheDocument();
    await act(async () => {
      setLanguage("fr");
      await i18n.changeLanguage("fr");
    });
    // French counts zero as one.
    expect(screen.getByText("0 élément")).toBeInTheDocument();
    expect(screen.getByRole("heading")).toHaveTextContent("Création : Context broker");
    expect(document.documentElement.lang).toBe("fr");
    expect(i18n.t("common.items", { count: 1 })).toBe("1 élément");
    expect(i18n.t("common.items", { count: 2 })).toBe("2 éléments");
    expect(i18n.getFixedT("en")("common.items", { count: 1 })).toBe("1 item");
  });

  it("show a value as it is, whatever its bytes, and never fill it in again", () => {
    const hostile = "$& $1 $$ .*+?(|\\ {{count}} <b>x</b>";
    render(<Count count={2} kind={hostile} />);
    expect(screen.getByRole("heading").textContent).toBe(`Create: ${hostile}`);
  });

  it("fall back to English, then to a default value, then to the key itself", async () => {
    await addArea("probe", { probe: { onlyEnglish: "Only in English" } }, {});
    await i18n.changeLanguage("fr");
    expect(i18n.t("probe.onlyEnglish")).toBe("Only in English");
    expect(i18n.t("probe.unknown", { defaultValue: "an audit kind" })).toBe("an audit kind");
    expect(i18n.t("probe.unknown")).toBe("probe.unknown");
    // A prefix is not a text.
    expect(i18n.t("common")).toBe("common");
  });
});

import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";
import { textAreas } from "../src/i18n/areas.ts";

// Every text area, as if each screen had loaded: a test renders a screen's parts on their own.
// test/text-areas.test.ts checks that each screen loads the areas its modules use.
await Promise.all(Object.keys(textAreas).map((area) => import(/* @vite-ignore */ `texts:${area}`)));

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});

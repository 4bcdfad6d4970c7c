import createDOMPurify from "dompurify";
import { JSDOM } from "jsdom";

const purify = createDOMPurify(new JSDOM("").window);

// Only in-document references (#id) survive: an icon must not load anything from elsewhere.
purify.addHook("uponSanitizeAttribute", (_node, data) => {
  if ((data.attrName === "href" || data.attrName === "xlink:href") && !data.attrValue.trim().startsWith("#"))
    data.keepAttr = false;
  if (data.attrName === "style" && /url\s*\(|expression\s*\(|@import/i.test(data.attrValue))
    data.keepAttr = false;
});

/**
 * A type's icon is user-supplied SVG markup shown in the chart: keep the SVG, drop scripts, event
 * handlers, foreign content and external references. The console sanitises again with DOMPurify
 * before drawing it. An icon that sanitises to nothing is dropped.
 */
export function sanitizeIcon(markup: string): string | undefined {
  const clean = purify
    .sanitize(markup, {
      USE_PROFILES: { svg: true, svgFilters: true },
      FORBID_TAGS: [
        "foreignObject",
        "image",
        "script",
        "style",
        "a",
        "animate",
        "set",
        "animateTransform",
        "animateMotion",
      ],
      FORBID_ATTR: ["onload", "onerror", "onclick", "onmouseover", "onfocus", "onbegin", "onend"],
    })
    .trim();
  return clean.startsWith("<svg") ? clean : undefined;
}

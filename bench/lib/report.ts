import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import type { Figures } from "./measure.ts";
import { smoke } from "./smoke.ts";

const root = join(import.meta.dirname, "../..");

/** Installed version of a package (hoisted, or under apps/api). */
export function packageVersion(name: string): string {
  for (const dir of [root, join(root, "apps/api")]) {
    const file = join(dir, "node_modules", name, "package.json");
    if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
  }
  return "unknown";
}

const num = (n: number) =>
  Number.isFinite(n) ? n.toLocaleString("en-US", { maximumFractionDigits: 1 }) : "-";
export const rate = (f?: Figures) => (f ? `${num(f.perSecond)}/s` : "-");
export const lat = (f?: Figures) => (f ? `${num(f.p50Ms)} / ${num(f.p95Ms)} ms` : "-");
/** A goal's cell: met, NOT met, or "-" where it does not apply. */
export const met = (ok?: boolean | null) => (ok == null ? "-" : ok ? "met" : "NOT met");
/** A table row's cells, one per driver: "failed" for a driver that failed. */
export const cellsOf =
  <R extends { error?: string }>(results: R[]) =>
  (f: (r: R) => string) =>
    results.map((r) => (r.error ? "failed" : f(r)));

/** A plain text table: first column left aligned, the others right aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells: string[]) =>
    cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** The 1-minute load average: other work on the machine skews the figures, so reports carry it. */
export const loadAverage = () => Math.round(loadavg()[0]! * 100) / 100;

/**
 * Writes bench/results/<name>.json: the machine (node, platform, cpus, load average before and
 * after the run), then the bench's own figures. Returns the file's path. A smoke run writes nothing.
 */
export function writeResults(name: string, loadBefore: number, figures: Record<string, unknown>): string {
  if (smoke) return "nothing (a smoke run's figures are not kept)";
  const dir = join(root, "bench/results");
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `${name}.json`);
  const report = {
    benchmark: name,
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: `${cpus().length} x ${cpus()[0]?.model ?? "?"}`,
    loadAverage: { before: loadBefore, after: loadAverage() },
    ...figures,
  };
  writeFileSync(out, JSON.stringify(report, null, 2) + "\n");
  return out;
}

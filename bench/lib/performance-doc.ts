/**
 * The generated parts of docs/performance.md: the runs (machine, date, command), the figures beside
 * their goals, and the list of plots. Each sits between a pair of markers
 * (<!-- generated:NAME:start --> ... <!-- generated:NAME:end -->); the prose around them is the
 * author's and is kept as it is.
 */
import { growthLine } from "./growth.ts";
import { commandOf, type Goal, type Reading } from "./figures.ts";
import { goalApplies, growthsOf, judgedFigures, type Chart, type ResultsFile } from "./plots.ts";

const number = (n: number, digits = 1) => n.toLocaleString("en-US", { maximumFractionDigits: digits });

/** A value with its unit: "2,349/s", "71 ms", "4.6 %", "1.5x". */
export function withUnit(value: number, unit: string): string {
  if (unit === "/s") return `${number(value)}/s`;
  if (unit === "x") return `${number(value, 2)}x`;
  if (unit === "%") return `${number(value * 100)} %`;
  return `${number(value)} ${unit}`;
}

const OPS: Record<Goal["op"], string> = { "<": "<", "<=": "≤", ">=": "≥" };

/** Markdown-safe cell: a value from a results file must not break the table or inject markup. */
export const cell = (text: string) =>
  text.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, " ");

function goalCell(goal: Goal | undefined, unit: string): string {
  if (!goal) return "-";
  const where = [
    goal.storage,
    goal.size != null ? `at ${number(goal.size)} ${goal.sizeUnit ?? ""}`.trim() : "",
  ]
    .filter(Boolean)
    .join(", ");
  return `${OPS[goal.op]} ${withUnit(goal.limit, unit)}${where ? ` (${where})` : ""} [${goal.source}]`;
}

function metCell(goal: Goal | undefined, reading: Reading): string {
  if (!goal || reading.value == null) return "-";
  if (goal.storage && reading.storage !== goal.storage) return "-";
  if (!goalApplies(goal, reading)) {
    return reading.size == null
      ? "size not recorded"
      : `measured at ${number(reading.size)}, not the goal's size`;
  }
  const v = reading.value;
  const ok = goal.op === "<" ? v < goal.limit : goal.op === "<=" ? v <= goal.limit : v >= goal.limit;
  return ok ? "met" : "**not met**";
}

const row = (cells: string[]) => `| ${cells.join(" | ")} |`;

/** One row per results file: when and where it ran, and the command that measures it. */
export function runsTable(results: ResultsFile[]): string {
  const lines = [
    row(["Bench", "Run (UTC)", "Node", "CPUs", "Load average before → after", "Command"]),
    row(["---", "---", "---", "---", "---", "---"]),
  ];
  for (const { bench, data } of results) {
    const load = data?.loadAverage;
    lines.push(
      row([
        cell(bench),
        (typeof data?.date === "string" ? cell(data.date.replace("T", " ").replace(/\.\d+Z$/, "")) : "-") +
          (Number.isInteger(data?.repeat?.runs) ? `, median of ${data.repeat.runs} runs` : ", one run"),
        typeof data?.node === "string" ? cell(data.node) : "-",
        typeof data?.cpus === "string" ? cell(data.cpus) : "-",
        Number.isFinite(load?.before) && Number.isFinite(load?.after)
          ? `${load.before} → ${load.after}`
          : "-",
        `\`${commandOf(bench).replace(/`/g, "")}\``,
      ]),
    );
  }
  return lines.join("\n");
}

/** One row per figure and storage, beside its goal; benches outside the catalogue by allGoalsMet. */
export function figuresTable(results: ResultsFile[]): string {
  const lines = [
    row(["Bench", "Figure", "Storage", "Value", "Goal", "Met"]),
    row(["---", "---", "---", "---:", "---", "---"]),
  ];
  for (const { bench, figure, reading } of judgedFigures(results)) {
    lines.push(
      row([
        cell(bench),
        cell(figure.label) + (reading.size != null ? ` (${number(reading.size)})` : ""),
        reading.storage ? cell(reading.storage) : "-",
        reading.value == null ? "not in results" : withUnit(reading.value, figure.unit),
        goalCell(figure.goal, figure.unit),
        metCell(figure.goal, reading),
      ]),
    );
  }
  for (const { bench, data } of results) {
    if (judgedFigures([{ bench, data }]).length || typeof data?.allGoalsMet !== "boolean") continue;
    lines.push(
      row([
        cell(bench),
        "All of the bench's own goals",
        "-",
        "-",
        "[bench]",
        data.allGoalsMet ? "met" : "**not met**",
      ]),
    );
  }
  return lines.join("\n");
}

/** Every growth the results hold, as printed lines (with the slopes). */
export function growthList(results: ResultsFile[]): string {
  const lines = results.flatMap(({ bench, data }) =>
    growthsOf(data).map((g) => `- ${cell(bench)}: ${cell(growthLine(g))}`),
  );
  return lines.length ? lines.join("\n") : "No bench has recorded a growth yet.";
}

/** The plots as Markdown images, relative to docs/. */
export const plotList = (charts: Chart[]) =>
  charts.length
    ? charts.map((c) => `![${cell(c.title)}](performance/${c.file})`).join("\n\n")
    : "No plot yet: no results file holds a figure with a goal or a growth.";

/** Replaces what lies between the markers of `name`; fails if they are missing (a hand edit lost them). */
export function replaceGenerated(doc: string, name: string, content: string): string {
  const start = `<!-- generated:${name}:start -->`;
  const end = `<!-- generated:${name}:end -->`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`docs/performance.md lacks the markers ${start} ... ${end}`);
  return `${doc.slice(0, from + start.length)}\n${content}\n${doc.slice(to)}`;
}

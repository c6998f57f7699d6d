// Solve and count anything in Knuth's format: counting with progress from
// Knuth's estimate, cancelling, listing solutions lazily, downloading them.
import { byId, download, el, ms } from "./dom";
import { EXAMPLES } from "./examples";
import { Cancelled, Engine } from "./jobs";
import type { ParseErrorInfo, ProblemInfo, Progress } from "./protocol";

interface CountAnswer {
  error?: ParseErrorInfo;
  info?: ProblemInfo;
  count?: string;
  outcome?: string;
  nodes?: number;
  ms?: number;
  engine?: string;
}

interface Listed {
  options: string[];
  indices: number[];
}

interface ListAnswer {
  solutions: Listed[];
  done: boolean;
  outcome: string;
  nodes: number;
  ms: number;
}

interface MinCostAnswer {
  error?: ParseErrorInfo;
  info?: ProblemInfo;
  cost?: string | null;
  options?: string[] | null;
  outcome?: string;
  nodes?: number;
  ms?: number;
}

/** Solutions listed per click of "More". */
const PAGE = 20;

export class SolveView {
  private engine = new Engine();
  private input = byId<HTMLTextAreaElement>("solve-input");
  private listed: Listed[] = [];
  private listing = false;

  constructor() {
    const select = byId<HTMLSelectElement>("solve-example");
    for (const ex of EXAMPLES) {
      const o = el("option", undefined, ex.name);
      o.value = ex.id;
      select.append(o);
    }
    select.addEventListener("change", () => {
      const ex = EXAMPLES.find((e) => e.id === select.value);
      if (ex) this.setText(ex.text);
    });
    byId<HTMLInputElement>("solve-file").addEventListener("change", (ev) => {
      const file = (ev.target as HTMLInputElement).files?.[0];
      if (file) void file.text().then((t) => this.setText(t));
    });
    byId("solve-count").addEventListener("click", () => void this.count());
    byId("solve-list").addEventListener("click", () => void this.list());
    byId("solve-min-cost").addEventListener("click", () => void this.minCost());
    byId("solve-more").addEventListener("click", () => void this.more());
    byId("solve-cancel").addEventListener("click", () => this.cancel());
    byId("solve-download-knuth").addEventListener("click", () => this.download("knuth"));
    byId("solve-download-json").addEventListener("click", () => this.download("json"));
    this.input.addEventListener("input", () => this.showError(null));
    this.setText(EXAMPLES[0]!.text);
  }

  setText(text: string): void {
    this.input.value = text;
    this.showError(null);
  }

  private busy(on: boolean, what: string): void {
    byId<HTMLButtonElement>("solve-cancel").disabled = !on;
    byId<HTMLButtonElement>("solve-count").disabled = on;
    byId<HTMLButtonElement>("solve-list").disabled = on;
    byId<HTMLButtonElement>("solve-min-cost").disabled = on;
    byId("solve-status").textContent = what;
    const bar = byId<HTMLProgressElement>("solve-progress");
    bar.hidden = !on;
    if (on) bar.removeAttribute("value");
  }

  private showProgress(p: Progress, what: string): void {
    const bar = byId<HTMLProgressElement>("solve-progress");
    bar.max = 1;
    bar.value = p.fraction;
    byId("solve-status").textContent =
      `${what}: ${(100 * p.fraction).toFixed(1)}% of the tree by Knuth's estimate · ` +
      `${p.solutions.toLocaleString("en")} solutions · ${p.nodes.toLocaleString("en")} nodes · ${ms(p.ms)}`;
  }

  private showError(e: ParseErrorInfo | null): void {
    const box = byId("solve-error");
    if (!e) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    const lines = this.input.value.split("\n");
    const src = lines[e.line - 1] ?? "";
    box.replaceChildren(
      el("div", "where", `line ${e.line}, column ${e.column}: ${e.message}`),
      el("pre", "excerpt", `${String(e.line).padStart(4)} | ${src}\n       ${" ".repeat(Math.max(0, e.column - 1))}^`),
    );
    box.hidden = false;
    // Put the caret where the error is.
    let offset = 0;
    for (let i = 0; i < e.line - 1 && i < lines.length; i++) offset += lines[i]!.length + 1;
    offset += Math.max(0, e.column - 1);
    this.input.setSelectionRange(offset, offset);
  }

  async count(): Promise<void> {
    this.showError(null);
    this.busy(true, "counting…");
    const result = byId("solve-result");
    result.textContent = "";
    try {
      const a = (await this.engine.run(
        { cmd: "count", text: this.input.value },
        { fresh: true, onProgress: (p) => this.showProgress(p, "counting") },
      )) as CountAnswer;
      this.busy(false, "");
      if (a.error) {
        this.showError(a.error);
        return;
      }
      const stopped = a.outcome === "complete" ? "" : ` (stopped: ${a.outcome})`;
      result.textContent = `${a.count} solutions${stopped}`;
      byId("solve-status").textContent =
        `${a.nodes?.toLocaleString("en")} nodes in ${ms(a.ms ?? 0)} (${a.info?.items} items, ${a.info?.options} options; ${a.engine} engine)`;
    } catch (e) {
      this.busy(false, e instanceof Cancelled ? "cancelled" : String(e));
    }
  }

  /** A cheapest solution by branch and bound (`exactly solve --min-cost`). */
  async minCost(): Promise<void> {
    this.showError(null);
    this.listed = [];
    this.listing = false;
    byId<HTMLButtonElement>("solve-more").disabled = true;
    const ol = byId<HTMLOListElement>("solve-solutions");
    ol.replaceChildren();
    const result = byId("solve-result");
    result.textContent = "";
    this.busy(true, "looking for the cheapest solution…");
    try {
      const a = (await this.engine.run({ cmd: "min_cost", text: this.input.value }, { fresh: true })) as MinCostAnswer;
      this.busy(false, "");
      if (a.error) {
        this.showError(a.error);
        return;
      }
      const stopped = a.outcome === "complete" ? "" : ` (stopped: ${a.outcome}; the best found)`;
      if (a.cost == null || !a.options) {
        result.textContent = `no solution${stopped}`;
      } else {
        result.textContent = `cheapest cost ${a.cost}${stopped}`;
        const li = el("li");
        for (const o of a.options) li.append(el("div", "opt", o));
        ol.append(li);
      }
      byId("solve-status").textContent =
        `${a.nodes?.toLocaleString("en")} nodes in ${ms(a.ms ?? 0)} (${a.info?.items} items, ${a.info?.options} options)`;
    } catch (e) {
      this.busy(false, e instanceof Cancelled ? "cancelled" : String(e));
    }
  }

  async list(): Promise<void> {
    this.showError(null);
    this.listed = [];
    byId("solve-solutions").replaceChildren();
    byId("solve-result").textContent = "";
    this.busy(true, "starting…");
    try {
      const a = (await this.engine.run({ cmd: "list_start", text: this.input.value }, { fresh: true })) as {
        error?: ParseErrorInfo;
      };
      if (a.error) {
        this.busy(false, "");
        this.showError(a.error);
        return;
      }
      this.listing = true;
      await this.more();
    } catch (e) {
      this.busy(false, e instanceof Cancelled ? "cancelled" : String(e));
    }
  }

  async more(): Promise<void> {
    if (!this.listing) return;
    this.busy(true, "searching…");
    try {
      const a = (await this.engine.run(
        { cmd: "list_next", n: PAGE },
        { onProgress: (p) => this.showProgress(p, "searching") },
      )) as ListAnswer;
      const ol = byId<HTMLOListElement>("solve-solutions");
      for (const s of a.solutions) {
        this.listed.push(s);
        const li = el("li");
        for (const o of s.options) li.append(el("div", "opt", o));
        ol.append(li);
      }
      if (a.done) this.listing = false;
      byId<HTMLButtonElement>("solve-more").disabled = !this.listing;
      const end = a.done ? (a.outcome === "complete" ? " — that is all" : ` — stopped: ${a.outcome}`) : "";
      this.busy(false, "");
      byId("solve-result").textContent = `${this.listed.length} solutions listed${end}`;
    } catch (e) {
      this.listing = false;
      byId<HTMLButtonElement>("solve-more").disabled = true;
      this.busy(false, e instanceof Cancelled ? "cancelled" : String(e));
    }
  }

  cancel(): void {
    this.engine.cancel();
  }

  private download(kind: "knuth" | "json"): void {
    if (kind === "knuth") {
      const text = this.listed.map((s) => s.options.join("\n") + "\n").join("\n");
      download("solutions.txt", text, "text/plain");
    } else {
      const text = this.listed
        .map((s, i) => JSON.stringify({ solution: i + 1, options: s.options, indices: s.indices }) + "\n")
        .join("");
      download("solutions.jsonl", text, "application/x-ndjson");
    }
  }
}

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

interface Costed {
  cost: string;
  options: string[];
  indices: number[];
}

interface MinCostAnswer {
  error?: ParseErrorInfo;
  info?: ProblemInfo;
  best?: Costed[];
  outcome?: string;
  nodes?: number;
  ms?: number;
}

/** What the listing and the downloads hold: solutions, or costed ones. */
type Shown = { kind: "list"; solutions: Listed[] } | { kind: "costs"; best: Costed[]; proven: boolean };

/** Solutions listed per click of "More". */
const PAGE = 20;

export class SolveView {
  private engine = new Engine();
  private input = byId<HTMLTextAreaElement>("solve-input");
  private listed: Listed[] = [];
  private listing = false;
  /** The cheapest solutions found, when the last search was for costs. */
  private costs: { best: Costed[]; proven: boolean } | null = null;

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
    if (!on) byId("solve-cancel").textContent = "Cancel";
    byId("solve-status").textContent = what;
    const bar = byId<HTMLProgressElement>("solve-progress");
    bar.hidden = !on;
    if (on) bar.removeAttribute("value");
  }

  private showProgress(p: Progress, what: string, best?: string): void {
    const bar = byId<HTMLProgressElement>("solve-progress");
    bar.max = 1;
    bar.value = p.fraction;
    const found =
      best === undefined ? `${p.solutions.toLocaleString("en")} solutions` : `best cost so far ${best}`;
    byId("solve-status").textContent =
      `${what}: ${(100 * p.fraction).toFixed(1)}% of the tree by Knuth's estimate · ` +
      `${found} · ${p.nodes.toLocaleString("en")} nodes · ${ms(p.ms)}`;
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

  /** The k cheapest solution costs (`exactly solve --best K`), one solution each. */
  private bestK(): number {
    const k = Math.floor(Number(byId<HTMLInputElement>("solve-best").value));
    return Number.isFinite(k) ? Math.min(1000, Math.max(1, k)) : 1;
  }

  private showCosts(best: Costed[]): void {
    const ol = byId<HTMLOListElement>("solve-solutions");
    ol.replaceChildren();
    for (const b of best) {
      const li = el("li");
      li.append(el("div", "cost", `cost ${b.cost}`));
      for (const o of b.options) li.append(el("div", "opt", o));
      ol.append(li);
    }
  }

  private costsResult(best: Costed[], k: number, stopped: string): string {
    if (best.length === 0) return `no solution${stopped}`;
    if (k === 1) return `cheapest cost ${best[0]!.cost}${stopped}`;
    const costs = best.map((b) => b.cost).join(", ");
    return `the ${best.length} cheapest costs: ${costs}${stopped}`;
  }

  /**
   * The cheapest solutions by branch and bound (`exactly solve --min-cost`,
   * `--best K`), with progress. Stop keeps the best found so far (the
   * worker sends each improvement as it is found), not proven optimal.
   */
  async minCost(): Promise<void> {
    this.showError(null);
    this.listed = [];
    this.listing = false;
    this.costs = null;
    byId<HTMLButtonElement>("solve-more").disabled = true;
    byId("solve-solutions").replaceChildren();
    const result = byId("solve-result");
    result.textContent = "";
    const k = this.bestK();
    this.busy(true, k === 1 ? "looking for the cheapest solution…" : `looking for the ${k} cheapest costs…`);
    byId("solve-cancel").textContent = "Stop";
    let found: Costed[] = [];
    let last: Progress | null = null;
    const bestCost = (): string | undefined => (found.length === 0 ? undefined : found[found.length - 1]!.cost);
    try {
      const a = (await this.engine.run(
        { cmd: "min_cost", text: this.input.value, k },
        {
          fresh: true,
          onProgress: (p) => {
            last = p;
            this.showProgress(p, "searching", bestCost() ?? "none yet");
          },
          onFound: (data) => {
            found = (data as { best: Costed[] }).best;
            this.costs = { best: found, proven: false };
            this.showCosts(found);
            result.textContent = this.costsResult(found, k, " (so far)");
            if (last) this.showProgress(last, "searching", bestCost());
          },
        },
      )) as MinCostAnswer;
      this.busy(false, "");
      if (a.error) {
        this.showError(a.error);
        return;
      }
      const best = a.best ?? [];
      const proven = a.outcome === "complete";
      this.costs = { best, proven };
      this.showCosts(best);
      result.textContent = this.costsResult(best, k, proven ? "" : ` (stopped: ${a.outcome}; the best found, not proven optimal)`);
      byId("solve-status").textContent =
        `${a.nodes?.toLocaleString("en")} nodes in ${ms(a.ms ?? 0)} (${a.info?.items} items, ${a.info?.options} options)`;
    } catch (e) {
      if (!(e instanceof Cancelled)) {
        this.busy(false, String(e));
        return;
      }
      // Stopped from the page: what the worker sent before it ended.
      this.costs = { best: found, proven: false };
      this.showCosts(found);
      result.textContent = this.costsResult(found, k, " (stopped; the best found, not proven optimal)");
      this.busy(false, last ? `stopped after ${(last as Progress).nodes.toLocaleString("en")} nodes` : "stopped");
    }
  }

  async list(): Promise<void> {
    this.showError(null);
    this.listed = [];
    this.costs = null;
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

  /** What is shown, in the CLI's formats (`solve`, or `solve --best K`). */
  private shown(): Shown {
    return this.costs ? { kind: "costs", ...this.costs } : { kind: "list", solutions: this.listed };
  }

  private download(kind: "knuth" | "json"): void {
    const shown = this.shown();
    if (shown.kind === "costs") {
      // As `exactly solve --best K` writes them: `| cost N` before each
      // solution in Knuth's format; `{cost, options, indices}` in JSON.
      if (kind === "knuth") {
        const text = shown.best.map((b) => `| cost ${b.cost}\n` + (b.options.length ? b.options.map((o) => o + "\n").join("") : "| empty solution\n")).join("\n");
        download("cheapest.txt", text, "text/plain");
      } else {
        const text = shown.best
          .map((b) => `{"cost":${b.cost},"options":${JSON.stringify(b.options)},"indices":${JSON.stringify(b.indices)}}\n`)
          .join("");
        download("cheapest.jsonl", text, "application/x-ndjson");
      }
      return;
    }
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

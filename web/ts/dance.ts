// The dance view: the matrix as Knuth draws it, moved step by step by the
// engine's own trace events: each step carries the nodes the engine's
// dancing links unlinked and relinked in it (`exactly solve --trace-nodes`),
// and the page only applies them.
import { byId, el, esc } from "./dom";
import { EXAMPLES } from "./examples";
import { Cancelled, Engine } from "./jobs";
import type { ParseErrorInfo, ProblemInfo } from "./protocol";

/** `[code, item, option]`: code 0 unlink, 1 relink; option -1 for the item's header. */
type Op = [number, number, number];

interface StepBase {
  level: number;
  text: string;
  delta: Op[];
}
type Step =
  | (StepBase & { kind: "choose"; item: number; options: number; sizes: [number, number][]; consistent: boolean })
  | (StepBase & { kind: "try"; option: number; k: number; d: number })
  | (StepBase & { kind: "solution"; solution: number[] })
  | (StepBase & { kind: "backtrack" });

interface Trace {
  error?: ParseErrorInfo;
  info?: ProblemInfo;
  drawable?: boolean;
  items?: { name: string; primary: boolean }[];
  options?: { label: string; entries: [number, string | null][] }[];
  steps?: Step[];
  nodes?: number;
  outcome?: string;
}

interface TreeNode {
  label: string;
  detail: string;
  children: TreeNode[];
  solution: boolean;
  dead: boolean;
}

/** Where a problem too large to draw is sent. */
export type SendToSolver = (text: string) => void;

export class DanceView {
  private engine = new Engine();
  private items: { name: string; primary: boolean }[] = [];
  private options: { label: string; entries: [number, string | null][] }[] = [];
  private steps: Step[] = [];
  private cur = 0;
  private covered: boolean[] = [];
  /** Option nodes out of their item's list, as `option,item`. */
  private gone = new Set<string>();
  private timer: number | null = null;
  private solutionsSeen = 0;

  private input = byId<HTMLTextAreaElement>("dance-input");
  private matrix = byId("dance-matrix");
  private log = byId("dance-log");

  constructor(private send: SendToSolver) {
    const select = byId<HTMLSelectElement>("dance-example");
    for (const ex of EXAMPLES) {
      const o = el("option", undefined, ex.name);
      o.value = ex.id;
      select.append(o);
    }
    const pick = (): void => {
      const ex = EXAMPLES.find((e) => e.id === select.value) ?? EXAMPLES[0]!;
      this.input.value = ex.text;
      // Arrow keys go back to stepping rather than to the list.
      select.blur();
      void this.load();
    };
    select.addEventListener("change", pick);
    byId("dance-load").addEventListener("click", () => void this.load());
    byId("dance-step").addEventListener("click", () => this.stepBy(1));
    byId("dance-back").addEventListener("click", () => this.stepBy(-1));
    byId("dance-play").addEventListener("click", () => this.togglePlay());
    byId("dance-next").addEventListener("click", () => this.nextSolution());
    byId("dance-speed").addEventListener("input", () => {
      if (this.timer !== null) {
        this.pause();
        this.play();
      }
    });
    byId("dance-to-solve").addEventListener("click", () => this.send(this.input.value));
    this.input.value = EXAMPLES[0]!.text;
  }

  /** Handles a key while this view is shown; true when it was used. */
  key(ev: KeyboardEvent): boolean {
    if (ev.key === " ") this.togglePlay();
    else if (ev.key === "ArrowRight") this.stepBy(1);
    else if (ev.key === "ArrowLeft") this.stepBy(-1);
    else return false;
    return true;
  }

  async load(): Promise<void> {
    this.pause();
    const status = byId("dance-status");
    const error = byId("dance-error");
    const large = byId("dance-toolarge");
    error.hidden = true;
    large.hidden = true;
    status.textContent = "tracing…";
    let trace: Trace;
    try {
      trace = (await this.engine.run({ cmd: "trace", text: this.input.value }, { fresh: true })) as Trace;
    } catch (e) {
      status.textContent = e instanceof Cancelled ? "cancelled" : String(e);
      return;
    }
    this.steps = [];
    this.items = [];
    this.options = [];
    if (trace.error) {
      const e = trace.error;
      error.textContent = `line ${e.line}, column ${e.column}: ${e.message}`;
      error.hidden = false;
      status.textContent = "";
      this.reset();
      return;
    }
    const info = trace.info!;
    if (!trace.drawable) {
      byId("dance-toolarge-size").textContent = `${info.items} items, ${info.options} options, ${info.entries} nodes`;
      large.hidden = false;
      status.textContent = "";
      this.reset();
      return;
    }
    this.items = trace.items ?? [];
    this.options = trace.options ?? [];
    this.steps = trace.steps ?? [];
    const cut = trace.outcome === "complete" ? "" : ` (the trace stops at a budget: ${trace.outcome})`;
    status.textContent =
      `${info.items} items (${info.primary} primary), ${info.options} options; ` +
      `${this.steps.length} steps, ${trace.nodes} search nodes${cut}`;
    this.reset();
  }

  private reset(): void {
    this.cur = 0;
    this.covered = this.items.map(() => false);
    this.gone.clear();
    this.log.replaceChildren();
    this.solutionsSeen = 0;
    byId("dance-solutions").replaceChildren();
    this.render();
  }

  private apply(step: Step, forward: boolean): void {
    const ops = forward ? step.delta : [...step.delta].reverse();
    for (const [code, item, option] of ops) {
      const out = (forward ? code : code ^ 1) === 0;
      if (option < 0) this.covered[item] = out;
      else if (out) this.gone.add(`${option},${item}`);
      else this.gone.delete(`${option},${item}`);
    }
    if (forward) {
      const line = el("div", `log-${step.kind}`, "  ".repeat(step.level) + step.text);
      this.log.append(line);
      if (step.kind === "solution") {
        this.solutionsSeen++;
        const li = el("li", undefined, step.solution.map((o) => this.options[o]!.label).join("; "));
        byId("dance-solutions").append(li);
      }
    } else {
      this.log.lastElementChild?.remove();
      if (step.kind === "solution") {
        this.solutionsSeen--;
        byId("dance-solutions").lastElementChild?.remove();
      }
    }
  }

  private goto(target: number): void {
    const t = Math.max(0, Math.min(this.steps.length, target));
    while (this.cur < t) this.apply(this.steps[this.cur++]!, true);
    while (this.cur > t) this.apply(this.steps[--this.cur]!, false);
    this.render();
  }

  stepBy(n: number): void {
    this.goto(this.cur + n);
    if (this.cur >= this.steps.length) this.pause();
  }

  nextSolution(): void {
    this.pause();
    let t = this.cur;
    while (t < this.steps.length && this.steps[t]!.kind !== "solution") t++;
    this.goto(t + 1);
  }

  togglePlay(): void {
    if (this.timer !== null) this.pause();
    else this.play();
  }

  private play(): void {
    if (this.cur >= this.steps.length) return;
    const speed = Number(byId<HTMLInputElement>("dance-speed").value) || 4;
    this.timer = window.setInterval(() => this.stepBy(1), 1000 / speed);
    byId("dance-play").textContent = "❚❚ Pause";
  }

  private pause(): void {
    if (this.timer !== null) window.clearInterval(this.timer);
    this.timer = null;
    byId("dance-play").textContent = "▶ Play";
  }

  /** The options chosen on the current path, by level. */
  private path(): number[] {
    const path: number[] = [];
    for (let i = 0; i < this.cur; i++) {
      const s = this.steps[i]!;
      if (s.kind === "try") {
        path.length = s.level;
        path.push(s.option);
      } else if (s.kind === "choose" || s.kind === "backtrack") {
        path.length = s.level;
      }
    }
    return path;
  }

  private render(): void {
    const step = this.cur > 0 ? this.steps[this.cur - 1]! : null;
    byId("dance-where").textContent = `step ${this.cur} of ${this.steps.length}`;
    byId("dance-level").textContent = String(step ? step.level : 0);
    byId("dance-now").textContent = step ? this.describe(step) : this.steps.length ? "Press Step (→) or Play (space)." : "";
    this.log.scrollTop = this.log.scrollHeight;
    this.renderMatrix(step);
    this.renderTree();
  }

  private describe(step: Step): string {
    switch (step.kind) {
      case "choose": {
        const name = this.items[step.item]!.name;
        const sizes = step.sizes.map(([i, s]) => `${this.items[i]!.name}:${s}`).join(" ");
        return `Choose ${name}, the item with fewest options (${sizes}); cover it: its options leave the other lists.`;
      }
      case "try":
        return `Try option ${step.k} of ${step.d}: ${this.options[step.option]!.label} — cover its other items.`;
      case "solution":
        return `Solution ${this.solutionsSeen}: every primary item is covered.`;
      case "backtrack":
        return `Backtrack: ${step.text.replace(/^backtrack: /, "")}, restoring its links.`;
    }
  }

  private renderMatrix(step: Step | null): void {
    const cols = this.items.length;
    const rows = this.options.length;
    if (cols === 0) {
      this.matrix.replaceChildren();
      return;
    }
    const cs = Math.max(12, Math.min(30, Math.floor(720 / cols)));
    const rh = Math.max(11, Math.min(cs, Math.floor(900 / Math.max(rows, 1))));
    const top = 34;
    const x = (j: number): number => 6 + j * cs + cs / 2;
    const y = (r: number): number => top + r * rh + rh / 2;
    // The nodes this step moved, as `option,item`.
    const leaving = new Set<string>();
    const coming = new Set<string>();
    const compared = new Set<number>();
    let picked = -1;
    if (step) {
      for (const [code, item, option] of step.delta) {
        if (option >= 0) (code === 0 ? leaving : coming).add(`${option},${item}`);
      }
      if (step.kind === "choose") {
        for (const [i] of step.sizes) compared.add(i);
        picked = step.item;
      }
    }
    const path = new Set(this.path());
    const inList = (o: number, j: number): boolean => !this.gone.has(`${o},${j}`);
    const parts: string[] = [];
    const width = 6 + cols * cs + 8 + 180;
    const height = top + rows * rh + 6;
    parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" class="dlx" role="img" aria-label="the matrix">`);
    // Vertical links: each item's list, from its header through its nodes.
    const sizes = this.items.map(() => 0);
    const byCol: number[][] = this.items.map(() => []);
    this.options.forEach((opt, r) => {
      for (const [j] of opt.entries) {
        if (inList(r, j)) {
          byCol[j]!.push(r);
          sizes[j]!++;
        }
      }
    });
    byCol.forEach((list, j) => {
      let py = top - 4;
      const cls = this.covered[j] ? "vlink out" : "vlink";
      for (const r of list) {
        parts.push(`<line class="${cls}" x1="${x(j)}" y1="${py}" x2="${x(j)}" y2="${y(r)}"/>`);
        py = y(r);
      }
    });
    // Horizontal links and nodes.
    this.options.forEach((opt, r) => {
      const hid = opt.entries.some(([j]) => !inList(r, j));
      const xs = opt.entries.map(([j]) => x(j)).sort((a, b) => a - b);
      if (xs.length > 1) {
        parts.push(`<line class="hlink${hid ? " out" : ""}" x1="${xs[0]}" y1="${y(r)}" x2="${xs[xs.length - 1]}" y2="${y(r)}"/>`);
      }
      let rowCls = path.has(r) ? "row chosen" : "row";
      if (step?.kind === "try" && step.option === r) rowCls += " trying";
      for (const [j, color] of opt.entries) {
        let cls = "node";
        if (!inList(r, j)) cls += " gone";
        if (leaving.has(`${r},${j}`)) cls += " leaving";
        if (coming.has(`${r},${j}`)) cls += " coming";
        if (path.has(r)) cls += " chosen";
        const rad = Math.max(3, Math.min(rh, cs) / 2 - 1.5);
        parts.push(`<circle class="${cls}" data-node="${r} ${esc(this.items[j]!.name)}" cx="${x(j)}" cy="${y(r)}" r="${rad}"><title>${esc(opt.label)} · ${esc(this.items[j]!.name)}${color ? ":" + esc(color) : ""}</title></circle>`);
      }
      parts.push(`<text class="${rowCls}${hid ? " out" : ""}" x="${6 + cols * cs + 8}" y="${y(r) + 4}">${esc(opt.label)}</text>`);
    });
    // Headers: name and size.
    this.items.forEach((it, j) => {
      let cls = it.primary ? "head" : "head secondary";
      if (this.covered[j]) cls += " out";
      if (compared.has(j)) cls += " compared";
      if (j === picked) cls += " picked";
      const fs = Math.min(12, cs * 0.55);
      parts.push(`<g class="${cls}" data-item="${esc(it.name)}"><rect x="${x(j) - cs / 2 + 1}" y="2" width="${cs - 2}" height="${top - 8}" rx="3"/>` +
        `<text x="${x(j)}" y="${14}" font-size="${fs}">${esc(it.name)}</text>` +
        `<text class="size" x="${x(j)}" y="${top - 10}" font-size="${fs}">${sizes[j]}</text></g>`);
    });
    parts.push("</svg>");
    this.matrix.innerHTML = parts.join("");
  }

  private renderTree(): void {
    const root: TreeNode = { label: "root", detail: "", children: [], solution: false, dead: false };
    const stack: TreeNode[] = [root];
    let count = 1;
    for (let i = 0; i < this.cur; i++) {
      const s = this.steps[i]!;
      if (s.kind === "choose" && s.options === 0) stack[s.level]!.dead = true;
      else if (s.kind === "try") {
        const node: TreeNode = {
          label: `${s.k} of ${s.d}`,
          detail: this.options[s.option]!.label,
          children: [],
          solution: false,
          dead: false,
        };
        stack[s.level]!.children.push(node);
        stack.length = s.level + 1;
        stack.push(node);
        count++;
      } else if (s.kind === "solution") {
        stack[s.level]!.solution = true;
      }
    }
    byId("dance-nodes").textContent = String(count);
    const here = stack[stack.length - 1];
    const tree = byId("dance-tree");
    let budget = 400;
    const draw = (n: TreeNode): HTMLElement => {
      const li = el("li");
      const span = el("span", "tnode", n.label);
      if (n.detail) span.title = n.detail;
      if (n.solution) span.classList.add("solution");
      if (n.dead) span.classList.add("dead");
      if (n === here) span.classList.add("here");
      li.append(span);
      if (n.detail) li.append(el("span", "tdetail", ` ${n.detail}`));
      if (n.children.length) {
        const ul = el("ul");
        for (const c of n.children) {
          if (budget-- <= 0) {
            ul.append(el("li", "more", "…"));
            break;
          }
          ul.append(draw(c));
        }
        li.append(ul);
      }
      return li;
    };
    const ul = el("ul", "tree");
    ul.append(draw(root));
    tree.replaceChildren(ul);
    const mark = tree.querySelector<HTMLElement>(".here");
    if (mark) tree.scrollTop = Math.max(0, mark.offsetTop - tree.clientHeight / 2);
  }
}

// The sudoku view: a grid to type into, or pasted records in any format
// the CLI reads; the engine gives the verdict, the solution, the cells a
// second solution changes, and the clashing givens.
import { byId, el, ms } from "./dom";
import { Cancelled, Engine } from "./jobs";

interface SudokuRecord {
  line: number;
  verdict: string;
  error?: string;
  size?: number;
  box?: [number, number];
  givens?: number[];
  symbols?: string[];
  clash?: [[number, number], [number, number]];
  solution?: number[] | null;
  second?: number[] | null;
  text?: string | null;
  second_text?: string | null;
  count?: number;
  nodes?: number;
  ms?: number;
  regions?: number[];
}

interface RegionsAnswer {
  size?: number;
  box?: [number, number] | null;
  regions?: number[];
  error?: string;
}

interface SudokuAnswer {
  records: SudokuRecord[];
  total: number;
}

const SHAPES: [number, number][] = [
  [2, 2],
  [2, 3],
  [2, 4],
  [3, 3],
  [3, 4],
  [4, 4],
  [5, 5],
];
const ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A region map the engine reads: each cell's region as a word, one row a line. */
function regionMap(regions: number[], n: number): string {
  const lines: string[] = [];
  for (let r = 0; r < n; r++) lines.push(regions.slice(r * n, r * n + n).join(" "));
  return lines.join("\n") + "\n";
}

export class SudokuView {
  private engine = new Engine();
  private rows = 3;
  private cols = 3;
  private cells: number[] = [];
  private symbols: string[] = [];
  private inputs: HTMLInputElement[] = [];
  private records: SudokuRecord[] = [];
  /** Jigsaw: each cell's region, and the map the engine read them from. */
  private regions: number[] | null = null;
  private regionText: string | null = null;
  private grid = byId("sudoku-grid");

  constructor() {
    const shape = byId<HTMLSelectElement>("sudoku-shape");
    for (const [r, c] of SHAPES) {
      const o = el("option", undefined, `${r * c}x${r * c} (boxes ${r}x${c})`);
      o.value = `${r}x${c}`;
      shape.append(o);
    }
    shape.value = "3x3";
    shape.addEventListener("change", () => {
      const [r, c] = shape.value.split("x").map(Number);
      this.regions = null;
      this.regionText = null;
      this.setShape(r!, c!, null);
    });
    byId("sudoku-regions-use").addEventListener("click", () => void this.useRegions());
    byId("sudoku-regions-off").addEventListener("click", () => {
      this.regions = null;
      this.regionText = null;
      byId("sudoku-regions-status").textContent = "";
      this.setShape(this.rows, this.cols, this.cells, this.symbols);
    });
    byId("sudoku-solve").addEventListener("click", () => void this.solveGrid());
    byId("sudoku-clear").addEventListener("click", () => this.setShape(this.rows, this.cols, null));
    byId("sudoku-paste-solve").addEventListener("click", () => void this.solvePasted());
    byId("sudoku-cancel").addEventListener("click", () => this.engine.cancel());
    this.setShape(3, 3, null);
  }

  private setShape(rows: number, cols: number, givens: number[] | null, symbols?: string[]): void {
    this.rows = rows;
    this.cols = cols;
    const n = rows * cols;
    const select = byId<HTMLSelectElement>("sudoku-shape");
    if (![...select.options].some((o) => o.value === `${rows}x${cols}`)) {
      const o = el("option", undefined, `${n}x${n} (boxes ${rows}x${cols})`);
      o.value = `${rows}x${cols}`;
      select.append(o);
    }
    select.value = `${rows}x${cols}`;
    const regions = this.regions?.length === n * n ? this.regions : null;
    this.cells = givens ? [...givens] : new Array<number>(n * n).fill(0);
    this.symbols = symbols ?? [...ALPHABET.slice(0, n)];
    this.grid.style.setProperty("--n", String(n));
    this.grid.className = `sgrid n${n}${regions ? " jigsaw" : ""}`;
    this.inputs = [];
    const frag = document.createDocumentFragment();
    for (let i = 0; i < n * n; i++) {
      const r = Math.floor(i / n);
      const c = i % n;
      const input = el("input", "cell");
      input.inputMode = n <= 9 ? "numeric" : "text";
      input.autocomplete = "off";
      input.spellcheck = false;
      input.maxLength = 2;
      input.setAttribute("aria-label", `row ${r + 1}, column ${c + 1}`);
      input.dataset.i = String(i);
      // Thick lines between boxes, or between regions.
      const right = regions ? c !== n - 1 && regions[i] !== regions[i + 1] : c % cols === cols - 1 && c !== n - 1;
      const bottom = regions ? r !== n - 1 && regions[i] !== regions[i + n] : r % rows === rows - 1 && r !== n - 1;
      if (right) input.classList.add("box-right");
      if (bottom) input.classList.add("box-bottom");
      input.value = this.symbol(this.cells[i]!);
      if (this.cells[i]) input.classList.add("given");
      input.addEventListener("keydown", (ev) => this.keydown(ev, i));
      input.addEventListener("input", () => this.typed(i));
      this.inputs.push(input);
      frag.append(input);
    }
    this.grid.replaceChildren(frag);
    this.clearResult();
  }

  private symbol(v: number): string {
    return v ? (this.symbols[v - 1] ?? String(v)) : "";
  }

  private valueOf(text: string): number | null {
    const t = text.trim().toUpperCase();
    if (t === "" || t === "." || t === "0") return 0;
    const i = this.symbols.findIndex((s) => s.toUpperCase() === t);
    return i >= 0 ? i + 1 : null;
  }

  private typed(i: number): void {
    const input = this.inputs[i]!;
    let v = this.valueOf(input.value);
    if (v === null && input.value.length > 1) v = this.valueOf(input.value.slice(-1));
    if (v === null) {
      input.value = this.symbol(this.cells[i]!);
      input.classList.add("rejected");
      setTimeout(() => input.classList.remove("rejected"), 400);
      return;
    }
    this.cells[i] = v;
    input.value = this.symbol(v);
    input.classList.toggle("given", v !== 0);
    this.clearResult();
  }

  private keydown(ev: KeyboardEvent, i: number): void {
    const n = this.rows * this.cols;
    const r = Math.floor(i / n);
    const c = i % n;
    let to = -1;
    if (ev.key === "ArrowRight") to = r * n + ((c + 1) % n);
    else if (ev.key === "ArrowLeft") to = r * n + ((c + n - 1) % n);
    else if (ev.key === "ArrowDown") to = ((r + 1) % n) * n + c;
    else if (ev.key === "ArrowUp") to = ((r + n - 1) % n) * n + c;
    else if (ev.key === "Enter") {
      void this.solveGrid();
      ev.preventDefault();
      return;
    } else if (ev.key === "Backspace" || ev.key === "Delete") {
      this.cells[i] = 0;
      this.inputs[i]!.value = "";
      this.inputs[i]!.classList.remove("given");
      this.clearResult();
      ev.preventDefault();
      return;
    } else if (ev.key.length === 1 && !ev.ctrlKey && !ev.metaKey) {
      // One symbol replaces the cell (two-character symbols type through `input`).
      if (this.symbols.every((s) => s.length === 1)) {
        const v = this.valueOf(ev.key);
        ev.preventDefault();
        if (v !== null) {
          this.cells[i] = v;
          this.inputs[i]!.value = this.symbol(v);
          this.inputs[i]!.classList.toggle("given", v !== 0);
          this.clearResult();
          if (v !== 0) this.inputs[(i + 1) % (n * n)]!.focus();
        }
      }
      return;
    }
    if (to >= 0) {
      ev.preventDefault();
      this.inputs[to]!.focus();
      this.inputs[to]!.select();
    }
  }

  private clearResult(): void {
    for (const input of this.inputs) {
      input.classList.remove("solved", "clash", "differs");
      input.title = "";
      if (!input.classList.contains("given")) input.value = "";
    }
    byId("sudoku-verdict").textContent = "";
    byId("sudoku-verdict").className = "";
    byId("sudoku-text").textContent = "";
    byId("sudoku-time").textContent = "";
  }

  /** The grid as text the engine reads: numbers, one row a line. */
  private gridText(): string {
    const n = this.rows * this.cols;
    const lines: string[] = [];
    for (let r = 0; r < n; r++) lines.push(this.cells.slice(r * n, r * n + n).join(" "));
    return lines.join("\n") + "\n";
  }

  private x(): boolean {
    return byId<HTMLInputElement>("sudoku-x").checked;
  }

  /** Reads the region map and redraws the grid with its regions. */
  async useRegions(): Promise<void> {
    const text = byId<HTMLTextAreaElement>("sudoku-regions").value;
    const status = byId("sudoku-regions-status");
    let answer: RegionsAnswer;
    try {
      answer = (await this.engine.run({ cmd: "regions", text })) as RegionsAnswer;
    } catch (e) {
      status.textContent = String(e);
      return;
    }
    if (answer.error || !answer.regions || !answer.size) {
      status.textContent = answer.error ?? "no regions";
      status.className = "verdict invalid";
      return;
    }
    const n = answer.size;
    const [rows, cols] = answer.box ?? [1, n];
    const keep = rows * cols === this.rows * this.cols;
    this.regions = answer.regions;
    this.regionText = text;
    status.textContent = `${n} regions of ${n} cells`;
    status.className = "muted";
    this.setShape(rows, cols, keep ? this.cells : null, keep ? this.symbols : undefined);
  }

  async solveGrid(): Promise<void> {
    const regions = this.regionText ?? undefined;
    const answer = await this.ask({ cmd: "sudoku", text: this.gridText(), box: [this.rows, this.cols], x: this.x(), max: 2, regions });
    const rec = answer?.records[0];
    if (rec) this.show(rec, false);
  }

  async solvePasted(): Promise<void> {
    const text = byId<HTMLTextAreaElement>("sudoku-paste").value;
    const jigsaw = byId<HTMLInputElement>("sudoku-jigsaw-lines").checked;
    const regions = jigsaw ? undefined : (this.regionText ?? undefined);
    const answer = await this.ask({ cmd: "sudoku", text, x: this.x(), max: 2, limit: 1000, regions, jigsaw });
    if (!answer) return;
    this.records = answer.records;
    const batch = byId("sudoku-batch");
    batch.replaceChildren();
    if (answer.records.length === 0) {
      byId("sudoku-verdict").textContent = "no puzzle in the text";
      return;
    }
    if (answer.records.length > 1) {
      const tally = new Map<string, number>();
      for (const r of answer.records) tally.set(r.verdict, (tally.get(r.verdict) ?? 0) + 1);
      const more = answer.total > answer.records.length ? ` (first ${answer.records.length} of ${answer.total})` : "";
      batch.append(el("p", undefined, `${answer.records.length} records${more}: ` + [...tally].map(([v, k]) => `${k} ${v}`).join(", ")));
      const ol = el("ol", "records");
      answer.records.forEach((r, i) => {
        const li = el("li");
        const b = el("button", "link", `line ${r.line}: ${r.verdict}`);
        b.addEventListener("click", () => this.show(this.records[i]!, true));
        li.append(b);
        ol.append(li);
      });
      batch.append(ol);
    }
    this.show(answer.records[0]!, true);
  }

  private async ask(req: {
    cmd: "sudoku";
    text: string;
    box?: [number, number];
    x: boolean;
    max: number;
    limit?: number;
    regions?: string;
    jigsaw?: boolean;
  }): Promise<SudokuAnswer | null> {
    const status = byId("sudoku-time");
    status.textContent = "solving…";
    byId<HTMLButtonElement>("sudoku-cancel").disabled = false;
    try {
      return (await this.engine.run(req)) as SudokuAnswer;
    } catch (e) {
      status.textContent = e instanceof Cancelled ? "cancelled" : String(e);
      return null;
    } finally {
      byId<HTMLButtonElement>("sudoku-cancel").disabled = true;
    }
  }

  private show(rec: SudokuRecord, load: boolean): void {
    if (load && rec.size && rec.box && rec.givens) {
      // A jigsaw record's regions (its own, or the map's) are drawn, and
      // solving the grid again uses them.
      this.regions = rec.regions ?? null;
      this.regionText = rec.regions ? regionMap(rec.regions, rec.size) : null;
      this.setShape(rec.box[0], rec.box[1], rec.givens, rec.symbols);
    }
    this.clearResult();
    const verdict = byId("sudoku-verdict");
    verdict.className = `verdict ${rec.verdict}`;
    verdict.textContent = rec.error ? `${rec.verdict}: ${rec.error}` : rec.verdict;
    if (rec.clash) {
      for (const [r, c] of rec.clash) this.inputs[r * this.rows * this.cols + c]?.classList.add("clash");
    }
    if (rec.solution) {
      rec.solution.forEach((v, i) => {
        const input = this.inputs[i];
        if (!input) return;
        if (!this.cells[i]) {
          input.value = this.symbol(v);
          input.classList.add("solved");
        }
        const w = rec.second?.[i];
        if (w !== undefined && w !== v) {
          input.classList.add("differs");
          input.title = `a second solution has ${this.symbol(w)} here`;
        }
      });
    }
    byId("sudoku-text").textContent = rec.text ?? "";
    const time = byId("sudoku-time");
    if (rec.ms !== undefined) {
      const many = rec.verdict === "multiple" ? "; cells in orange differ in a second solution" : "";
      time.textContent = `${ms(rec.ms)}, ${rec.nodes} search nodes${many}`;
    } else {
      time.textContent = "";
    }
  }
}

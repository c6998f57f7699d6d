// Messages between the page and its engine worker.

/** A request to the engine (see web/src/lib.rs). */
export type Request =
  | { cmd: "count"; text: string }
  | { cmd: "min_cost"; text: string; k?: number }
  | { cmd: "list_start"; text: string }
  | { cmd: "list_next"; n: number }
  | { cmd: "trace"; text: string; max_nodes?: number }
  | {
      cmd: "sudoku";
      text: string;
      box?: [number, number];
      x?: boolean;
      max?: number;
      limit?: number;
      regions?: string;
      jigsaw?: boolean;
    }
  | { cmd: "regions"; text: string };

/** The engine's progress report. */
export interface Progress {
  nodes: number;
  solutions: number;
  /** Knuth's estimate of the fraction of the tree explored. */
  fraction: number;
  depth: number;
  ms: number;
}

export type FromWorker =
  | { type: "progress"; id: number; progress: Progress }
  | { type: "found"; id: number; data: unknown }
  | { type: "result"; id: number; data: unknown }
  | { type: "error"; id: number; message: string };

export interface ToWorker {
  id: number;
  req: Request;
}

/** A DLX parse error, 1-based. */
export interface ParseErrorInfo {
  line: number;
  column: number;
  message: string;
}

export interface ProblemInfo {
  items: number;
  primary: number;
  options: number;
  entries: number;
  colors: boolean;
}

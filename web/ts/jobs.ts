// Running requests in a Web Worker. Each view owns an Engine; cancelling
// terminates its worker (which stops the search at once) and the next
// request gets a fresh one, made ahead of time.
import type { FromWorker, Progress, Request, ToWorker } from "./protocol";

export class Cancelled extends Error {
  constructor() {
    super("cancelled");
  }
}

interface Pending {
  id: number;
  resolve: (data: unknown) => void;
  reject: (e: Error) => void;
  onProgress: ((p: Progress) => void) | undefined;
  onFound: ((data: unknown) => void) | undefined;
}

let nextId = 1;

export class Engine {
  private worker: Worker | null = null;
  private spare: Worker | null = null;
  private pending: Pending | null = null;

  private make(): Worker {
    return new Worker(new URL("worker.js", document.baseURI));
  }

  private take(): Worker {
    const w = this.spare ?? this.make();
    this.spare = this.make();
    w.onmessage = (ev: MessageEvent<FromWorker>) => this.receive(ev.data);
    w.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      this.fail(new Error(ev.message || "the engine worker failed"));
    };
    return w;
  }

  private receive(msg: FromWorker): void {
    const p = this.pending;
    if (!p || msg.id !== p.id) return;
    if (msg.type === "progress") {
      p.onProgress?.(msg.progress);
      return;
    }
    if (msg.type === "found") {
      p.onFound?.(msg.data);
      return;
    }
    this.pending = null;
    if (msg.type === "result") p.resolve(msg.data);
    else p.reject(new Error(msg.message));
  }

  private fail(e: Error): void {
    const p = this.pending;
    this.pending = null;
    this.worker?.terminate();
    this.worker = null;
    p?.reject(e);
  }

  /** Whether a request is running. */
  get busy(): boolean {
    return this.pending !== null;
  }

  /**
   * Runs `req`. With `fresh`, on a new worker (ending whatever the old one
   * held); otherwise on the current one, which keeps state such as a listing.
   */
  run(
    req: Request,
    opts: { fresh?: boolean; onProgress?: (p: Progress) => void; onFound?: (data: unknown) => void } = {},
  ): Promise<unknown> {
    if (this.pending) this.cancel();
    if (opts.fresh || !this.worker) {
      this.worker?.terminate();
      this.worker = this.take();
    }
    const id = nextId++;
    const worker = this.worker;
    return new Promise((resolve, reject) => {
      this.pending = { id, resolve, reject, onProgress: opts.onProgress, onFound: opts.onFound };
      const msg: ToWorker = { id, req };
      worker.postMessage(msg);
    });
  }

  /** Stops the running request: its promise rejects with Cancelled. */
  cancel(): void {
    this.fail(new Cancelled());
  }
}

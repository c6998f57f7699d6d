// The engine's worker: loads the wasm module and answers requests, one at
// a time. The page cancels by terminating the worker.
import type { FromWorker, Progress, ToWorker } from "./protocol";

interface EngineExports {
  memory: WebAssembly.Memory;
  alloc(len: number): number;
  request(ptr: number, len: number): number;
  output_ptr(): number;
}

interface WorkerScope {
  postMessage(message: FromWorker): void;
  onmessage: ((ev: MessageEvent<ToWorker>) => void) | null;
  location: { href: string };
}

const scope = self as unknown as WorkerScope;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
let current = 0;
let memory: WebAssembly.Memory | null = null;

function post(message: FromWorker): void {
  scope.postMessage(message);
}

const ready: Promise<EngineExports> = (async () => {
  const response = await fetch(new URL("exactly.wasm", scope.location.href));
  if (!response.ok) throw new Error(`exactly.wasm: HTTP ${response.status}`);
  const env = {
    now_ms: (): number => performance.now(),
    progress: (nodes: number, solutions: number, fraction: number, depth: number, ms: number): void => {
      const progress: Progress = { nodes, solutions, fraction, depth, ms };
      post({ type: "progress", id: current, progress });
    },
    improved: (ptr: number, len: number): void => {
      if (!memory) return;
      const text = decoder.decode(new Uint8Array(memory.buffer, ptr, len));
      post({ type: "found", id: current, data: JSON.parse(text) as unknown });
    },
  };
  // Streaming compiles while the bytes arrive, and lets the browser cache
  // the optimized machine code with the file for the next visit; a server
  // that does not send `application/wasm` gets the plain path.
  const streamed = response.headers.get("content-type")?.startsWith("application/wasm") ?? false;
  const { instance } = streamed
    ? await WebAssembly.instantiateStreaming(response, { env })
    : await WebAssembly.instantiate(await response.arrayBuffer(), { env });
  const exports = instance.exports as unknown as EngineExports;
  memory = exports.memory;
  return exports;
})();

function call(engine: EngineExports, req: unknown): unknown {
  const bytes = encoder.encode(JSON.stringify(req));
  const ptr = engine.alloc(bytes.length);
  new Uint8Array(engine.memory.buffer, ptr, bytes.length).set(bytes);
  const len = engine.request(ptr, bytes.length);
  const out = new Uint8Array(engine.memory.buffer, engine.output_ptr(), len);
  return JSON.parse(decoder.decode(out)) as unknown;
}

let broken = false;

scope.onmessage = (ev: MessageEvent<ToWorker>): void => {
  const { id, req } = ev.data;
  current = id;
  ready.then(
    (engine) => {
      if (broken) {
        post({ type: "error", id, message: "the engine stopped after an internal error; start again" });
        return;
      }
      try {
        post({ type: "result", id, data: call(engine, req) });
      } catch (e) {
        // A trap leaves the instance unusable.
        broken = true;
        post({ type: "error", id, message: `internal error in the engine: ${String(e)}` });
      }
    },
    (e: unknown) => post({ type: "error", id, message: `could not load the engine: ${String(e)}` }),
  );
};

// `npm run bench` (not a test): the engine's speed in the browser as a
// ratio to the native CLI on one thread, on the same inputs in the same run.
// Counts the 6x10 pentominoes and solves a batch of 9x9 sudokus. Needs the
// site built (`npm run build`); builds the CLI with `cargo build --release`
// unless $EXACTLY_BIN names one.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, DATA, openPage } from "../tests/harness.mjs";

// Timed pairs per task.
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
// Before its timed pairs, each task runs untimed for at least this long:
// V8 first runs the engine as its baseline compiler made it, and moves the
// hot functions to its optimizing compiler while they run.
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 2000);

// $EXACTLY_BIN: a release CLI already built (skips the build).
let exe = process.env.EXACTLY_BIN;
if (!exe) {
  execFileSync("cargo", ["build", "-q", "--release", "-p", "exactly-cli"], { cwd: ROOT, stdio: "inherit" });
  exe = join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "release", "exactly");
}

/** CPU time in ms from /proc (Linux): clock ticks of 10 ms. */
const TICK_MS = 10;
/** Fields of /proc/PID/stat, numbered from 1 as proc(5) does. */
function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return ["", "", "", ...text.slice(text.lastIndexOf(")") + 2).split(" ")];
  } catch {
    return null;
  }
}
/** CPU of the processes this one has waited for (the native runs). */
const childrenCpu = () => {
  const f = stat("self");
  return (Number(f[16]) + Number(f[17])) * TICK_MS;
};
/** CPU of this process's descendants still running (the browser's). */
function browserCpu() {
  const parent = new Map();
  const cpu = new Map();
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const f = stat(pid);
    if (!f) continue;
    parent.set(pid, f[4]);
    cpu.set(pid, (Number(f[14]) + Number(f[15])) * TICK_MS);
  }
  const me = String(process.pid);
  let total = 0;
  for (const [pid, t] of cpu) {
    let p = parent.get(pid);
    for (let hops = 0; p && p !== "0" && p !== me && hops < 64; hops++) p = parent.get(p);
    if (p === me) total += t;
  }
  return total;
}

/** One run of `f`: wall time in ms (what it returns, else measured) and CPU time in ms. */
async function once(f, cpu) {
  const c0 = cpu();
  const t0 = performance.now();
  const ms = await f();
  const wall = typeof ms === "number" ? ms : performance.now() - t0;
  return { wall, cpu: cpu() - c0 };
}

const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};

/**
 * The browser's and the native CLI's times taking turns, REPEAT pairs, so
 * that a load from elsewhere falls on both alike: the best of each, and the
 * median of the pairs' ratios.
 */
async function interleaved(webRun, nativeRun) {
  const cold = await webRun();
  for (let spent = cold; spent < WARMUP_MS; ) spent += await webRun();
  await nativeRun();
  const w = [];
  const n = [];
  for (let i = 0; i < REPEAT; i++) {
    w.push(await once(webRun, browserCpu));
    n.push(await once(nativeRun, childrenCpu));
  }
  const wall = (xs) => xs.map((x) => x.wall);
  const cpu = (xs) => xs.map((x) => x.cpu);
  return {
    cold,
    web: Math.min(...wall(w)),
    native: Math.min(...wall(n)),
    ratio: median(w.map((x, i) => n[i].wall / x.wall)),
    webCpu: median(cpu(w)),
    nativeCpu: median(cpu(n)),
  };
}

function native(args, expect) {
  return () => {
    const r = spawnSync(exe, args, { encoding: "utf8", maxBuffer: 1 << 26 });
    if (r.status !== 0 || !expect(r.stdout)) throw new Error(`exactly ${args.join(" ")}: ${r.stderr}`);
  };
}

const pentomino = readFileSync(join(ROOT, "testdata", "pentomino-6x10.dlx"), "utf8");
// top95 from the shared data beside the checkout when there (or
// $BENCH_SUDOKU); else the first ten of it, which ship with the tests.
const top95 = [
  process.env.BENCH_SUDOKU,
  join(ROOT, "..", "shared", "data", "sudoku9", "top95.txt"),
  join(ROOT, "..", "..", "shared", "data", "sudoku9", "top95.txt"),
].find((f) => f && existsSync(f));
const sudokuFile = top95 ?? join(DATA, "top95-first10.txt");
// The batch repeated so that it takes a while.
const batch = readFileSync(sudokuFile, "utf8").repeat(sudokuFile === top95 ? 2 : 20);
const scratch = mkdtempSync(join(tmpdir(), "exactly-web-bench-"));
const batchFile = join(scratch, "batch.txt");
writeFileSync(batchFile, batch);
const puzzles = batch.trim().split("\n").length;

const s = await openPage();
try {
  // A worker of the page's own, driven directly.
  await s.page.evaluate(() => {
    const w = new Worker("worker.js");
    let id = 0;
    window.benchCall = (req) =>
      new Promise((resolve, reject) => {
        const mine = ++id;
        w.onmessage = (ev) => {
          const m = ev.data;
          if (m.id !== mine || m.type === "progress") return;
          if (m.type === "result") resolve(m.data);
          else reject(new Error(m.message));
        };
        w.postMessage({ id: mine, req });
      });
  });
  // Timed in the page, from the request posted to the answer parsed: the
  // answer itself stays there (shipping 190 solved grids to Node through
  // the browser's debugging protocol took longer than solving them).
  const web = (req, check) => async () => {
      const [ms, summary] = await s.page.evaluate(async (r) => {
        const t0 = performance.now();
        const d = await window.benchCall(r);
        const ms = performance.now() - t0;
        const records = d.records ?? [];
        return [ms, { count: d.count, records: records.length, verdicts: [...new Set(records.map((x) => x.verdict))] }];
      }, req);
      if (!check(summary)) throw new Error(`unexpected answer: ${JSON.stringify(summary)}`);
      return ms;
    };
  // Warm up: the worker loads and compiles the engine.
  await web({ cmd: "count", text: "a\na\n" }, () => true)();

  const rows = [];
  const count = await interleaved(
    web({ cmd: "count", text: pentomino }, (d) => d.count === "9356"),
    native(["count", "--threads", "1", join(ROOT, "testdata", "pentomino-6x10.dlx")], (o) => o.trim() === "9356"),
  );
  rows.push(["count 6x10 pentominoes (9356)", count]);
  const sudoku = await interleaved(
    web({ cmd: "sudoku", text: batch, max: 2 }, (d) => d.records === puzzles && d.verdicts.join() === "unique"),
    native(["sudoku", "--threads", "1", batchFile], (o) => o.trim().split("\n").length === puzzles),
  );
  rows.push([`sudoku: ${puzzles} puzzles from ${sudokuFile.split("/").pop()}`, sudoku]);

  console.log(
    `${REPEAT} pairs taking turns, after ${WARMUP_MS} ms of untimed requests a task; wall time of the request in the page ` +
      "(Web Worker, wasm: posted to answered) and of the native process (--threads 1); best of each, and the median " +
      "of the pairs' ratios; cold: the page's first request of the task",
  );
  console.log(
    "task".padEnd(44) + "cold".padStart(10) + "browser".padStart(12) + "native".padStart(12) + "  best/best" + "  median ratio",
  );
  for (const [name, r] of rows) {
    console.log(
      name.padEnd(44) +
        `${r.cold.toFixed(0)} ms`.padStart(10) +
        `${r.web.toFixed(0)} ms`.padStart(12) +
        `${r.native.toFixed(0)} ms`.padStart(12) +
        `${(r.native / r.web).toFixed(2)}x`.padStart(11) +
        `${r.ratio.toFixed(2)}x`.padStart(14),
    );
  }
  console.log("CPU time, median (Linux /proc: the browser's processes, and the native process; 10 ms ticks)");
  for (const [name, r] of rows) {
    console.log(
      name.padEnd(54) +
        `${r.webCpu.toFixed(0)} ms`.padStart(12) +
        `${r.nativeCpu.toFixed(0)} ms`.padStart(12) +
        `${(r.nativeCpu / r.webCpu).toFixed(2)}x`.padStart(11),
    );
  }
} finally {
  await s.close();
}

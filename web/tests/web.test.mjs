// Browser tests: the built page in headless Chromium, every answer checked
// against the native CLI's on the same input.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { DATA, ROOT, openPage, runCli, setText } from "./harness.mjs";

const read = (path) => readFileSync(path, "utf8");
const scratch = mkdtempSync(join(tmpdir(), "exactly-web-test-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Counts the problem `text` on the page's solve view; returns the result line. */
async function countOnPage(p, text) {
  await p.click("#nav-solve");
  await setText(p, "#solve-input", text);
  await p.click("#solve-count");
  await p.waitForFunction(() => document.querySelector("#solve-result").textContent !== "");
  return p.textContent("#solve-result");
}

/** Solves the records in `text` on the page; returns the page session. */
async function pasteSudoku(s, text) {
  const p = s.page;
  await p.click("#nav-sudoku");
  await setText(p, "#sudoku-paste", text);
  await p.click("#sudoku-paste-solve");
  await p.waitForFunction(() => document.querySelector("#sudoku-verdict").textContent !== "");
}

test("top95 puzzles: each solution is the CLI's", async () => {
  const file = join(DATA, "top95-first10.txt");
  const expected = runCli(["sudoku", file]).stdout.trim().split("\n");
  assert.equal(expected.length, 10);
  const s = await openPage();
  try {
    await pasteSudoku(s, read(file));
    const buttons = s.page.locator("#sudoku-batch .records button");
    assert.equal(await buttons.count(), 10);
    for (let i = 0; i < 10; i++) {
      await buttons.nth(i).click();
      assert.equal(await s.page.textContent("#sudoku-verdict"), "unique");
      assert.equal(await s.page.textContent("#sudoku-text"), expected[i], `puzzle ${i + 1}`);
    }
    // The grid shows the solution: givens plus the solved cells.
    const shown = await s.page.$$eval("#sudoku-grid .cell", (cells) => cells.map((c) => c.value).join(""));
    assert.equal(shown, expected[9]);
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

for (const name of ["16x16", "25x25"]) {
  test(`a ${name} puzzle: the CLI's solution`, async () => {
    const file = join(DATA, `${name}.txt`);
    const expected = runCli(["sudoku", file]).stdout.trim();
    const s = await openPage();
    try {
      await pasteSudoku(s, read(file));
      assert.equal(await s.page.textContent("#sudoku-verdict"), "unique");
      assert.equal(await s.page.textContent("#sudoku-text"), expected);
      const n = Number(name.split("x")[0]);
      assert.equal(await s.page.locator("#sudoku-grid .cell").count(), n * n);
      assert.equal(await s.page.locator("#sudoku-grid .cell.box-right").count(), n * (Math.sqrt(n) - 1));
    } finally {
      await s.close();
    }
  });
}

/** A puzzle with exactly two solutions: a solved grid less an unavoidable rectangle. */
function twoSolutionPuzzle() {
  const solved = runCli(["sudoku", join(DATA, "top95-first10.txt")]).stdout.split("\n")[0];
  const g = [...solved];
  const at = (r, c) => g[r * 9 + c];
  for (let r1 = 0; r1 < 9; r1++)
    for (let r2 = r1 + 1; r2 < 9 && Math.floor(r2 / 3) === Math.floor(r1 / 3); r2++)
      for (let c1 = 0; c1 < 9; c1++)
        for (let c2 = c1 + 1; c2 < 9; c2++) {
          if (Math.floor(c1 / 3) === Math.floor(c2 / 3)) continue;
          if (at(r1, c1) === at(r2, c2) && at(r1, c2) === at(r2, c1)) {
            for (const [r, c] of [[r1, c1], [r1, c2], [r2, c1], [r2, c2]]) g[r * 9 + c] = ".";
            return g.join("");
          }
        }
  throw new Error("no unavoidable rectangle in the grid");
}

test("a puzzle with two solutions: verdict multiple, the differing cells marked", async () => {
  const puzzle = twoSolutionPuzzle();
  const file = join(scratch, "two.txt");
  writeFileSync(file, puzzle + "\n");
  const [verdict, count, first, second] = runCli(["sudoku", "--second", file]).stdout.trim().split(" ");
  assert.equal(verdict, "multiple");
  assert.equal(count, "2");
  const differ = [...first].flatMap((ch, i) => (ch !== second[i] ? [i] : []));
  assert.equal(differ.length, 4);
  const s = await openPage();
  try {
    await pasteSudoku(s, puzzle);
    assert.equal(await s.page.textContent("#sudoku-verdict"), "multiple");
    assert.equal(await s.page.textContent("#sudoku-text"), first);
    const marked = await s.page.$$eval("#sudoku-grid .cell", (cells) =>
      cells.flatMap((c, i) => (c.classList.contains("differs") ? [i] : [])),
    );
    assert.deepEqual(marked, differ);
  } finally {
    await s.close();
  }
});

test("clashing givens typed into the grid: verdict invalid, the two cells marked", async () => {
  const puzzle = "11" + ".".repeat(79);
  const file = join(scratch, "clash.txt");
  writeFileSync(file, puzzle + "\n");
  const cli = runCli(["sudoku", file]).stdout.trim();
  assert.equal(cli, "invalid: line 1: givens clash: r1c1 and r1c2 both hold 1");
  const s = await openPage();
  try {
    const p = s.page;
    await p.click("#nav-sudoku");
    await p.click("#sudoku-grid .cell >> nth=0");
    await p.keyboard.press("1");
    await p.keyboard.press("1");
    await p.click("#sudoku-solve");
    await p.waitForFunction(() => document.querySelector("#sudoku-verdict").textContent !== "");
    assert.equal(await p.textContent("#sudoku-verdict"), cli);
    const marked = await p.$$eval("#sudoku-grid .cell", (cells) =>
      cells.flatMap((c, i) => (c.classList.contains("clash") ? [i] : [])),
    );
    assert.deepEqual(marked, [0, 1]);
  } finally {
    await s.close();
  }
});

test("typing into the grid: digits and arrows, then Enter solves", async () => {
  const puzzle = read(join(DATA, "top95-first10.txt")).split("\n")[1];
  const file = join(scratch, "typed.txt");
  writeFileSync(file, puzzle + "\n");
  const expected = runCli(["sudoku", file]).stdout.trim();
  const s = await openPage();
  try {
    const p = s.page;
    await p.click("#nav-sudoku");
    await p.click("#sudoku-grid .cell >> nth=0");
    for (let i = 0; i < 81; i++) {
      const ch = puzzle[i];
      if (ch === ".") await p.keyboard.press("ArrowRight");
      else await p.keyboard.press(ch); // a digit moves on by itself
      if (i % 9 === 8 && ch === ".") await p.keyboard.press("ArrowDown");
    }
    const typed = await p.$$eval("#sudoku-grid .cell", (cells) => cells.map((c) => c.value || ".").join(""));
    assert.equal(typed, puzzle);
    await p.keyboard.press("Enter");
    await p.waitForFunction(() => document.querySelector("#sudoku-verdict").textContent !== "");
    assert.equal(await p.textContent("#sudoku-verdict"), "unique");
    const shown = await p.$$eval("#sudoku-grid .cell", (cells) => cells.map((c) => c.value).join(""));
    assert.equal(shown, expected);
  } finally {
    await s.close();
  }
});

test("jigsaw: a region map drawn as thick borders, the grid solved as `exactly sudoku --regions`", async () => {
  const [cells, map] = runCli(["sudoku", "gen", "--jigsaw", "--seed", "3"]).stdout.trim().split(/\s+/);
  const n = 9;
  const rows = Array.from({ length: n }, (_, r) => map.slice(r * n, r * n + n));
  const regionsFile = join(scratch, "jigsaw-regions.txt");
  const puzzleFile = join(scratch, "jigsaw.txt");
  writeFileSync(regionsFile, rows.join("\n") + "\n");
  writeFileSync(puzzleFile, cells + "\n");
  const expected = runCli(["sudoku", "--regions", regionsFile, puzzleFile]);
  assert.equal(expected.status, 0, expected.stderr);
  const s = await openPage();
  try {
    const p = s.page;
    await p.click("#nav-sudoku");
    await p.click("#sudoku-jigsaw summary");
    // A map with a region of the wrong size is refused, at its line.
    await setText(p, "#sudoku-regions", "AAB\nAAB\nCCC\n");
    await p.click("#sudoku-regions-use");
    await p.waitForFunction(() => document.querySelector("#sudoku-regions-status").textContent !== "");
    const badFile = join(scratch, "jigsaw-bad-regions.txt");
    writeFileSync(badFile, "AAB\nAAB\nCCC\n");
    const refused = runCli(["sudoku", "--regions", badFile, puzzleFile]);
    assert.equal(refused.status, 2);
    const said = await p.textContent("#sudoku-regions-status");
    assert.match(said, /^region map: /);
    // The same complaint as the CLI's, which prefixes the file's name.
    assert.ok(refused.stderr.includes(said.slice("region map: ".length)), `${said} / ${refused.stderr}`);
    await setText(p, "#sudoku-regions", rows.join("\n") + "\n");
    await p.click("#sudoku-regions-use");
    await p.waitForFunction(() => document.querySelector("#sudoku-regions-status").textContent.includes("9 regions"));
    // Thick borders exactly where neighbours lie in different regions.
    const borders = await p.$$eval("#sudoku-grid .cell", (cs) =>
      cs.map((c) => [c.classList.contains("box-right"), c.classList.contains("box-bottom")]),
    );
    for (let i = 0; i < n * n; i++) {
      const [r, c] = [Math.floor(i / n), i % n];
      assert.equal(borders[i][0], c < n - 1 && map[i] !== map[i + 1], `right of cell ${i}`);
      assert.equal(borders[i][1], r < n - 1 && map[i] !== map[i + n], `below cell ${i}`);
    }
    // The puzzle pasted: the map's regions for it too; it loads into the grid.
    await setText(p, "#sudoku-paste", cells + "\n");
    await p.click("#sudoku-paste-solve");
    await p.waitForFunction(() => document.querySelector("#sudoku-text").textContent !== "");
    assert.equal(await p.textContent("#sudoku-text"), expected.stdout.trim());
    // Solved again from the grid, with the regions it shows.
    await p.$eval("#sudoku-verdict", (v) => (v.textContent = ""));
    await p.click("#sudoku-grid .cell >> nth=0");
    await p.keyboard.press("Enter");
    await p.waitForFunction(() => document.querySelector("#sudoku-verdict").textContent !== "");
    assert.equal(await p.textContent("#sudoku-verdict"), "unique");
    const shown = await p.$$eval("#sudoku-grid .cell", (cs) => cs.map((c) => c.value).join(""));
    assert.equal(shown, expected.stdout.trim());
    const after = await p.$$eval("#sudoku-grid .cell", (cs) => cs.filter((c) => c.classList.contains("box-right")).length);
    assert.equal(after, borders.filter(([right]) => right).length);
    // The same puzzle as a `--jigsaw` line with its own map.
    await p.click("#sudoku-regions-off");
    await setText(p, "#sudoku-paste", `${cells} ${map}\n`);
    await p.check("#sudoku-jigsaw-lines");
    await p.click("#sudoku-paste-solve");
    await p.waitForFunction(() => document.querySelector("#sudoku-text").textContent !== "");
    assert.equal(await p.textContent("#sudoku-text"), expected.stdout.trim());
    assert.equal(await p.locator("#sudoku-grid.jigsaw").count(), 1);
  } finally {
    await s.close();
  }
});

test("the dance: stepping Knuth's 7-item example is `exactly solve --trace`", async () => {
  const file = join(ROOT, "testdata", "knuth-example.dlx");
  const r = runCli(["solve", "--trace", file]);
  assert.equal(r.status, 0);
  const trace = r.stderr.trimEnd().split("\n");
  const upToSolution = trace.findIndex((l) => l.trim().startsWith("solution 1:")) + 1;
  assert.ok(upToSolution > 1);
  const s = await openPage();
  try {
    const p = s.page;
    await p.selectOption("#dance-example", "knuth-7");
    await p.waitForFunction(() => document.querySelector("#dance-where").textContent.endsWith(" 16"));
    // Step with the arrow key until the solution shows.
    for (let i = 0; i < 100 && (await p.locator("#dance-solutions li").count()) === 0; i++) {
      await p.keyboard.press("ArrowRight");
    }
    const log = () => p.$$eval("#dance-log div", (ls) => ls.map((l) => l.textContent));
    assert.deepEqual(await log(), trace.slice(0, upToSolution));
    assert.equal(await p.textContent("#dance-solutions li"), "a d f; b g; c e");
    assert.equal(await p.textContent("#dance-level"), "3");
    // Three options chosen: their rows are marked on the matrix.
    assert.equal(await p.locator("#dance-matrix text.row.chosen").count(), 3);
    // Step back, then play to the end: the whole trace.
    await p.keyboard.press("ArrowLeft");
    assert.equal(await p.locator("#dance-solutions li").count(), 0);
    await p.keyboard.press("ArrowRight");
    await p.fill("#dance-speed", "60");
    await p.evaluate(() => document.activeElement?.blur());
    await p.keyboard.press("Space");
    await p.waitForFunction(() => /step 16 of 16/.test(document.querySelector("#dance-where").textContent));
    assert.deepEqual(await log(), trace);
    // After the last backtrack every item is back in the header list.
    assert.equal(await p.locator("#dance-matrix .head.out").count(), 0);
  } finally {
    await s.close();
  }
});

test("the dance: 5 queens, run to each solution, matches the CLI's trace and solutions", async () => {
  const file = join(ROOT, "web", "examples", "queens-5.dlx");
  const trace = runCli(["solve", "--trace", file]).stderr.trimEnd().split("\n");
  const solutions = runCli(["solve", file]).stdout.trim().split("\n\n").map((s) => s.split("\n").join("; "));
  const s = await openPage();
  try {
    const p = s.page;
    await p.selectOption("#dance-example", "queens-5");
    await p.waitForFunction(() => document.querySelector("#dance-status").textContent.includes("steps"));
    for (let k = 1; k <= solutions.length; k++) {
      await p.click("#dance-next");
      assert.equal(await p.locator("#dance-solutions li").count(), k);
    }
    await p.click("#dance-next");
    const shown = await p.$$eval("#dance-solutions li", (ls) => ls.map((l) => l.textContent));
    assert.deepEqual(shown, solutions);
    const log = await p.$$eval("#dance-log div", (ls) => ls.map((l) => l.textContent));
    assert.deepEqual(log, trace);
  } finally {
    await s.close();
  }
});

/**
 * The links after each step of `exactly solve --trace-nodes`: the option
 * nodes out of their lists (`option item`) and the covered items, sorted.
 */
function nodeStates(file) {
  const r = runCli(["solve", "--trace-nodes", file]);
  assert.equal(r.status, 0);
  const gone = new Set();
  const covered = new Set();
  const states = [];
  const snap = () => ({ gone: [...gone].sort(), covered: [...covered].sort() });
  for (const line of r.stderr.trimEnd().split("\n")) {
    const node = /^\s*(unlink|relink) option #(\d+) \(.*\) from (\S+)$/.exec(line);
    const head = /^\s*(unlink|relink) item (\S+)$/.exec(line);
    if (node) {
      const key = `${node[2]} ${node[3]}`;
      if (node[1] === "unlink") gone.add(key);
      else gone.delete(key);
      states[states.length - 1] = snap();
    } else if (head) {
      if (head[1] === "unlink") covered.add(head[2]);
      else covered.delete(head[2]);
      states[states.length - 1] = snap();
    } else {
      states.push(snap());
    }
  }
  return states;
}

for (const [id, name] of [["knuth-7", "knuth-7.dlx"], ["colors", "colors.dlx"]]) {
  test(`the dance: the nodes shown out after each step of ${name} are those of \`exactly solve --trace-nodes\``, async () => {
    const states = nodeStates(join(ROOT, "web", "examples", name));
    assert.ok(states.some((st) => st.gone.length > 0));
    const s = await openPage();
    try {
      const p = s.page;
      await p.selectOption("#dance-example", id);
      await p.waitForFunction(
        (n) => document.querySelector("#dance-where").textContent === `step 0 of ${n}`,
        states.length,
      );
      const shown = () =>
        p.evaluate(() => ({
          gone: [...document.querySelectorAll("#dance-matrix circle.gone")].map((c) => c.dataset.node).sort(),
          covered: [...document.querySelectorAll("#dance-matrix .head.out")].map((g) => g.dataset.item).sort(),
        }));
      for (let i = 0; i < states.length; i++) {
        await p.keyboard.press("ArrowRight");
        assert.deepEqual(await shown(), states[i], `${name}, after step ${i + 1}`);
      }
      // Stepping back restores the links of the step before.
      for (let i = states.length - 2; i >= states.length - 6 && i >= 0; i--) {
        await p.keyboard.press("ArrowLeft");
        assert.deepEqual(await shown(), states[i], `${name}, back to step ${i + 1}`);
      }
      assert.deepEqual(s.errors, []);
    } finally {
      await s.close();
    }
  });
}

test("the dance: a problem too large to draw offers the solver", async () => {
  const text = read(join(ROOT, "testdata", "pentomino-6x10.dlx"));
  const s = await openPage();
  try {
    const p = s.page;
    await p.click(".edit summary");
    await setText(p, "#dance-input", text);
    await p.click("#dance-load");
    await p.waitForSelector("#dance-toolarge:not([hidden])");
    assert.match(await p.textContent("#dance-toolarge"), /72 items, 2056 options/);
    await p.click("#dance-to-solve");
    assert.equal(await p.inputValue("#solve-input"), text);
  } finally {
    await s.close();
  }
});

// Records every progress report the solve panel shows, as
// [fraction, status text] pairs in window.progressSeen.
async function recordProgress(p) {
  await p.evaluate(() => {
    const seen = [];
    window.progressSeen = seen;
    const status = document.querySelector("#solve-status");
    new MutationObserver(() => {
      const bar = document.querySelector("#solve-progress");
      if (!bar.hidden && bar.hasAttribute("value")) seen.push([bar.value, status.textContent]);
    }).observe(status, { childList: true, characterData: true, subtree: true });
  });
}

test("counting the 6x10 pentominoes: 9356, with progress shown", async () => {
  // 9356 tilings: 2339 up to symmetry, times 4 (de Bruijn; Knuth's
  // "Dancing links"). The debug CLI is too slow to count it here.
  const file = join(ROOT, "testdata", "pentomino-6x10.dlx");
  const expected = "9356";
  const s = await openPage();
  try {
    const p = s.page;
    await p.click("#nav-solve");
    await setText(p, "#solve-input", read(file));
    await recordProgress(p);
    await p.click("#solve-count");
    await p.waitForFunction(() => document.querySelector("#solve-result").textContent !== "", null, { timeout: 120_000 });
    assert.equal(await p.textContent("#solve-result"), `${expected} solutions`);
    const seen = await p.evaluate(() => window.progressSeen);
    assert.ok(seen.length >= 2, `progress shown ${seen.length} times`);
    const fractions = seen.map(([f]) => f);
    assert.ok(fractions.every((f) => f >= 0 && f <= 1));
    assert.ok(fractions[fractions.length - 1] > fractions[0], "the estimate grows");
    assert.match(seen[seen.length - 1][1], /% of the tree by Knuth's estimate · [\d,]+ solutions · [\d,]+ nodes/);
  } finally {
    await s.close();
  }
});

test("a large exact cover is counted by the rest its forced moves leave, as the CLI counts it", async () => {
  // Eight queens below one forced option, f x: the 7,000 options on x that
  // it rules out make the whole too large for the bitsets and the item
  // masks, so the count runs on the rest, on the bitsets.
  let text = "";
  for (let i = 0; i < 8; i++) text += `r${i} c${i} `;
  text += "f x |";
  for (let d = 0; d < 15; d++) text += ` a${d} b${d}`;
  for (let k = 0; k < 7000; k++) text += ` s${k}`;
  text += "\nf x\n";
  for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) text += `r${r} c${c} a${r + c} b${r + 7 - c}\n`;
  for (let k = 0; k < 7000; k++) text += `x s${k}\n`;
  const file = join(scratch, "forced-queens.dlx");
  writeFileSync(file, text);
  const counted = runCli(["count", "--stats", "--threads", "1", file]);
  assert.equal(counted.status, 0, counted.stderr);
  assert.equal(counted.stdout.trim(), "92");
  const nodes = Number(/^nodes: (\d+)$/m.exec(counted.stderr)?.[1]);
  assert.match(counted.stderr, /^engine: bits$/m);
  const s = await openPage();
  try {
    const p = s.page;
    assert.equal(await countOnPage(p, text), "92 solutions");
    const status = await p.textContent("#solve-status");
    assert.ok(status.startsWith(`${nodes.toLocaleString("en")} nodes in `), status);
    assert.match(status, /; Bits engine\)$/);
  } finally {
    await s.close();
  }
});

test("cancelling a long count stops within a second", async () => {
  const queens = runCli(["gen", "queens", "16"]).stdout;
  const s = await openPage();
  try {
    const p = s.page;
    await p.click("#nav-solve");
    await setText(p, "#solve-input", queens);
    await p.click("#solve-count");
    await p.waitForFunction(() => /nodes/.test(document.querySelector("#solve-status").textContent));
    const took = await p.evaluate(
      () =>
        new Promise((resolve) => {
          const status = document.querySelector("#solve-status");
          const t0 = performance.now();
          new MutationObserver((_, obs) => {
            if (status.textContent === "cancelled") {
              obs.disconnect();
              resolve(performance.now() - t0);
            }
          }).observe(status, { childList: true, characterData: true, subtree: true });
          document.querySelector("#solve-cancel").click();
        }),
    );
    assert.ok(took < 1000, `stopped after ${took} ms`);
    assert.equal(await p.textContent("#solve-result"), "");
    // No progress arrives afterwards from the stopped search.
    await p.waitForTimeout(400);
    assert.equal(await p.textContent("#solve-status"), "cancelled");
    // The next count runs on a fresh worker.
    assert.equal(await countOnPage(p, read(join(ROOT, "testdata", "knuth-example.dlx"))), "1 solutions");
  } finally {
    await s.close();
  }
});

test("multiplicities counted and the cheapest solution found, as the CLI's", async () => {
  // Three queens dominating the 5x5 board: every square held 1 to 3 times.
  const n = 5;
  const k = 3;
  const squares = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) squares.push([r, c]);
  const name = ([r, c]) => `s${r}${c}`;
  const lines = [`${k}|q ` + squares.map((q) => `1:${k}|${name(q)}`).join(" ")];
  for (const [r, c] of squares) {
    const seen = squares.filter(([a, b]) => a === r || b === c || a - b === r - c || a + b === r + c);
    lines.push("q " + seen.map(name).join(" "));
  }
  const dominate = lines.join("\n") + "\n";
  const dominateFile = join(scratch, "dominate-5.dlx");
  writeFileSync(dominateFile, dominate);
  const counted = runCli(["count", dominateFile]);
  assert.equal(counted.status, 0, counted.stderr);
  const costs = join(ROOT, "testdata", "queens-10-costs.dlx");
  const cheapest = runCli(["solve", "--min-cost", costs]);
  assert.equal(cheapest.status, 0, cheapest.stderr);
  const [first, ...options] = cheapest.stdout.trim().split("\n");
  const cost = /^\| cost (\d+)$/.exec(first)?.[1];
  assert.ok(cost, first);
  const s = await openPage();
  try {
    const p = s.page;
    assert.equal(await countOnPage(p, dominate), `${counted.stdout.trim()} solutions`);
    // Listing them is left to the CLI, and says so.
    await p.click("#solve-list");
    await p.waitForSelector("#solve-error:not([hidden])");
    assert.match(await p.textContent("#solve-error .where"), /multiplicities/);
    await setText(p, "#solve-input", read(costs));
    await p.click("#solve-min-cost");
    await p.waitForFunction(() => document.querySelector("#solve-result").textContent !== "");
    assert.equal(await p.textContent("#solve-result"), `cheapest cost ${cost}`);
    const shown = await p.$$eval("#solve-solutions .opt", (os) => os.map((o) => o.textContent));
    assert.deepEqual(shown, options);
  } finally {
    await s.close();
  }
});

test("a malformed file: the error at the CLI's line and column", async () => {
  const text = "| a comment\na b c\na b\nb x\nc\n";
  const file = join(scratch, "bad.dlx");
  writeFileSync(file, text);
  const r = runCli(["count", file]);
  assert.equal(r.status, 2);
  const m = /bad\.dlx:(\d+):(\d+): (.*)$/m.exec(r.stderr);
  assert.ok(m, r.stderr);
  const [, line, column, message] = m;
  assert.equal(line, "4");
  const s = await openPage();
  try {
    const p = s.page;
    await p.click("#nav-solve");
    await setText(p, "#solve-input", text);
    await p.click("#solve-count");
    await p.waitForSelector("#solve-error:not([hidden])");
    assert.equal(await p.textContent("#solve-error .where"), `line ${line}, column ${column}: ${message}`);
    assert.match(await p.textContent("#solve-error .excerpt"), /^ {3}4 \| b x\n {9}\^$/);
    // The caret in the text box is put at the error.
    const caret = await p.$eval("#solve-input", (t) => t.selectionStart);
    assert.equal(caret, text.split("\n").slice(0, 3).join("\n").length + 1 + Number(column) - 1);
  } finally {
    await s.close();
  }
});

test("listing lazily and downloading: the CLI's solutions in order", async () => {
  const file = join(ROOT, "testdata", "queens-13.dlx");
  const cli = runCli(["solve", "--format", "json", "--limit", "40", file]).stdout.trim().split("\n").map((l) => JSON.parse(l));
  const s = await openPage();
  try {
    const p = s.page;
    await p.click("#nav-solve");
    await setText(p, "#solve-input", read(file));
    await p.click("#solve-list");
    await p.waitForFunction(() => /listed/.test(document.querySelector("#solve-result").textContent));
    assert.equal(await p.locator("#solve-solutions > li").count(), 20);
    await p.click("#solve-more");
    await p.waitForFunction(() => document.querySelectorAll("#solve-solutions > li").length === 40);
    const [download] = await Promise.all([p.waitForEvent("download"), p.click("#solve-download-json")]);
    const got = read(await download.path()).trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(got, cli);
    const [knuth] = await Promise.all([p.waitForEvent("download"), p.click("#solve-download-knuth")]);
    const cliKnuth = runCli(["solve", "--limit", "40", file]).stdout;
    assert.equal(read(await knuth.path()), cliKnuth);
  } finally {
    await s.close();
  }
});

/** Min-cost n queens (the `knuth` bench's instance): rows and columns
 * primary, diagonals secondary, a queen on (i, j) costs (37i + 91j + 13ij) mod 100. */
function costedQueens(n) {
  let s = `| ${n} queens, cost (37i + 91j + 13ij) mod 100\n`;
  for (let i = 0; i < n; i++) s += `r${i} `;
  for (let j = 0; j < n; j++) s += `c${j} `;
  s += "|";
  for (let d = 0; d < 2 * n - 1; d++) s += ` a${d} b${d}`;
  s += "\n";
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) s += `r${i} c${j} a${i + j} b${i + n - 1 - j} |${(37 * i + 91 * j + 13 * i * j) % 100}\n`;
  }
  return s;
}

test("the cheapest solution: progress with the best cost so far, and Stop keeps the best found", async () => {
  const n = 24;
  const s = await openPage();
  try {
    const p = s.page;
    await p.click("#nav-solve");
    await setText(p, "#solve-input", costedQueens(n));
    await recordProgress(p);
    await p.click("#solve-min-cost");
    assert.equal(await p.textContent("#solve-cancel"), "Stop");
    // Wait for two reports that carry a best cost.
    await p.waitForFunction(
      () => window.progressSeen.filter(([, t]) => /best cost so far \d+/.test(t)).length >= 2,
      null,
      { timeout: 120_000 },
    );
    assert.match(await p.textContent("#solve-result"), /^cheapest cost \d+ \(so far\)$/);
    await p.click("#solve-cancel");
    await p.waitForFunction(() => /^stopped/.test(document.querySelector("#solve-status").textContent));
    const result = await p.textContent("#solve-result");
    const m = /^cheapest cost (\d+) \(stopped; the best found, not proven optimal\)$/.exec(result);
    assert.ok(m, result);
    const seen = await p.evaluate(() => window.progressSeen);
    const reports = seen.map(([f, t]) => {
      const r = /: ([\d.]+)% of the tree by Knuth's estimate · best cost so far (\d+|none yet) · ([\d,]+) nodes/.exec(t);
      assert.ok(r, t);
      return { fraction: f, best: r[2] === "none yet" ? Infinity : Number(r[2]), nodes: Number(r[3].replaceAll(",", "")) };
    });
    assert.ok(reports.every((r) => r.fraction >= 0 && r.fraction <= 1));
    for (let i = 1; i < reports.length; i++) {
      assert.ok(reports[i].nodes >= reports[i - 1].nodes, "the node count grows");
      assert.ok(reports[i].best <= reports[i - 1].best, "the best cost never rises");
    }
    // The best kept is the last one reported, or a cheaper one found after it.
    const kept = Number(m[1]);
    assert.ok(kept <= reports[reports.length - 1].best);
    // The solution kept is a solution, and costs what it says.
    const options = await p.$$eval("#solve-solutions .opt", (os) => os.map((o) => o.textContent));
    assert.equal(options.length, n);
    const used = new Set();
    let total = 0;
    for (const o of options) {
      const [items, cost] = o.split("|");
      for (const item of items.trim().split(" ")) {
        assert.ok(!used.has(item), `${item} covered twice`);
        used.add(item);
      }
      total += Number(cost);
    }
    for (let i = 0; i < n; i++) assert.ok(used.has(`r${i}`) && used.has(`c${i}`));
    assert.equal(total, kept);
    assert.equal(await p.textContent("#solve-cancel"), "Cancel");
    // No more reports come from the stopped search.
    const status = await p.textContent("#solve-status");
    await p.waitForTimeout(400);
    assert.equal(await p.textContent("#solve-status"), status);
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

test("the k cheapest costs and their downloads, as the CLI's solve --best K", async () => {
  const file = join(ROOT, "testdata", "queens-10-costs.dlx");
  const k = 3;
  const knuth = runCli(["solve", "--best", String(k), file]);
  assert.equal(knuth.status, 0, knuth.stderr);
  const json = runCli(["solve", "--best", String(k), "--format", "json", file]);
  assert.equal(json.status, 0, json.stderr);
  const expected = json.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(expected.length, k);
  const s = await openPage();
  try {
    const p = s.page;
    await p.click("#nav-solve");
    await setText(p, "#solve-input", read(file));
    await p.fill("#solve-best", String(k));
    await p.click("#solve-min-cost");
    await p.waitForFunction(() => /^the \d+ cheapest costs: [\d, ]+$/.test(document.querySelector("#solve-result").textContent));
    assert.equal(await p.textContent("#solve-result"), `the ${k} cheapest costs: ${expected.map((e) => e.cost).join(", ")}`);
    const shown = await p.$$eval("#solve-solutions > li", (lis) =>
      lis.map((li) => [li.querySelector(".cost").textContent, [...li.querySelectorAll(".opt")].map((o) => o.textContent)]),
    );
    assert.deepEqual(
      shown,
      expected.map((e) => [`cost ${e.cost}`, e.options]),
    );
    const [knuthFile] = await Promise.all([p.waitForEvent("download"), p.click("#solve-download-knuth")]);
    assert.equal(read(await knuthFile.path()), knuth.stdout);
    const [jsonFile] = await Promise.all([p.waitForEvent("download"), p.click("#solve-download-json")]);
    assert.equal(read(await jsonFile.path()), json.stdout);
    // One cost (the default) is `--min-cost`, downloaded the same way.
    await p.fill("#solve-best", "1");
    await p.click("#solve-min-cost");
    await p.waitForFunction(() => /^cheapest cost \d+$/.test(document.querySelector("#solve-result").textContent));
    const [one] = await Promise.all([p.waitForEvent("download"), p.click("#solve-download-knuth")]);
    assert.equal(read(await one.path()), runCli(["solve", "--min-cost", file]).stdout);
    assert.deepEqual(s.errors, []);
  } finally {
    await s.close();
  }
});

// Shared by the browser tests: the built site served on localhost, Debian's
// Chromium driven by playwright-core, and the native CLI built from the
// repository for answers to compare with.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "../scripts/server.mjs";

export const WEB = join(dirname(fileURLToPath(import.meta.url)), "..");
export const ROOT = join(WEB, "..");
export const DATA = join(WEB, "tests", "data");

/** The Chromium binary: $CHROMIUM, else `command -v chromium`. */
function chromiumPath() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  const r = spawnSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" });
  const path = r.stdout.trim();
  if (r.status !== 0 || !path) {
    throw new Error("chromium not found: install it with `apt-get install -y chromium`");
  }
  return path;
}

let cliPath = null;

/** Builds the native CLI once (`cargo build -p exactly-cli`) and returns its path. */
export function cli() {
  if (!cliPath) {
    execFileSync("cargo", ["build", "-q", "-p", "exactly-cli"], { cwd: ROOT, stdio: "inherit" });
    const target = process.env.CARGO_TARGET_DIR ?? join(ROOT, "target");
    cliPath = join(target, "debug", "exactly");
  }
  return cliPath;
}

/** Runs the CLI: its stdout, stderr and exit status. */
export function runCli(args, input) {
  const r = spawnSync(cli(), args, { encoding: "utf8", input, maxBuffer: 1 << 28 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/**
 * A page of the built site in a fresh headless Chromium; `close()` ends
 * both. The site must have been built (`npm run build`).
 */
export async function openPage({ width = 1280, height = 800 } = {}) {
  const dist = join(WEB, "dist");
  if (!existsSync(join(dist, "index.html"))) throw new Error("dist/ is not built: run `npm run build` first");
  const server = await serve(dist, 0);
  const profile = mkdtempSync(join(tmpdir(), "exactly-web-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    viewport: { width, height },
    acceptDownloads: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const url = `http://127.0.0.1:${server.address().port}/`;
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]");
  return {
    page,
    url,
    errors,
    async close() {
      await context.close();
      await new Promise((r) => server.close(r));
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Sets a text box's value at once (typing a large file through `fill` is slow). */
export async function setText(page, selector, text) {
  await page.$eval(
    selector,
    (e, v) => {
      e.value = v;
      e.dispatchEvent(new Event("input", { bubbles: true }));
    },
    text,
  );
}

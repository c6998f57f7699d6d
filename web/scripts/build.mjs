// Builds the site into dist/: the engine for wasm32-unknown-unknown (the
// target is added with rustup when missing), the TypeScript checked
// strictly and bundled with esbuild, and the static files.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(web, "dist");
const run = (cmd, args) => execFileSync(cmd, args, { cwd: web, stdio: "inherit" });

const installed = (() => {
  try {
    return execFileSync("rustup", ["target", "list", "--installed"], { encoding: "utf8" });
  } catch {
    return null;
  }
})();
if (installed !== null && !installed.split("\n").includes("wasm32-unknown-unknown")) {
  run("rustup", ["target", "add", "wasm32-unknown-unknown"]);
}
run("cargo", ["build", "--release", "--locked", "--target", "wasm32-unknown-unknown"]);
run(process.execPath, [join(web, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", "."]);

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const common = { bundle: true, minify: true, target: "es2022", loader: { ".dlx": "text" }, logLevel: "warning" };
await esbuild.build({ ...common, entryPoints: [join(web, "ts/main.ts")], outfile: join(dist, "main.js"), format: "esm" });
await esbuild.build({ ...common, entryPoints: [join(web, "ts/worker.ts")], outfile: join(dist, "worker.js"), format: "iife" });
copyFileSync(join(web, "target/wasm32-unknown-unknown/release/exactly_web.wasm"), join(dist, "exactly.wasm"));
for (const f of readdirSync(join(web, "static"))) copyFileSync(join(web, "static", f), join(dist, f));

let total = 0;
for (const f of readdirSync(dist)) total += statSync(join(dist, f)).size;
console.log(`built ${dist} (${(total / 1024).toFixed(0)} KiB)`);

// `npm run serve`: serves dist/ on localhost and prints the address
// (port from $PORT, else 8080).
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./server.mjs";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
if (!existsSync(join(dist, "index.html"))) {
  console.error("dist/ is not built: run `npm run build` first");
  process.exit(2);
}
const port = Number(process.env.PORT ?? 8080);
try {
  const server = await serve(dist, port);
  console.log(`serving ${dist} at http://127.0.0.1:${server.address().port}/`);
} catch (e) {
  console.error(`cannot serve on port ${port}: ${e.message}`);
  process.exit(2);
}

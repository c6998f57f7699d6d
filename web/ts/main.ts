// The page: three views over one engine compiled to WebAssembly.
import { DanceView } from "./dance";
import { byId } from "./dom";
import { SolveView } from "./solve";
import { SudokuView } from "./sudoku";

type Tab = "dance" | "sudoku" | "solve";

const solve = new SolveView();
new SudokuView();
const dance = new DanceView((text) => {
  solve.setText(text);
  show("solve");
});

function show(tab: Tab): void {
  for (const t of ["dance", "sudoku", "solve"] as Tab[]) {
    byId(`tab-${t}`).hidden = t !== tab;
    byId(`nav-${t}`).setAttribute("aria-selected", String(t === tab));
  }
  if (location.hash !== `#${tab}`) history.replaceState(null, "", `#${tab}`);
}

for (const t of ["dance", "sudoku", "solve"] as Tab[]) {
  byId(`nav-${t}`).addEventListener("click", () => show(t));
}

document.addEventListener("keydown", (ev) => {
  if (byId("tab-dance").hidden) return;
  const target = ev.target as HTMLElement;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (target.closest("textarea, input, select")) return;
  if (ev.key === " " && target.closest("button")) return;
  if (dance.key(ev)) ev.preventDefault();
});

const initial = location.hash.slice(1);
show(initial === "sudoku" || initial === "solve" ? initial : "dance");
void dance.load();
document.body.dataset.ready = "true";

// Built-in problems for the dance view, in Knuth's format.
import knuth7 from "../examples/knuth-7.dlx";
import queens4 from "../examples/queens-4.dlx";
import queens5 from "../examples/queens-5.dlx";
import sudoku4 from "../examples/sudoku-4x4.dlx";
import pentomino from "../examples/pentomino-3x5.dlx";
import colors from "../examples/colors.dlx";

export interface Example {
  id: string;
  name: string;
  text: string;
}

export const EXAMPLES: Example[] = [
  { id: "knuth-7", name: "Knuth's 7-item example", text: knuth7 },
  { id: "queens-4", name: "4 queens", text: queens4 },
  { id: "queens-5", name: "5 queens", text: queens5 },
  { id: "sudoku-4x4", name: "A 4x4 sudoku", text: sudoku4 },
  { id: "pentomino-3x5", name: "Pentominoes P, U, V in 3x5", text: pentomino },
  { id: "colors", name: "Secondary items with colors", text: colors },
];

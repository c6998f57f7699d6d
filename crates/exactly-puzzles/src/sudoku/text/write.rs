//! Writing grids in the formats of other sudoku programs: Simple Sudoku's
//! `.ss`, SadMan's `.sdk`, and bordered prints.

use super::{Grid, Style, Symbols};

impl Style {
    /// The symbols for a format with cells side by side: decimal numbers
    /// become digits and letters (`A` for 10, …).
    fn side_by_side(&self) -> Style {
        match self.symbols {
            Symbols::Numbers => Style {
                symbols: Symbols::Digits { lower: false },
                ..*self
            },
            _ => *self,
        }
    }

    /// One cell as this style writes it, `.` when empty.
    fn cell(&self, v: u8, n: usize) -> String {
        match v {
            0 => ".".to_string(),
            v => self.symbol(v, n),
        }
    }

    /// Writes a grid as Simple Sudoku's `.ss`: cells side by side, `|`
    /// between boxes, a line of dashes between bands of boxes (none when
    /// the boxes are whole rows). Decimal numbers become digits and
    /// letters ([`Symbols::Digits`]).
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Layout, Shape, Style, Symbols};
    /// let grid = Grid::from_cells(Shape::new(2, 2)?, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0])?;
    /// let style = Style { layout: Layout::Line, symbols: Symbols::Numbers };
    /// assert_eq!(style.format_ss(&grid), "12|34\n34|12\n-----\n21|43\n43|2.\n");
    /// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
    /// ```
    pub fn format_ss(&self, grid: &Grid) -> String {
        let style = self.side_by_side();
        let shape = grid.shape();
        let (n, r, c) = (grid.size(), shape.box_rows(), shape.box_cols());
        let rule = "-".repeat(n + n / c - 1);
        let mut out = String::new();
        for i in 0..n {
            if i > 0 && i % r == 0 && c < n {
                out.push_str(&rule);
                out.push('\n');
            }
            for j in 0..n {
                if j > 0 && j % c == 0 {
                    out.push('|');
                }
                out.push_str(&style.cell(grid.get(i, j), n));
            }
            out.push('\n');
        }
        out
    }

    /// Writes a grid as SadMan Software's `.sdk`: a `[Puzzle]` line, then
    /// the rows, cells side by side, `.` empty. Decimal numbers become
    /// digits and letters ([`Symbols::Digits`]).
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Layout, Shape, Style, Symbols};
    /// let grid = Grid::from_cells(Shape::new(2, 2)?, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0])?;
    /// let style = Style { layout: Layout::Line, symbols: Symbols::Digits { lower: false } };
    /// assert_eq!(style.format_sdk(&grid), "[Puzzle]\n1234\n3412\n2143\n432.\n");
    /// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
    /// ```
    pub fn format_sdk(&self, grid: &Grid) -> String {
        let n = grid.size();
        let style = self.side_by_side();
        let mut out = String::from("[Puzzle]\n");
        for i in 0..n {
            for j in 0..n {
                out.push_str(&style.cell(grid.get(i, j), n));
            }
            out.push('\n');
        }
        out
    }

    /// Writes a grid with borders: `+---+` lines around bands of boxes,
    /// `|` around boxes, cells separated by spaces and right-aligned to
    /// the widest symbol, `.` empty.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Layout, Shape, Style, Symbols};
    /// let grid = Grid::from_cells(Shape::new(2, 2)?, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 0])?;
    /// let style = Style { layout: Layout::Line, symbols: Symbols::Digits { lower: false } };
    /// let text = style.format_bordered(&grid);
    /// assert_eq!(text.lines().next(), Some("+-----+-----+"));
    /// assert_eq!(text.lines().nth(1), Some("| 1 2 | 3 4 |"));
    /// assert_eq!(text.lines().nth(5), Some("| 4 3 | 2 . |"));
    /// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
    /// ```
    pub fn format_bordered(&self, grid: &Grid) -> String {
        let shape = grid.shape();
        let (n, r, c) = (grid.size(), shape.box_rows(), shape.box_cols());
        let cells: Vec<String> = grid.cells().iter().map(|&v| self.cell(v, n)).collect();
        let width = cells.iter().map(|s| s.chars().count()).max().unwrap_or(1);
        let segment = "-".repeat(c * (width + 1) + 1);
        let mut border = String::from("+");
        for _ in 0..n / c {
            border.push_str(&segment);
            border.push('+');
        }
        border.push('\n');
        let mut out = String::new();
        for i in 0..n {
            if i % r == 0 {
                out.push_str(&border);
            }
            for j in 0..n {
                if j % c == 0 {
                    out.push_str(if j == 0 { "|" } else { " |" });
                }
                out.push_str(&format!(" {:>width$}", cells[i * n + j]));
            }
            out.push_str(" |\n");
        }
        out.push_str(&border);
        out
    }
}

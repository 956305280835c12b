//! Word Sudoku (report 001 part 1): lay bank words horizontally or vertically on a 9x9 grid
//! so that no letter repeats in a row, a column or a 3x3 box, every cell gets a letter and
//! every bank word reads in the grid. Variables are the words, values their placements.

#[cfg(test)]
mod tests;

use super::{Budget, Limits, PuzzleError, SolveStats};
use std::fmt;
use std::str::FromStr;

const N: usize = 9;

/// A placement: horizontal (left to right) or vertical (top to bottom) from (row, col).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Vertical (`V`) or horizontal (`H`).
    pub vertical: bool,
    /// Row of the first letter, 0-based.
    pub row: usize,
    /// Column of the first letter, 0-based.
    pub col: usize,
}

impl Placement {
    fn cell(&self, i: usize) -> usize {
        if self.vertical {
            (self.row + i) * N + self.col
        } else {
            self.row * N + self.col + i
        }
    }
}

/// A Word Sudoku puzzle: the hints and the bank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Given letters (`0`: unknown), row-major.
    pub hints: [u8; 81],
    /// Bank words, uppercase, in file order.
    pub words: Vec<Vec<u8>>,
}

impl Puzzle {
    /// Reads a grid (9 lines of 9: `_` unknown, a letter a hint) and a bank (one word a line).
    ///
    /// # Errors
    /// The file and line: a malformed grid, a word that is empty, not letters, or longer
    /// than 9, an empty bank.
    pub fn parse(
        grid_file: &str,
        grid: &str,
        bank_file: &str,
        bank: &str,
    ) -> Result<Puzzle, PuzzleError> {
        let fail = |file: &str, line: Option<usize>, message: String| PuzzleError {
            file: file.to_string(),
            line,
            message,
        };
        let rows: Vec<&str> = grid
            .lines()
            .map(|l| l.trim_end_matches('\r'))
            .filter(|l| !l.is_empty())
            .collect();
        if rows.is_empty() {
            return Err(fail(grid_file, None, "empty file: no grid".to_string()));
        }
        if rows.len() != N {
            return Err(fail(
                grid_file,
                None,
                format!("{} rows: the grid has 9", rows.len()),
            ));
        }
        let mut hints = [0u8; 81];
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != N {
                return Err(fail(
                    grid_file,
                    Some(r + 1),
                    format!("{} cells: a row has 9", row.chars().count()),
                ));
            }
            for (c, ch) in row.chars().enumerate() {
                hints[r * N + c] = match ch {
                    '_' | '.' => 0,
                    ch if ch.is_ascii_alphabetic() => ch.to_ascii_uppercase() as u8,
                    other => {
                        return Err(fail(
                            grid_file,
                            Some(r + 1),
                            format!("unexpected character '{other}'"),
                        ));
                    }
                };
            }
        }
        let mut words = Vec::new();
        for (i, line) in bank.lines().enumerate() {
            let word = line.trim();
            if word.is_empty() {
                continue;
            }
            if !word.chars().all(|c| c.is_ascii_alphabetic()) {
                return Err(fail(
                    bank_file,
                    Some(i + 1),
                    format!("'{word}' is not a word of letters"),
                ));
            }
            if word.len() > N {
                return Err(fail(
                    bank_file,
                    Some(i + 1),
                    format!("'{word}' has {} letters: at most 9 fit", word.len()),
                ));
            }
            words.push(word.to_ascii_uppercase().into_bytes());
        }
        if words.is_empty() {
            return Err(fail(bank_file, None, "empty bank: no words".to_string()));
        }
        Ok(Puzzle { hints, words })
    }

    /// Reads a grid file and a bank file.
    ///
    /// # Errors
    /// An unreadable or malformed file.
    pub fn read(grid: &std::path::Path, bank: &std::path::Path) -> Result<Puzzle, PuzzleError> {
        let read = |p: &std::path::Path| {
            std::fs::read_to_string(p).map_err(|e| PuzzleError {
                file: p.display().to_string(),
                line: None,
                message: format!("cannot read: {e}"),
            })
        };
        Puzzle::parse(
            &grid.display().to_string(),
            &read(grid)?,
            &bank.display().to_string(),
            &read(bank)?,
        )
    }

    /// Checks a complete grid: hints kept, every cell a letter, no letter twice in a row,
    /// column or box, and (unless `decoys`) every bank word reading in the grid.
    ///
    /// # Errors
    /// The first rule broken.
    pub fn check(&self, grid: &[u8; 81], decoys: bool) -> Result<(), String> {
        for cell in 0..81 {
            if grid[cell] == 0 {
                return Err(format!("cell ({}, {}) is empty", cell / N, cell % N));
            }
            if self.hints[cell] != 0 && grid[cell] != self.hints[cell] {
                return Err(format!("hint at ({}, {}) changed", cell / N, cell % N));
            }
            if let Some(other) = clash(grid, cell) {
                return Err(format!(
                    "'{}' twice: ({}, {}) and ({}, {})",
                    grid[cell] as char,
                    cell / N,
                    cell % N,
                    other / N,
                    other % N
                ));
            }
        }
        if !decoys {
            for word in &self.words {
                if !reads(grid, word) {
                    return Err(format!(
                        "{} does not read in the grid",
                        String::from_utf8_lossy(word)
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Another cell of the same row, column or box holding the same letter as `cell`.
fn clash(grid: &[u8; 81], cell: usize) -> Option<usize> {
    let letter = grid[cell];
    if letter == 0 {
        return None;
    }
    let (r, c) = (cell / N, cell % N);
    let (br, bc) = (r / 3 * 3, c / 3 * 3);
    (0..N)
        .map(|i| r * N + i)
        .chain((0..N).map(|i| i * N + c))
        .chain((0..9).map(|i| (br + i / 3) * N + bc + i % 3))
        .find(|&other| other != cell && grid[other] == letter)
}

fn fits(word: &[u8], p: &Placement) -> bool {
    let end = if p.vertical { p.row } else { p.col } + word.len();
    end <= N
}

/// Whether `word` reads somewhere in the grid (left to right or top to bottom).
fn reads(grid: &[u8; 81], word: &[u8]) -> bool {
    placements()
        .any(|p| fits(word, &p) && word.iter().enumerate().all(|(i, &l)| grid[p.cell(i)] == l))
}

fn placements() -> impl Iterator<Item = Placement> {
    [false, true].into_iter().flat_map(|vertical| {
        (0..N).flat_map(move |row| (0..N).map(move |col| Placement { vertical, row, col }))
    })
}

/// The solvers of report 001.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// Minimum remaining values, ties to the longest word; least constraining value first.
    Heuristic,
    /// Bank order, placements in reading order.
    Plain,
}

impl Solver {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Solver::Heuristic => "mrv-lcv",
            Solver::Plain => "plain",
        }
    }

    /// One line on what the solver does (for `arbiter list`).
    pub fn describe(self) -> &'static str {
        match self {
            Solver::Heuristic => {
                "report 001's: fewest placements first, ties to the longest word, least constraining placement first"
            }
            Solver::Plain => "no heuristics: bank order, placements in reading order",
        }
    }
}

impl fmt::Display for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Solver {
    type Err = String;
    fn from_str(text: &str) -> Result<Solver, String> {
        [Solver::Heuristic, Solver::Plain]
            .into_iter()
            .find(|s| s.name() == text)
            .ok_or_else(|| format!("unknown word-sudoku solver '{text}' (known: mrv-lcv, plain)"))
    }
}

/// A solution: the grid and the placements in the order the search made them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The grid.
    pub grid: [u8; 81],
    /// (word index, placement), in search order.
    pub placed: Vec<(usize, Placement)>,
}

impl Solution {
    /// The solution in one line, as solves.csv keeps it: the grid's rows joined by `/`,
    /// then `|` and the placed words as `O,R,C:WORD` joined by `;` (orientation H or V,
    /// row and column from 0).
    pub fn compact(&self, puzzle: &Puzzle) -> String {
        let rows: Vec<String> = (0..N)
            .map(|r| {
                self.grid[r * N..r * N + N]
                    .iter()
                    .map(|&b| b as char)
                    .collect()
            })
            .collect();
        let words: Vec<String> = self
            .placed
            .iter()
            .map(|&(w, p)| {
                format!(
                    "{},{},{}:{}",
                    if p.vertical { 'V' } else { 'H' },
                    p.row,
                    p.col,
                    String::from_utf8_lossy(&puzzle.words[w])
                )
            })
            .collect();
        format!("{}|{}", rows.join("/"), words.join(";"))
    }

    /// The assignment's output: the grid, then `O,R,C: WORD` per placement and
    /// `(N/A): WORD` for words not placed.
    pub fn render(&self, puzzle: &Puzzle) -> String {
        let mut text = String::new();
        for r in 0..N {
            text.extend(self.grid[r * N..r * N + N].iter().map(|&b| b as char));
            text.push('\n');
        }
        for &(w, p) in &self.placed {
            text.push_str(&format!(
                "{},{},{}: {}\n",
                if p.vertical { 'V' } else { 'H' },
                p.row,
                p.col,
                String::from_utf8_lossy(&puzzle.words[w])
            ));
        }
        for (w, word) in puzzle.words.iter().enumerate() {
            if !self.placed.iter().any(|&(i, _)| i == w) {
                text.push_str(&format!("(N/A): {}\n", String::from_utf8_lossy(word)));
            }
        }
        text
    }
}

struct Search<'a> {
    puzzle: &'a Puzzle,
    grid: [u8; 81],
    placed: Vec<(usize, Placement)>,
    solver: Solver,
    stats: SolveStats,
    budget: Budget,
}

impl Search<'_> {
    /// The cells `word` would newly fill at `p`, or `None` if it does not fit.
    fn try_place(&self, word: &[u8], p: &Placement) -> Option<Vec<usize>> {
        if !fits(word, p) {
            return None;
        }
        let mut grid = self.grid;
        let mut new = Vec::new();
        for (i, &letter) in word.iter().enumerate() {
            let cell = p.cell(i);
            match grid[cell] {
                0 => {
                    grid[cell] = letter;
                    new.push(cell);
                }
                existing if existing == letter => {}
                _ => return None,
            }
        }
        if new.iter().any(|&cell| clash(&grid, cell).is_some()) {
            return None;
        }
        Some(new)
    }

    fn options(&self, word: usize) -> Vec<(usize, Placement)> {
        placements()
            .filter_map(|p| {
                self.try_place(&self.puzzle.words[word], &p)
                    .map(|new| (new.len(), p))
            })
            .collect()
    }

    fn solve(&mut self) -> bool {
        self.stats.nodes += 1;
        if self.budget.spent(self.stats.nodes) {
            return false;
        }
        let remaining: Vec<usize> = (0..self.puzzle.words.len())
            .filter(|&w| {
                !self.placed.iter().any(|&(i, _)| i == w)
                    && !reads(&self.grid, &self.puzzle.words[w])
            })
            .collect();
        if remaining.is_empty() {
            return self.grid.iter().all(|&c| c != 0);
        }
        let (word, mut options) = match self.solver {
            Solver::Plain => (remaining[0], self.options(remaining[0])),
            Solver::Heuristic => {
                let mut best: Option<(usize, Vec<(usize, Placement)>)> = None;
                for &w in &remaining {
                    let options = self.options(w);
                    let better = best.as_ref().is_none_or(|(b, o)| {
                        options.len() < o.len()
                            || (options.len() == o.len()
                                && self.puzzle.words[w].len() > self.puzzle.words[*b].len())
                    });
                    if better {
                        best = Some((w, options));
                    }
                }
                best.expect("remaining words")
            }
        };
        if self.solver == Solver::Heuristic {
            // Least constraining: the placement filling the fewest empty cells first.
            options.sort_by_key(|&(new, _)| new);
        }
        for (_, p) in options {
            self.stats.assignments += 1;
            self.stats.placed += 1;
            let new = self
                .try_place(&self.puzzle.words[word], &p)
                .expect("consistent");
            for &cell in &new {
                let offset = if p.vertical {
                    cell / N - p.row
                } else {
                    cell % N - p.col
                };
                self.grid[cell] = self.puzzle.words[word][offset];
            }
            self.placed.push((word, p));
            if self.solve() {
                return true;
            }
            self.placed.pop();
            for &cell in &new {
                self.grid[cell] = 0;
            }
            if self.budget.exhausted {
                return false;
            }
        }
        self.stats.backtracks += 1;
        false
    }
}

impl Search<'_> {
    /// Branch and bound for decoy inputs: any subset of the words, as few as possible, the
    /// grid full. Every empty cell must be covered by some placement, so the search takes
    /// the empty cell with the fewest covering placements and branches over them (most new
    /// cells first); a branch stops when even 9 new cells per further word cannot beat the
    /// best grid found.
    fn minimise(&mut self, best: &mut Option<Solution>) {
        self.stats.nodes += 1;
        if self.budget.spent(self.stats.nodes) {
            return;
        }
        let empty = self.grid.iter().filter(|&&c| c == 0).count();
        if empty == 0 {
            if best
                .as_ref()
                .is_none_or(|b| self.placed.len() < b.placed.len())
                && self.puzzle.check(&self.grid, true).is_ok()
            {
                *best = Some(Solution {
                    grid: self.grid,
                    placed: self.placed.clone(),
                });
            }
            return;
        }
        if best
            .as_ref()
            .is_some_and(|b| self.placed.len() + empty.div_ceil(N) >= b.placed.len())
        {
            return;
        }
        // All consistent placements of unplaced words that fill something.
        let mut all: Vec<(usize, Placement, Vec<usize>)> = Vec::new();
        for w in 0..self.puzzle.words.len() {
            if self.placed.iter().any(|&(i, _)| i == w) {
                continue;
            }
            for p in placements() {
                if let Some(new) = self.try_place(&self.puzzle.words[w], &p)
                    && !new.is_empty()
                {
                    all.push((w, p, new));
                }
            }
        }
        let mut cover = [0u32; 81];
        for (_, _, new) in &all {
            for &cell in new {
                cover[cell] += 1;
            }
        }
        let Some(cell) = (0..81)
            .filter(|&c| self.grid[c] == 0)
            .min_by_key(|&c| cover[c])
        else {
            return;
        };
        if cover[cell] == 0 {
            self.stats.backtracks += 1;
            return;
        }
        let mut options: Vec<(usize, Placement, Vec<usize>)> = all
            .into_iter()
            .filter(|(_, _, new)| new.contains(&cell))
            .collect();
        options.sort_by_key(|(_, _, new)| usize::MAX - new.len());
        for (word, p, new) in options {
            self.stats.assignments += 1;
            self.stats.placed += 1;
            for &c in &new {
                let offset = if p.vertical {
                    c / N - p.row
                } else {
                    c % N - p.col
                };
                self.grid[c] = self.puzzle.words[word][offset];
            }
            self.placed.push((word, p));
            self.minimise(best);
            self.placed.pop();
            for &c in &new {
                self.grid[c] = 0;
            }
            if self.budget.exhausted {
                return;
            }
        }
    }
}

/// Decoy inputs: the valid full grid with the fewest placed words found within `limits`;
/// the status is `solved` with the search space exhausted (the minimum is proven), `limit`
/// otherwise (the best so far is returned, if any).
pub fn solve_fewest_words(
    puzzle: &Puzzle,
    limits: Limits,
) -> (super::flow::Status, Option<Solution>, SolveStats) {
    use super::flow::Status;
    let mut search = Search {
        puzzle,
        grid: puzzle.hints,
        placed: Vec::new(),
        solver: Solver::Heuristic,
        stats: SolveStats::default(),
        budget: Budget::new(limits),
    };
    let mut best = None;
    search.minimise(&mut best);
    let status = if search.budget.exhausted {
        Status::Limit
    } else if best.is_some() {
        Status::Solved(Vec::new())
    } else {
        Status::Unsolvable
    };
    (status, best, search.stats)
}

/// Solves inputs where every bank word must read in the grid.
pub fn solve(
    puzzle: &Puzzle,
    solver: Solver,
    limits: Limits,
) -> (super::flow::Status, Option<Solution>, SolveStats) {
    use super::flow::Status;
    let mut search = Search {
        puzzle,
        grid: puzzle.hints,
        placed: Vec::new(),
        solver,
        stats: SolveStats::default(),
        budget: Budget::new(limits),
    };
    if search.solve() {
        let solution = Solution {
            grid: search.grid,
            placed: search.placed.clone(),
        };
        if puzzle.check(&solution.grid, false).is_ok() {
            return (Status::Solved(Vec::new()), Some(solution), search.stats);
        }
    }
    let status = if search.budget.exhausted {
        Status::Limit
    } else {
        Status::Unsolvable
    };
    (status, None, search.stats)
}

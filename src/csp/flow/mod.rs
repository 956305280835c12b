//! Flow Free (Numberlink) as a CSP, report 000 part 1: variables are the empty cells, values
//! the colours; a cell with colour c needs exactly `need` neighbours of colour c (1 for a
//! source, 2 otherwise), so with `same` such neighbours and `free` unassigned ones a partial
//! assignment is consistent when `0 <= need - same <= free` holds for the cell assigned and
//! its neighbours. A complete assignment is accepted only if the checker passes (no loops).

mod paths;
mod sat;
#[cfg(test)]
mod tests;

use super::{Budget, Limits, PuzzleError, SolveStats};
use crate::core::seeds;
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// A Flow Free puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The source colour of each cell (index into `colours`), `None` for empty cells.
    pub sources: Vec<Option<u8>>,
    /// The colour letters, in order of first appearance.
    pub colours: Vec<char>,
}

/// The longest side of a grid the solvers take: they recurse once per cell, and
/// [`crate::csp::SOLVER_STACK_BYTES`] holds 100 x 100 cells with room to spare.
pub const MAX_SIDE: usize = 100;

impl Puzzle {
    /// Reads a puzzle: one line per row; `_` or `.` empty, a letter a source (each letter
    /// exactly twice); CRLF or LF; blank lines after the last row ignored.
    ///
    /// # Errors
    /// A message with the line: an empty file, ragged rows, an unknown character, a colour
    /// with other than two sources, more than 32 colours.
    pub fn parse(file: &str, text: &str) -> Result<Puzzle, PuzzleError> {
        let fail = |line: Option<usize>, message: String| PuzzleError {
            file: file.to_string(),
            line,
            message,
        };
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
        let last = lines
            .iter()
            .rposition(|l| !l.is_empty())
            .ok_or_else(|| fail(None, "empty file: no grid".to_string()))?;
        let lines = &lines[..=last];
        let cols = lines[0].chars().count();
        if lines.len() > MAX_SIDE || cols > MAX_SIDE {
            return Err(fail(
                None,
                format!(
                    "a {} x {cols} grid: at most {MAX_SIDE} x {MAX_SIDE} is supported",
                    lines.len()
                ),
            ));
        }
        let mut sources = Vec::with_capacity(lines.len() * cols);
        let mut colours: Vec<char> = Vec::new();
        let mut counts: Vec<usize> = Vec::new();
        for (index, line) in lines.iter().enumerate() {
            let width = line.chars().count();
            if width != cols {
                return Err(fail(
                    Some(index + 1),
                    format!(
                        "{width} cells, but the first row has {cols} (rows must be equally long)"
                    ),
                ));
            }
            for c in line.chars() {
                match c {
                    '_' | '.' => sources.push(None),
                    c if c.is_ascii_alphabetic() => {
                        let colour = match colours.iter().position(|&k| k == c) {
                            Some(i) => i,
                            None => {
                                colours.push(c);
                                counts.push(0);
                                colours.len() - 1
                            }
                        };
                        counts[colour] += 1;
                        sources.push(Some(colour as u8));
                    }
                    other => {
                        return Err(fail(
                            Some(index + 1),
                            format!(
                                "unexpected character '{other}' (expected '_', '.' or a letter)"
                            ),
                        ));
                    }
                }
            }
        }
        if colours.len() > 32 {
            return Err(fail(
                None,
                format!("{} colours: at most 32 are supported", colours.len()),
            ));
        }
        if let Some((i, &n)) = counts.iter().enumerate().find(|(_, n)| **n != 2) {
            return Err(fail(
                None,
                format!(
                    "colour '{}' has {n} endpoint{}: each needs exactly 2",
                    colours[i],
                    if n == 1 { "" } else { "s" }
                ),
            ));
        }
        Ok(Puzzle {
            rows: lines.len(),
            cols,
            sources,
            colours,
        })
    }

    /// Reads a puzzle file.
    ///
    /// # Errors
    /// An unreadable file or a malformed puzzle.
    pub fn read(path: &Path) -> Result<Puzzle, PuzzleError> {
        let text = std::fs::read_to_string(path).map_err(|e| PuzzleError {
            file: path.display().to_string(),
            line: None,
            message: format!("cannot read: {e}"),
        })?;
        Puzzle::parse(&path.display().to_string(), &text)
    }

    fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let (r, c) = (cell / self.cols, cell % self.cols);
        [
            (r > 0).then(|| cell - self.cols),
            (r + 1 < self.rows).then(|| cell + self.cols),
            (c > 0).then(|| cell - 1),
            (c + 1 < self.cols).then(|| cell + 1),
        ]
        .into_iter()
        .flatten()
    }

    /// A solution grid as text, one letter per cell.
    pub fn render(&self, grid: &[u8]) -> String {
        let mut text = String::with_capacity(self.rows * (self.cols + 1));
        for r in 0..self.rows {
            for c in 0..self.cols {
                text.push(self.colours[usize::from(grid[r * self.cols + c])]);
            }
            text.push('\n');
        }
        text
    }

    /// A solution grid in one line, as solves.csv keeps it: rows of colour letters joined
    /// by `/`, each source cell followed by `*`.
    pub fn compact(&self, grid: &[u8]) -> String {
        let mut text = String::with_capacity(self.rows * (self.cols * 2 + 1));
        for r in 0..self.rows {
            if r > 0 {
                text.push('/');
            }
            for c in 0..self.cols {
                let cell = r * self.cols + c;
                text.push(self.colours[usize::from(grid[cell])]);
                if self.sources[cell].is_some() {
                    text.push('*');
                }
            }
        }
        text
    }

    /// Reads a solution grid (letters, one row per line) for this puzzle.
    ///
    /// # Errors
    /// A message when the grid does not fit the puzzle.
    pub fn parse_solution(&self, text: &str) -> Result<Vec<u8>, String> {
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.trim_end_matches('\r'))
            .filter(|l| !l.is_empty())
            .collect();
        if lines.len() != self.rows {
            return Err(format!(
                "{} rows, the puzzle has {}",
                lines.len(),
                self.rows
            ));
        }
        let mut grid = Vec::with_capacity(self.rows * self.cols);
        for line in lines {
            if line.chars().count() != self.cols {
                return Err(format!(
                    "a row of {} cells, the puzzle has {} columns",
                    line.chars().count(),
                    self.cols
                ));
            }
            for c in line.chars() {
                let colour = self
                    .colours
                    .iter()
                    .position(|&k| k == c)
                    .ok_or_else(|| format!("'{c}' is not a colour of the puzzle"))?;
                grid.push(colour as u8);
            }
        }
        Ok(grid)
    }

    /// Checks a complete grid against the rules: sources kept, each source with exactly one
    /// neighbour of its colour, every other cell with exactly two, and each colour one
    /// connected path (no separate loops).
    ///
    /// # Errors
    /// The first rule broken, naming the cell (row, column from 1).
    pub fn check(&self, grid: &[u8]) -> Result<(), String> {
        if grid.len() != self.rows * self.cols {
            return Err("the grid does not have the puzzle's size".to_string());
        }
        let at = |cell: usize| format!("({}, {})", cell / self.cols + 1, cell % self.cols + 1);
        for cell in 0..grid.len() {
            if let Some(source) = self.sources[cell]
                && grid[cell] != source
            {
                return Err(format!("source {} changed colour", at(cell)));
            }
            let same = self
                .neighbours(cell)
                .filter(|&n| grid[n] == grid[cell])
                .count();
            let need = if self.sources[cell].is_some() { 1 } else { 2 };
            if same != need {
                return Err(format!(
                    "cell {} has {same} neighbours of its colour, needs {need}",
                    at(cell)
                ));
            }
        }
        // Each colour: the cells reachable from one source are all the colour's cells.
        for colour in 0..self.colours.len() as u8 {
            let start = (0..grid.len())
                .find(|&c| self.sources[c] == Some(colour))
                .expect("two sources");
            let mut seen = vec![false; grid.len()];
            let mut stack = vec![start];
            seen[start] = true;
            while let Some(cell) = stack.pop() {
                for n in self.neighbours(cell) {
                    if grid[n] == colour && !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
            if let Some(cell) = (0..grid.len()).find(|&c| grid[c] == colour && !seen[c]) {
                return Err(format!(
                    "colour '{}' has cells apart from its path (a loop) at {}",
                    self.colours[usize::from(colour)],
                    at(cell)
                ));
            }
        }
        Ok(())
    }
}

/// The solvers of report 000 (and their counters), and arbiter's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// Row-major cell order, colours in order, consistency check only.
    Brute,
    /// Random cell order (shuffled once) and random colour order, seeded.
    Dumb,
    /// Report 000's smart: each cell's colours pruned once against the sources at the
    /// start (static domains); the cell with the fewest such colours next, ties to the last
    /// in row-major order; no pruning during the search.
    Smart,
    /// Report 000's improved solver: smart's order on domains that forward checking
    /// prunes: after each placement the four neighbours keep only the colours still
    /// consistent, and a neighbour left with none fails the placement.
    SmartFc,
    /// arbiter's minimum remaining values: each step, the cell with the fewest colours
    /// consistent with the grid as it stands (domains recomputed, not static).
    Mrv,
    /// Mrv's order on forward-checked domains, pruning the neighbours and their
    /// neighbours (every cell whose constraint counts a placement changes).
    MrvFc,
    /// arbiter's own: paths grown from one source of each colour towards the other, the
    /// most constrained colour first, forced extensions without branching, and after every
    /// step dead-end cells, stranded colours, stranded empty regions and chokepoints (a cell
    /// two colours must both pass) cut the search.
    /// Each extension tried counts as an assignment.
    Paths,
    /// arbiter's clause-learning solver (`csp::sat`) on a boolean encoding of the rules
    /// (cell colours and pipe shapes), loops cut as they appear. Nodes are decisions,
    /// assignments every variable set (decided or propagated), backtracks conflicts.
    Sat,
}

impl Solver {
    /// Every solver.
    pub const ALL: [Solver; 8] = [
        Solver::Brute,
        Solver::Dumb,
        Solver::Smart,
        Solver::SmartFc,
        Solver::Mrv,
        Solver::MrvFc,
        Solver::Paths,
        Solver::Sat,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Solver::Brute => "brute",
            Solver::Dumb => "dumb",
            Solver::Smart => "smart",
            Solver::SmartFc => "smart-fc",
            Solver::Mrv => "mrv",
            Solver::MrvFc => "mrv-fc",
            Solver::Paths => "paths",
            Solver::Sat => "sat",
        }
    }

    /// One line on what the solver does (for `arbiter list`).
    pub fn describe(self) -> &'static str {
        match self {
            Solver::Brute => "report 000's brute force: cells in row-major order, colours in order",
            Solver::Dumb => "report 000's dumb: random cell and colour orders (seeded)",
            Solver::Smart => {
                "report 000's smart: fewest colours first, colours pruned once at the start"
            }
            Solver::SmartFc => {
                "report 000's improved: smart plus forward checking of the four neighbours"
            }
            Solver::Mrv => "fewest colours consistent with the current grid first (recomputed)",
            Solver::MrvFc => "mrv plus forward checking of neighbours and their neighbours",
            Solver::Paths => {
                "path extension from the sources: most constrained end first, dead-end, stranded-region and chokepoint cuts"
            }
            Solver::Sat => {
                "clause learning on a boolean encoding (cell colours, pipe shapes), loops cut on demand; the fastest"
            }
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
        Solver::ALL
            .into_iter()
            .find(|s| s.name() == text)
            .ok_or_else(|| {
                format!(
                    "unknown flow solver '{text}' (known: brute, dumb, smart, smart-fc, mrv, mrv-fc, paths, sat)"
                )
            })
    }
}

/// How a solve ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// A checked solution.
    Solved(Vec<u8>),
    /// The search space is exhausted: no solution.
    Unsolvable,
    /// A node or time limit stopped the search.
    Limit,
}

impl Status {
    /// How a search ended: with `grid` if it found a solution, else at a limit if the
    /// budget ran out, else with the search space exhausted.
    fn after_search(found: bool, grid: &[u8], exhausted: bool) -> Status {
        if found {
            Status::Solved(grid.to_vec())
        } else if exhausted {
            Status::Limit
        } else {
            Status::Unsolvable
        }
    }

    /// `solved`, `unsolvable` or `limit`.
    pub fn label(&self) -> &'static str {
        match self {
            Status::Solved(_) => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Limit => "limit",
        }
    }
}

const EMPTY: u8 = u8::MAX;

struct Search<'a> {
    puzzle: &'a Puzzle,
    grid: Vec<u8>,
    domains: Vec<u32>,
    order: Vec<usize>,
    rng: seeds::GameRng,
    solver: Solver,
    stats: SolveStats,
    budget: Budget,
    trail: Vec<(usize, u32)>,
}

impl Search<'_> {
    /// `0 <= need - same <= free` for a coloured cell.
    fn cell_ok(&self, cell: usize) -> bool {
        let colour = self.grid[cell];
        if colour == EMPTY {
            return true;
        }
        let need = if self.puzzle.sources[cell].is_some() {
            1
        } else {
            2
        };
        let (mut same, mut free) = (0, 0);
        for n in self.puzzle.neighbours(cell) {
            if self.grid[n] == colour {
                same += 1;
            } else if self.grid[n] == EMPTY {
                free += 1;
            }
        }
        same <= need && need - same <= free
    }

    /// Whether `cell = colour` is consistent (the cell and its neighbours); leaves the grid
    /// unchanged.
    fn consistent(&mut self, cell: usize, colour: u8) -> bool {
        self.grid[cell] = colour;
        let ok = self.cell_ok(cell) && self.puzzle.neighbours(cell).all(|n| self.cell_ok(n));
        self.grid[cell] = EMPTY;
        ok
    }

    fn candidates(&mut self, cell: usize) -> u32 {
        let mut mask = 0;
        for colour in 0..self.puzzle.colours.len() as u8 {
            if self.domains[cell] & (1 << colour) != 0 && self.consistent(cell, colour) {
                mask |= 1 << colour;
            }
        }
        mask
    }

    /// The next cell to fill: `Ok(None)` when the grid is full, `Err(())` when an empty
    /// cell has no colour left (report 000's solvers fail the node then).
    fn next_cell(&mut self) -> Result<Option<usize>, ()> {
        Ok(match self.solver {
            // Smart's domains never change: `order` is sorted by them once (fewest first,
            // ties to the last cell in row-major order, as the report's scan picks).
            Solver::Brute | Solver::Dumb | Solver::Smart => {
                self.order.iter().copied().find(|&c| self.grid[c] == EMPTY)
            }
            Solver::SmartFc => {
                let mut best: Option<usize> = None;
                for &c in &self.order {
                    if self.grid[c] != EMPTY {
                        continue;
                    }
                    let size = self.domains[c].count_ones();
                    if size == 0 {
                        return Err(());
                    }
                    if best.is_none_or(|b| size <= self.domains[b].count_ones()) {
                        best = Some(c);
                    }
                }
                best
            }
            Solver::Mrv => {
                let empty: Vec<usize> = self
                    .order
                    .iter()
                    .copied()
                    .filter(|&c| self.grid[c] == EMPTY)
                    .collect();
                empty
                    .into_iter()
                    .min_by_key(|&c| self.candidates(c).count_ones())
            }
            Solver::MrvFc | Solver::Paths | Solver::Sat => self
                .order
                .iter()
                .copied()
                .filter(|&c| self.grid[c] == EMPTY)
                .min_by_key(|&c| self.domains[c].count_ones()),
        })
    }

    /// Forward checking after `cell` was filled: the empty cells it affects keep only the
    /// colours still consistent; false when a domain empties. Report 000 prunes the four
    /// neighbours; mrv-fc also their neighbours, whose counts the placement changed.
    fn forward_check(&mut self, cell: usize) -> bool {
        let mut affected: Vec<usize> = Vec::with_capacity(12);
        for n in self.puzzle.neighbours(cell) {
            affected.push(n);
            if self.solver == Solver::MrvFc {
                affected.extend(self.puzzle.neighbours(n));
            }
        }
        affected.sort_unstable();
        affected.dedup();
        for c in affected {
            if self.grid[c] != EMPTY {
                continue;
            }
            let keep = self.candidates(c);
            if keep != self.domains[c] {
                self.trail.push((c, self.domains[c]));
                self.domains[c] = keep;
            }
            if keep == 0 {
                return false;
            }
        }
        true
    }

    fn solve(&mut self) -> bool {
        self.stats.nodes += 1;
        if self.budget.spent(self.stats.nodes) {
            return false;
        }
        let cell = match self.next_cell() {
            Ok(Some(cell)) => cell,
            Ok(None) => return self.puzzle.check(&self.grid).is_ok(),
            Err(()) => {
                self.stats.backtracks += 1;
                return false;
            }
        };
        let mut colours: Vec<u8> = (0..self.puzzle.colours.len() as u8)
            .filter(|&k| self.domains[cell] & (1 << k) != 0)
            .collect();
        if self.solver == Solver::Dumb {
            seeds::shuffle(&mut self.rng, &mut colours);
        }
        let forward = matches!(self.solver, Solver::SmartFc | Solver::MrvFc);
        for colour in colours {
            self.stats.assignments += 1;
            if !self.consistent(cell, colour) {
                continue;
            }
            self.stats.placed += 1;
            self.grid[cell] = colour;
            let mark = self.trail.len();
            let pruned_ok = !forward || self.forward_check(cell);
            if pruned_ok && self.solve() {
                return true;
            }
            while self.trail.len() > mark {
                let (c, domain) = self.trail.pop().expect("above the mark");
                self.domains[c] = domain;
            }
            self.grid[cell] = EMPTY;
            if self.budget.exhausted {
                return false;
            }
        }
        self.stats.backtracks += 1;
        false
    }
}

/// Solves `puzzle` with `solver` (`seed` orders the dumb solver's choices) within `limits`.
pub fn solve(puzzle: &Puzzle, solver: Solver, seed: u64, limits: Limits) -> (Status, SolveStats) {
    match solver {
        Solver::Paths => return paths::solve(puzzle, limits),
        Solver::Sat => return sat::solve(puzzle, limits),
        _ => {}
    }
    let cells = puzzle.rows * puzzle.cols;
    let all = if puzzle.colours.len() == 32 {
        u32::MAX
    } else {
        (1u32 << puzzle.colours.len()) - 1
    };
    let grid: Vec<u8> = puzzle.sources.iter().map(|s| s.unwrap_or(EMPTY)).collect();
    let mut order: Vec<usize> = (0..cells)
        .filter(|&c| puzzle.sources[c].is_none())
        .collect();
    let mut rng = seeds::rng(seed);
    if solver == Solver::Dumb {
        seeds::shuffle(&mut rng, &mut order);
    }
    let mut search = Search {
        puzzle,
        grid,
        domains: vec![all; cells],
        order,
        rng,
        solver,
        stats: SolveStats::default(),
        budget: Budget::new(limits),
        trail: Vec::new(),
    };
    if matches!(
        solver,
        Solver::Smart | Solver::SmartFc | Solver::Mrv | Solver::MrvFc
    ) {
        // Prune every domain against the sources once, as report 000's smart solver does.
        for cell in 0..cells {
            if search.grid[cell] == EMPTY {
                search.domains[cell] = search.candidates(cell);
            }
        }
    }
    if solver == Solver::Smart {
        let domains = &search.domains;
        search
            .order
            .sort_by_key(|&c| (domains[c].count_ones(), std::cmp::Reverse(c)));
    }
    let found = search.solve();
    let status = Status::after_search(found, &search.grid, search.budget.exhausted);
    (status, search.stats)
}

//! The `paths` Flow Free solver: path extension from one source of each colour.
//!
//! State: the grid, and per colour its path's head (the last cell added) and its target (the
//! other source). A step extends one colour's head into an empty neighbour that touches no
//! cell of that colour but the head (pipes never touch themselves) and the target; a head
//! next to its target completes the colour. The colour with the fewest extensions goes
//! first, and a colour with one is extended without branching. After every step four
//! checks cut dead branches: an empty cell needs two neighbours that are empty or an
//! unfinished colour's head or target (else it is a dead end); every unfinished colour's head
//! must still reach its target through empty cells; every region of empty cells must touch
//! both the head and the target of some unfinished colour; and no empty cell may be a
//! chokepoint, a cell that separates the head from the target of two colours at once
//! (found as articulation points by a depth-first search with low points per colour). The
//! chokepoint check cut the nodes on the hardest solved puzzles 2-9 times and the total time
//! over the 35 puzzles this solver finishes from 7.0 s to 5.0 s.

use super::{EMPTY, Puzzle, Status};
use crate::csp::{Budget, Limits, SolveStats};

struct PathSearch<'a> {
    puzzle: &'a Puzzle,
    grid: Vec<u8>,
    heads: Vec<usize>,
    targets: Vec<usize>,
    done: Vec<bool>,
    neighbours: Vec<Vec<usize>>,
    stats: SolveStats,
    budget: Budget,
    marks: Vec<u32>,
    stamp: u32,
    queue: Vec<usize>,
    /// Chokepoint search: discovery order and low point per cell, the cells the current
    /// colour must use, and which colour claimed each cell.
    order: Vec<u32>,
    low: Vec<u32>,
    clock: u32,
    must: Vec<usize>,
    owner: Vec<usize>,
}

impl PathSearch<'_> {
    /// The empty neighbours of `head` (one end of `colour`'s path) it may extend into,
    /// `target` being the other end.
    fn extensions_from(&self, colour: usize, head: usize, target: usize) -> Vec<usize> {
        self.neighbours[head]
            .iter()
            .copied()
            .filter(|&n| {
                self.grid[n] == EMPTY
                    && self.neighbours[n]
                        .iter()
                        .all(|&m| m == head || m == target || self.grid[m] != colour as u8)
            })
            .collect()
    }

    /// Whether an empty cell can still be a path cell: two neighbours that are empty or an
    /// unfinished colour's head or target.
    fn dead_end(&self, cell: usize) -> bool {
        let open = self.neighbours[cell]
            .iter()
            .filter(|&&n| {
                self.grid[n] == EMPTY || {
                    let k = usize::from(self.grid[n]);
                    !self.done[k] && (self.heads[k] == n || self.targets[k] == n)
                }
            })
            .count();
        open < 2
    }

    /// A new flood-fill stamp.
    fn fresh(&mut self) -> u32 {
        self.stamp += 1;
        self.stamp
    }

    /// Whether `colour`'s head can reach its target through empty cells.
    fn reaches(&mut self, colour: usize) -> bool {
        let (head, target) = (self.heads[colour], self.targets[colour]);
        if self.neighbours[head].contains(&target) {
            return true;
        }
        let stamp = self.fresh();
        self.queue.clear();
        self.queue.push(head);
        self.marks[head] = stamp;
        while let Some(cell) = self.queue.pop() {
            for i in 0..self.neighbours[cell].len() {
                let n = self.neighbours[cell][i];
                if n == target {
                    return true;
                }
                if self.grid[n] == EMPTY && self.marks[n] != stamp {
                    self.marks[n] = stamp;
                    self.queue.push(n);
                }
            }
        }
        false
    }

    /// Whether every region of empty cells touches the head and the target of some
    /// unfinished colour.
    fn regions_reachable(&mut self) -> bool {
        let stamp = self.fresh();
        let cells = self.grid.len();
        let mut region: Vec<usize> = Vec::new();
        for start in 0..cells {
            if self.grid[start] != EMPTY || self.marks[start] == stamp {
                continue;
            }
            region.clear();
            self.marks[start] = stamp;
            region.push(start);
            let mut i = 0;
            while i < region.len() {
                let cell = region[i];
                i += 1;
                for &n in &self.neighbours[cell] {
                    if self.grid[n] == EMPTY && self.marks[n] != stamp {
                        self.marks[n] = stamp;
                        region.push(n);
                    }
                }
            }
            let touches = |cell: usize| region.iter().any(|&r| self.neighbours[r].contains(&cell));
            let served = (0..self.heads.len())
                .any(|k| !self.done[k] && touches(self.heads[k]) && touches(self.targets[k]));
            if !served {
                return false;
            }
        }
        true
    }

    fn viable(&mut self) -> bool {
        for k in 0..self.heads.len() {
            if !self.done[k] && !self.reaches(k) {
                return false;
            }
        }
        if (0..self.grid.len()).any(|c| self.grid[c] == EMPTY && self.dead_end(c)) {
            return false;
        }
        self.regions_reachable() && self.chokepoints_free()
    }

    /// Whether no empty cell is a chokepoint: a cell every path of two unfinished colours
    /// must pass (each separates its colour's head from its target), which only one can.
    fn chokepoints_free(&mut self) -> bool {
        let cells = self.grid.len();
        self.owner.clear();
        self.owner.resize(cells, usize::MAX);
        for k in 0..self.heads.len() {
            if self.done[k] {
                continue;
            }
            let stamp = self.fresh();
            self.clock = 0;
            self.must.clear();
            self.separators(k, self.heads[k], usize::MAX, stamp);
            for i in 0..self.must.len() {
                let cell = self.must[i];
                if self.owner[cell] != usize::MAX {
                    return false;
                }
                self.owner[cell] = k;
            }
        }
        true
    }

    /// Depth-first search from `colour`'s head through empty cells (and its target)
    /// computing low points; pushes onto `must` every empty cell that separates the head
    /// from the target. Returns whether the target is below `cell`.
    fn separators(&mut self, colour: usize, cell: usize, parent: usize, stamp: u32) -> bool {
        self.marks[cell] = stamp;
        self.clock += 1;
        self.order[cell] = self.clock;
        self.low[cell] = self.clock;
        let (head, target) = (self.heads[colour], self.targets[colour]);
        // The target is searched through like any cell: a path through it is no real
        // path, but extra paths can only hide separators, never invent one.
        let mut found = cell == target;
        for i in 0..self.neighbours[cell].len() {
            let next = self.neighbours[cell][i];
            if next != target && next != head && self.grid[next] != EMPTY {
                continue;
            }
            if self.marks[next] != stamp {
                let below = self.separators(colour, next, cell, stamp);
                self.low[cell] = self.low[cell].min(self.low[next]);
                if below {
                    found = true;
                    if cell != head && self.low[next] >= self.order[cell] {
                        self.must.push(cell);
                    }
                }
            } else if next != parent {
                self.low[cell] = self.low[cell].min(self.order[next]);
            }
        }
        found
    }

    fn search(&mut self) -> bool {
        self.stats.nodes += 1;
        if self.budget.spent(self.stats.nodes) {
            return false;
        }
        // Complete every colour whose head touches its target (forced: the head could
        // not take another neighbour without touching the target too).
        let mut completed = Vec::new();
        for k in 0..self.heads.len() {
            if !self.done[k] && self.neighbours[self.heads[k]].contains(&self.targets[k]) {
                self.done[k] = true;
                completed.push(k);
            }
        }
        let solved = self.step();
        if !solved {
            for k in completed {
                self.done[k] = false;
            }
        }
        solved
    }

    fn step(&mut self) -> bool {
        let unfinished: Vec<usize> = (0..self.heads.len()).filter(|&k| !self.done[k]).collect();
        if unfinished.is_empty() {
            return self.grid.iter().all(|&c| c != EMPTY) && self.puzzle.check(&self.grid).is_ok();
        }
        if !self.viable() {
            self.stats.backtracks += 1;
            return false;
        }
        // The most constrained path end (either end of any unfinished colour).
        let mut best: Option<(usize, bool, Vec<usize>)> = None;
        'ends: for k in unfinished {
            for flipped in [false, true] {
                let (head, other) = if flipped {
                    (self.targets[k], self.heads[k])
                } else {
                    (self.heads[k], self.targets[k])
                };
                let options = self.extensions_from(k, head, other);
                if options.is_empty() {
                    self.stats.backtracks += 1;
                    return false;
                }
                if best
                    .as_ref()
                    .is_none_or(|(_, _, b)| options.len() < b.len())
                {
                    let forced = options.len() == 1;
                    best = Some((k, flipped, options));
                    if forced {
                        break 'ends;
                    }
                }
            }
        }
        let (colour, flipped, mut options) = best.expect("an unfinished colour");
        if flipped {
            std::mem::swap(&mut self.heads[colour], &mut self.targets[colour]);
        }
        // Hug the walls (fewer empty neighbours first), then head for the other end.
        let cols = self.puzzle.cols;
        let other = self.targets[colour];
        let distance =
            |n: usize| (n / cols).abs_diff(other / cols) + (n % cols).abs_diff(other % cols);
        options.sort_by_key(|&n| {
            let open = self.neighbours[n]
                .iter()
                .filter(|&&m| self.grid[m] == EMPTY)
                .count();
            (open, distance(n))
        });
        let head = self.heads[colour];
        let mut solved = false;
        for cell in options {
            self.stats.assignments += 1;
            self.stats.placed += 1;
            self.grid[cell] = colour as u8;
            self.heads[colour] = cell;
            if self.search() {
                solved = true;
                break;
            }
            self.heads[colour] = head;
            self.grid[cell] = EMPTY;
            if self.budget.exhausted {
                break;
            }
        }
        if !solved {
            if flipped {
                std::mem::swap(&mut self.heads[colour], &mut self.targets[colour]);
            }
            self.stats.backtracks += 1;
        }
        solved
    }
}

/// Solves `puzzle` by path extension within `limits`.
pub fn solve(puzzle: &Puzzle, limits: Limits) -> (Status, SolveStats) {
    let cells = puzzle.rows * puzzle.cols;
    let grid: Vec<u8> = puzzle.sources.iter().map(|s| s.unwrap_or(EMPTY)).collect();
    let colours = puzzle.colours.len();
    let mut heads = vec![usize::MAX; colours];
    let mut targets = vec![usize::MAX; colours];
    let neighbours: Vec<Vec<usize>> = (0..cells).map(|c| puzzle.neighbours(c).collect()).collect();
    for (cell, source) in puzzle.sources.iter().enumerate() {
        if let Some(k) = source {
            let k = usize::from(*k);
            if heads[k] == usize::MAX {
                heads[k] = cell;
            } else {
                targets[k] = cell;
            }
        }
    }
    // Grow each path from the source with fewer free neighbours (the more constrained end).
    for k in 0..colours {
        let free = |c: usize| neighbours[c].iter().filter(|&&n| grid[n] == EMPTY).count();
        if free(targets[k]) < free(heads[k]) {
            std::mem::swap(&mut heads[k], &mut targets[k]);
        }
    }
    let mut solver = PathSearch {
        puzzle,
        grid,
        heads,
        targets,
        done: vec![false; colours],
        neighbours,
        stats: SolveStats::default(),
        budget: Budget::new(limits),
        marks: vec![0; cells],
        stamp: 0,
        queue: Vec::with_capacity(cells),
        order: vec![0; cells],
        low: vec![0; cells],
        clock: 0,
        must: Vec::new(),
        owner: Vec::new(),
    };
    let found = solver.search();
    let status = Status::after_search(found, &solver.grid, solver.budget.exhausted);
    (status, solver.stats)
}

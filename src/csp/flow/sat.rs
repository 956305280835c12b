//! The `sat` Flow Free solver: the puzzle as a boolean formula for the clause-learning
//! solver in `csp::sat`.
//!
//! Variables: one per cell and colour ("the cell has this colour"), and one per empty cell
//! and pair of its neighbours ("the pipe through this cell joins these two", up to six
//! shapes). Clauses: a source has its colour and no other, and exactly one neighbour of
//! its colour; an empty cell has exactly one colour and exactly one pipe shape; the two
//! neighbours a shape joins have the cell's colour and its other neighbours do not. These
//! are the checker's rules (a source has one neighbour of its colour, any other cell two)
//! except for one: nothing in them forbids a closed loop of one colour apart from its
//! path. A model with such a loop is cut by a clause forbidding that loop's shapes, and the
//! solver goes on from what it has learnt; every answer passes the checker.

use super::{Puzzle, Status};
use crate::csp::sat::{Lit, Outcome, Sat};
use crate::csp::{Budget, Limits, SolveStats};

/// Solves `puzzle` within `limits`.
pub fn solve(puzzle: &Puzzle, limits: Limits) -> (Status, SolveStats) {
    let (status, stats, _) = solve_cutting(puzzle, limits);
    (status, stats)
}

/// `solve`, also giving the number of loops cut on the way.
pub(super) fn solve_cutting(puzzle: &Puzzle, limits: Limits) -> (Status, SolveStats, usize) {
    let mut budget = Budget::new(limits);
    let (mut sat, pipes) = encode(puzzle);
    let mut cut = 0;
    loop {
        match sat.solve(&mut budget) {
            Outcome::Limit => return (Status::Limit, sat.stats, cut),
            Outcome::Unsat => return (Status::Unsolvable, sat.stats, cut),
            Outcome::Sat => {}
        }
        let colours = puzzle.colours.len();
        let grid: Vec<u8> = (0..puzzle.sources.len())
            .map(|cell| {
                (0..colours)
                    .find(|&u| sat.value(cell * colours + u))
                    .expect("every cell has a colour") as u8
            })
            .collect();
        if puzzle.check(&grid).is_ok() {
            return (Status::Solved(grid), sat.stats, cut);
        }
        let loops = loops(puzzle, &grid);
        assert!(
            !loops.is_empty(),
            "a model of the encoding breaks the checker only by loops"
        );
        // Read every loop's shapes before adding a clause (adding one undoes the model).
        let cuts: Vec<Vec<Lit>> = loops
            .iter()
            .map(|cells| {
                cells
                    .iter()
                    .map(|&cell| {
                        let var = pipes[cell]
                            .iter()
                            .copied()
                            .find(|&var| sat.value(var))
                            .expect("an empty cell has a pipe shape");
                        Lit::neg(var)
                    })
                    .collect()
            })
            .collect();
        for forbid in cuts {
            cut += 1;
            sat.add_clause(&forbid);
        }
    }
}

/// The formula, and per cell the variables of its pipe shapes (none for a source).
fn encode(puzzle: &Puzzle) -> (Sat, Vec<Vec<usize>>) {
    let cells = puzzle.sources.len();
    let colours = puzzle.colours.len();
    let mut sat = Sat::new();
    for _ in 0..cells * colours {
        sat.new_var();
    }
    let is = |cell: usize, u: usize| Lit::pos(cell * colours + u);
    let is_not = |cell: usize, u: usize| Lit::neg(cell * colours + u);
    let mut pipes: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for (cell, cell_pipes) in pipes.iter_mut().enumerate() {
        let around: Vec<usize> = puzzle.neighbours(cell).collect();
        if let Some(k) = puzzle.sources[cell] {
            let k = usize::from(k);
            for u in 0..colours {
                sat.add_clause(&[if u == k { is(cell, u) } else { is_not(cell, u) }]);
            }
            let any: Vec<Lit> = around.iter().map(|&n| is(n, k)).collect();
            sat.add_clause(&any);
            at_most_one(
                &mut sat,
                &around.iter().map(|&n| is(n, k)).collect::<Vec<_>>(),
            );
            continue;
        }
        let any: Vec<Lit> = (0..colours).map(|u| is(cell, u)).collect();
        sat.add_clause(&any);
        at_most_one(&mut sat, &any);
        // A shape: (its variable, the two neighbours it joins).
        let mut shapes: Vec<(usize, usize, usize)> = Vec::new();
        for (i, &a) in around.iter().enumerate() {
            for &b in &around[i + 1..] {
                shapes.push((sat.new_var(), a, b));
            }
        }
        cell_pipes.extend(shapes.iter().map(|&(var, _, _)| var));
        let some_shape: Vec<Lit> = shapes.iter().map(|&(var, _, _)| Lit::pos(var)).collect();
        sat.add_clause(&some_shape);
        at_most_one(&mut sat, &some_shape);
        for &(shape, a, b) in &shapes {
            let shape = Lit::neg(shape);
            for u in 0..colours {
                for &n in &around {
                    if n == a || n == b {
                        sat.add_clause(&[shape, is_not(cell, u), is(n, u)]);
                        sat.add_clause(&[shape, is(cell, u), is_not(n, u)]);
                    } else {
                        sat.add_clause(&[shape, is_not(cell, u), is_not(n, u)]);
                    }
                }
            }
        }
    }
    (sat, pipes)
}

/// No two of `lits` true (pairwise clauses: at most four neighbours or 32 colours).
fn at_most_one(sat: &mut Sat, lits: &[Lit]) {
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            sat.add_clause(&[!a, !b]);
        }
    }
}

/// The groups of same-coloured cells in `grid` that hold no source (closed loops).
fn loops(puzzle: &Puzzle, grid: &[u8]) -> Vec<Vec<usize>> {
    let mut group = vec![usize::MAX; grid.len()];
    let mut found = Vec::new();
    for start in 0..grid.len() {
        if group[start] != usize::MAX {
            continue;
        }
        group[start] = start;
        let mut members = vec![start];
        let mut i = 0;
        while i < members.len() {
            let cell = members[i];
            i += 1;
            for n in puzzle.neighbours(cell) {
                if grid[n] == grid[cell] && group[n] == usize::MAX {
                    group[n] = start;
                    members.push(n);
                }
            }
        }
        if members.iter().all(|&c| puzzle.sources[c].is_none()) {
            found.push(members);
        }
    }
    found
}

//! A small conflict-driven clause-learning (CDCL) SAT solver, written for the puzzle
//! encodings in this module's siblings and knowing nothing of them.
//!
//! Design: clauses in one list (learnt ones marked by their LBD), two watched
//! literals per clause, unit propagation over a trail, first-UIP conflict analysis with
//! non-chronological backjumping, VSIDS variable activities in an indexed binary heap,
//! phase saving (first phase: false), and restarts after a Luby sequence of conflicts
//! (unit 100). At a restart, once the learnt clauses outnumber a limit (10,000, growing by
//! 10% each time), the less useful half is deleted: those spanning the most decision levels
//! when learnt (LBD), the older first among equals; clauses over at most two levels are
//! kept. Clauses may be added between solves (incremental use), which is how the Flow
//! Free encoding cuts loops.
//!
//! Counters: a decision is a search node; every literal put on the trail (decided or
//! propagated) is an assignment; every conflict is a backtrack.

use super::{Budget, SolveStats};

/// A literal: a variable or its negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(u32);

impl Lit {
    /// The variable itself.
    pub fn pos(var: usize) -> Lit {
        Lit((var as u32) << 1)
    }

    /// The variable's negation.
    pub fn neg(var: usize) -> Lit {
        Lit(((var as u32) << 1) | 1)
    }

    /// The variable.
    pub fn var(self) -> usize {
        (self.0 >> 1) as usize
    }

    fn negated(self) -> bool {
        self.0 & 1 == 1
    }

    fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every clause is satisfied by the current assignment (read it with `value`).
    Sat,
    /// No assignment satisfies the clauses.
    Unsat,
    /// The budget ran out first.
    Limit,
}

const UNDEF: u8 = 2;
const NO_REASON: u32 = u32::MAX;
const RESTART_UNIT: u64 = 100;

/// The solver state: clauses, assignment, trail and heuristics.
pub struct Sat {
    clauses: Vec<Vec<Lit>>,
    /// Per literal: the clauses watching it (visited when it becomes false).
    watches: Vec<Vec<u32>>,
    /// Per variable: 0 false, 1 true, `UNDEF`.
    values: Vec<u8>,
    levels: Vec<u32>,
    reasons: Vec<u32>,
    trail: Vec<Lit>,
    /// Where each decision level starts on the trail.
    level_starts: Vec<usize>,
    propagated: usize,
    activity: Vec<f64>,
    bump: f64,
    heap: Heap,
    phases: Vec<bool>,
    seen: Vec<bool>,
    consistent: bool,
    /// Per clause: the decision levels it spanned when learnt (0 for problem clauses,
    /// which are never deleted).
    lbd: Vec<u32>,
    /// Per decision level, the conflict that last counted it (LBD without allocating).
    level_stamps: Vec<u64>,
    /// Learnt clauses alive, and how many trigger a reduction at the next restart.
    learnt: usize,
    learnt_limit: usize,
    /// Counters so far (over every solve).
    pub stats: SolveStats,
}

impl Default for Sat {
    fn default() -> Self {
        Self::new()
    }
}

impl Sat {
    /// An empty problem.
    pub fn new() -> Sat {
        Sat {
            clauses: Vec::new(),
            watches: Vec::new(),
            values: Vec::new(),
            levels: Vec::new(),
            reasons: Vec::new(),
            trail: Vec::new(),
            level_starts: Vec::new(),
            propagated: 0,
            activity: Vec::new(),
            bump: 1.0,
            heap: Heap::default(),
            phases: Vec::new(),
            seen: Vec::new(),
            consistent: true,
            lbd: Vec::new(),
            level_stamps: Vec::new(),
            learnt: 0,
            learnt_limit: 10_000,
            stats: SolveStats::default(),
        }
    }

    /// A new variable (numbered from 0).
    pub fn new_var(&mut self) -> usize {
        let var = self.values.len();
        self.values.push(UNDEF);
        self.levels.push(0);
        self.reasons.push(NO_REASON);
        self.activity.push(0.0);
        self.phases.push(false);
        self.seen.push(false);
        self.watches.push(Vec::new());
        self.watches.push(Vec::new());
        self.heap.insert(var, &self.activity);
        var
    }

    /// The number of variables.
    pub fn vars(&self) -> usize {
        self.values.len()
    }

    /// The variable's value in the last satisfying assignment (`false` if unassigned).
    pub fn value(&self, var: usize) -> bool {
        self.values[var] == 1
    }

    fn lit_value(&self, lit: Lit) -> u8 {
        let value = self.values[lit.var()];
        if value == UNDEF {
            UNDEF
        } else {
            value ^ u8::from(lit.negated())
        }
    }

    /// Adds a clause (the disjunction of `lits`), undoing any previous solve's assignment
    /// first. Returns false once the clauses are known to be unsatisfiable.
    pub fn add_clause(&mut self, lits: &[Lit]) -> bool {
        self.backjump(0);
        if !self.consistent {
            return false;
        }
        let mut clause: Vec<Lit> = lits.to_vec();
        clause.sort_unstable();
        clause.dedup();
        if clause.windows(2).any(|w| w[0] == !w[1]) {
            return true; // a tautology
        }
        if clause.iter().any(|&l| self.lit_value(l) == 1) {
            return true; // already satisfied at level 0
        }
        clause.retain(|&l| self.lit_value(l) == UNDEF);
        match clause.len() {
            0 => self.consistent = false,
            1 => {
                self.assign(clause[0], NO_REASON);
                if self.propagate().is_some() {
                    self.consistent = false;
                }
            }
            _ => {
                self.attach(clause, 0);
            }
        }
        self.consistent
    }

    /// Adds a clause of two or more literals, watching its first two; `lbd` 0 for a
    /// problem clause.
    fn attach(&mut self, clause: Vec<Lit>, lbd: u32) -> u32 {
        let index = self.clauses.len() as u32;
        self.watches[clause[0].index()].push(index);
        self.watches[clause[1].index()].push(index);
        self.clauses.push(clause);
        self.lbd.push(lbd);
        if lbd > 0 {
            self.learnt += 1;
        }
        index
    }

    /// Deletes the less useful half of the learnt clauses (at decision level 0, so none is
    /// the reason of an assignment analysis could visit). A deleted clause is left empty
    /// (indices stay) and taken off every watch list.
    fn reduce(&mut self) {
        let mut candidates: Vec<usize> = (0..self.clauses.len())
            .filter(|&i| self.lbd[i] > 2 && !self.clauses[i].is_empty())
            .collect();
        // Worst first: most levels spanned, then oldest.
        candidates.sort_by_key(|&i| (std::cmp::Reverse(self.lbd[i]), i));
        for &i in &candidates[..candidates.len() / 2] {
            self.clauses[i] = Vec::new();
            self.learnt -= 1;
        }
        // Off the watch lists at once, so that propagation (the hot loop) never meets a
        // deleted clause.
        let clauses = &self.clauses;
        for watching in &mut self.watches {
            watching.retain(|&index| !clauses[index as usize].is_empty());
        }
        self.learnt_limit += self.learnt_limit / 10;
    }

    /// How many decision levels `clause`'s literals span (its LBD), counted with a stamp
    /// per level instead of a sorted copy.
    fn distinct_levels(&mut self, clause: &[Lit]) -> u32 {
        let stamp = self.stats.backtracks + 1;
        let mut count = 0;
        for lit in clause {
            let level = self.levels[lit.var()] as usize;
            if level >= self.level_stamps.len() {
                self.level_stamps.resize(level + 1, 0);
            }
            if self.level_stamps[level] != stamp {
                self.level_stamps[level] = stamp;
                count += 1;
            }
        }
        count
    }

    fn level(&self) -> u32 {
        self.level_starts.len() as u32
    }

    fn assign(&mut self, lit: Lit, reason: u32) {
        let var = lit.var();
        self.values[var] = u8::from(!lit.negated());
        self.levels[var] = self.level();
        self.reasons[var] = reason;
        self.trail.push(lit);
        self.stats.assignments += 1;
        self.stats.placed += 1;
    }

    /// Unit propagation from the trail; the index of a falsified clause, if any.
    fn propagate(&mut self) -> Option<u32> {
        while self.propagated < self.trail.len() {
            let falsified = !self.trail[self.propagated];
            self.propagated += 1;
            let mut watching = std::mem::take(&mut self.watches[falsified.index()]);
            let mut kept = 0;
            let mut i = 0;
            let mut conflict = None;
            while i < watching.len() {
                let index = watching[i];
                i += 1;
                let clause = &mut self.clauses[index as usize];
                if clause[0] == falsified {
                    clause.swap(0, 1);
                }
                let first = clause[0];
                let first_value = {
                    let value = self.values[first.var()];
                    if value == UNDEF {
                        UNDEF
                    } else {
                        value ^ u8::from(first.negated())
                    }
                };
                if first_value == 1 {
                    watching[kept] = index;
                    kept += 1;
                    continue;
                }
                // Look for another literal to watch instead of the falsified one.
                let mut moved = false;
                for k in 2..clause.len() {
                    let lit = clause[k];
                    let value = self.values[lit.var()];
                    if value == UNDEF || value ^ u8::from(lit.negated()) == 1 {
                        clause.swap(1, k);
                        self.watches[lit.index()].push(index);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                watching[kept] = index;
                kept += 1;
                if first_value == 0 {
                    conflict = Some(index);
                    while i < watching.len() {
                        watching[kept] = watching[i];
                        kept += 1;
                        i += 1;
                    }
                } else {
                    self.assign(first, index);
                }
            }
            watching.truncate(kept);
            self.watches[falsified.index()] = watching;
            if conflict.is_some() {
                return conflict;
            }
        }
        None
    }

    /// Undoes every assignment above `level`, saving phases.
    fn backjump(&mut self, level: u32) {
        if self.level() <= level {
            return;
        }
        let start = self.level_starts[level as usize];
        for i in (start..self.trail.len()).rev() {
            let lit = self.trail[i];
            let var = lit.var();
            self.values[var] = UNDEF;
            self.reasons[var] = NO_REASON;
            self.phases[var] = !lit.negated();
            if !self.heap.contains(var) {
                self.heap.insert(var, &self.activity);
            }
        }
        self.trail.truncate(start);
        self.level_starts.truncate(level as usize);
        self.propagated = start;
    }

    fn bump_var(&mut self, var: usize) {
        self.activity[var] += self.bump;
        if self.activity[var] > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.bump *= 1e-100;
        }
        self.heap.increased(var, &self.activity);
    }

    /// First-UIP analysis of the falsified clause: the learnt clause (asserting literal
    /// first, a literal of the backjump level second) and the level to jump back to.
    fn analyze(&mut self, mut conflict: u32) -> (Vec<Lit>, u32) {
        let mut learnt = vec![Lit(0)];
        let mut open = 0;
        let mut index = self.trail.len();
        let mut resolved: Option<Lit> = None;
        let current = self.level();
        loop {
            let clause = std::mem::take(&mut self.clauses[conflict as usize]);
            for &lit in &clause {
                if resolved.is_some_and(|r| r.var() == lit.var()) {
                    continue;
                }
                let var = lit.var();
                if !self.seen[var] && self.levels[var] > 0 {
                    self.seen[var] = true;
                    self.bump_var(var);
                    if self.levels[var] == current {
                        open += 1;
                    } else {
                        learnt.push(lit);
                    }
                }
            }
            self.clauses[conflict as usize] = clause;
            loop {
                index -= 1;
                if self.seen[self.trail[index].var()] {
                    break;
                }
            }
            let lit = self.trail[index];
            self.seen[lit.var()] = false;
            resolved = Some(lit);
            open -= 1;
            if open == 0 {
                learnt[0] = !lit;
                break;
            }
            conflict = self.reasons[lit.var()];
        }
        for lit in &learnt[1..] {
            self.seen[lit.var()] = false;
        }
        let mut jump = 0;
        if learnt.len() > 1 {
            let deepest = (1..learnt.len())
                .max_by_key(|&i| self.levels[learnt[i].var()])
                .expect("a second literal");
            learnt.swap(1, deepest);
            jump = self.levels[learnt[1].var()];
        }
        (learnt, jump)
    }

    /// Searches for a satisfying assignment within `budget` (nodes are decisions).
    pub(crate) fn solve(&mut self, budget: &mut Budget) -> Outcome {
        self.backjump(0);
        if !self.consistent {
            return Outcome::Unsat;
        }
        let mut restarts = 1;
        let mut until_restart = luby(restarts) * RESTART_UNIT;
        loop {
            if let Some(conflict) = self.propagate() {
                self.stats.backtracks += 1;
                if self.level() == 0 {
                    self.consistent = false;
                    return Outcome::Unsat;
                }
                let (learnt, jump) = self.analyze(conflict);
                let levels = self.distinct_levels(&learnt);
                self.backjump(jump);
                if learnt.len() == 1 {
                    self.assign(learnt[0], NO_REASON);
                } else {
                    let asserting = learnt[0];
                    let index = self.attach(learnt, levels.max(1));
                    self.assign(asserting, index);
                }
                self.bump /= 0.95;
                until_restart = until_restart.saturating_sub(1);
                continue;
            }
            if until_restart == 0 {
                restarts += 1;
                until_restart = luby(restarts) * RESTART_UNIT;
                self.backjump(0);
                if self.learnt > self.learnt_limit {
                    self.reduce();
                }
            }
            let Some(var) = self.next_var() else {
                return Outcome::Sat;
            };
            self.stats.nodes += 1;
            if budget.spent(self.stats.nodes) {
                self.heap.insert(var, &self.activity);
                return Outcome::Limit;
            }
            self.level_starts.push(self.trail.len());
            let lit = if self.phases[var] {
                Lit::pos(var)
            } else {
                Lit::neg(var)
            };
            self.assign(lit, NO_REASON);
        }
    }

    fn next_var(&mut self) -> Option<usize> {
        while let Some(var) = self.heap.pop(&self.activity) {
            if self.values[var] == UNDEF {
                return Some(var);
            }
        }
        None
    }
}

/// The i-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ...
fn luby(i: u64) -> u64 {
    let mut i = i;
    loop {
        // The smallest k with i <= 2^k - 1.
        let mut k = 1;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// A binary max-heap of variables keyed by activity, with each variable's position.
#[derive(Default)]
struct Heap {
    items: Vec<usize>,
    positions: Vec<usize>,
}

const ABSENT: usize = usize::MAX;

impl Heap {
    fn contains(&self, var: usize) -> bool {
        self.positions.get(var).is_some_and(|&p| p != ABSENT)
    }

    fn insert(&mut self, var: usize, activity: &[f64]) {
        if self.positions.len() <= var {
            self.positions.resize(var + 1, ABSENT);
        }
        if self.contains(var) {
            return;
        }
        self.positions[var] = self.items.len();
        self.items.push(var);
        self.up(self.items.len() - 1, activity);
    }

    fn increased(&mut self, var: usize, activity: &[f64]) {
        if self.contains(var) {
            self.up(self.positions[var], activity);
        }
    }

    fn pop(&mut self, activity: &[f64]) -> Option<usize> {
        let top = *self.items.first()?;
        let last = self.items.pop().expect("not empty");
        self.positions[top] = ABSENT;
        if !self.items.is_empty() {
            self.items[0] = last;
            self.positions[last] = 0;
            self.down(0, activity);
        }
        Some(top)
    }

    fn up(&mut self, mut i: usize, activity: &[f64]) {
        let var = self.items[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            if activity[self.items[parent]] >= activity[var] {
                break;
            }
            self.items[i] = self.items[parent];
            self.positions[self.items[i]] = i;
            i = parent;
        }
        self.items[i] = var;
        self.positions[var] = i;
    }

    fn down(&mut self, mut i: usize, activity: &[f64]) {
        let var = self.items[i];
        loop {
            let left = 2 * i + 1;
            if left >= self.items.len() {
                break;
            }
            let right = left + 1;
            let child = if right < self.items.len()
                && activity[self.items[right]] > activity[self.items[left]]
            {
                right
            } else {
                left
            };
            if activity[self.items[child]] <= activity[var] {
                break;
            }
            self.items[i] = self.items[child];
            self.positions[self.items[i]] = i;
            i = child;
        }
        self.items[i] = var;
        self.positions[var] = i;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csp::Limits;

    fn budget() -> Budget {
        Budget::new(Limits::default())
    }

    /// Pigeons into holes: p(i, h) = pigeon i sits in hole h.
    fn pigeons(pigeons: usize, holes: usize) -> Sat {
        let mut sat = Sat::new();
        let var = |i: usize, h: usize| i * holes + h;
        for _ in 0..pigeons * holes {
            sat.new_var();
        }
        for i in 0..pigeons {
            let some: Vec<Lit> = (0..holes).map(|h| Lit::pos(var(i, h))).collect();
            sat.add_clause(&some);
        }
        for h in 0..holes {
            for i in 0..pigeons {
                for j in i + 1..pigeons {
                    sat.add_clause(&[Lit::neg(var(i, h)), Lit::neg(var(j, h))]);
                }
            }
        }
        sat
    }

    #[test]
    fn luby_sequence_starts_as_published() {
        let terms: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn pigeonhole_is_unsatisfiable_with_one_hole_short_and_satisfiable_otherwise() {
        let mut tight = pigeons(6, 5);
        assert_eq!(tight.solve(&mut budget()), Outcome::Unsat);
        assert!(tight.stats.backtracks > 0, "unsat needs conflicts");
        let mut roomy = pigeons(6, 6);
        assert_eq!(roomy.solve(&mut budget()), Outcome::Sat);
        for h in 0..6 {
            let sitting = (0..6).filter(|&i| roomy.value(i * 6 + h)).count();
            assert!(sitting <= 1, "hole {h} holds {sitting} pigeons");
        }
        for i in 0..6 {
            assert!(
                (0..6).any(|h| roomy.value(i * 6 + h)),
                "pigeon {i} has no hole"
            );
        }
    }

    /// A random 3-SAT formula from a fixed linear congruential sequence.
    fn random_3sat(vars: usize, clauses: usize, seed: u64) -> Vec<[Lit; 3]> {
        let mut state = seed;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        (0..clauses)
            .map(|_| {
                [0; 3].map(|_| {
                    let var = next() % vars;
                    if next() % 2 == 0 {
                        Lit::pos(var)
                    } else {
                        Lit::neg(var)
                    }
                })
            })
            .collect()
    }

    /// Whether some assignment of `vars` variables satisfies every clause (exhaustive).
    fn brute_force(vars: usize, clauses: &[[Lit; 3]]) -> bool {
        (0u32..1 << vars).any(|bits| {
            clauses.iter().all(|clause| {
                clause
                    .iter()
                    .any(|l| (bits >> l.var() & 1 == 1) != (l.0 & 1 == 1))
            })
        })
    }

    #[test]
    fn agrees_with_exhaustive_search_on_random_formulas_and_models_satisfy() {
        let (vars, clauses) = (12, 52); // near the 3-SAT threshold: both answers occur
        let (mut sat_seen, mut unsat_seen) = (0, 0);
        for seed in 0..60 {
            let formula = random_3sat(vars, clauses, seed);
            let mut sat = Sat::new();
            for _ in 0..vars {
                sat.new_var();
            }
            for clause in &formula {
                sat.add_clause(clause);
            }
            let outcome = sat.solve(&mut budget());
            assert_eq!(
                outcome == Outcome::Sat,
                brute_force(vars, &formula),
                "seed {seed}"
            );
            if outcome == Outcome::Sat {
                sat_seen += 1;
                for clause in &formula {
                    assert!(
                        clause.iter().any(|l| sat.value(l.var()) != (l.0 & 1 == 1)),
                        "seed {seed}: the model breaks a clause"
                    );
                }
            } else {
                unsat_seen += 1;
            }
        }
        assert!(
            sat_seen > 5 && unsat_seen > 5,
            "{sat_seen} sat, {unsat_seen} unsat"
        );
    }

    #[test]
    fn clauses_added_after_a_solve_cut_the_old_model() {
        let mut sat = Sat::new();
        let (a, b) = (sat.new_var(), sat.new_var());
        sat.add_clause(&[Lit::pos(a), Lit::pos(b)]);
        assert_eq!(sat.solve(&mut budget()), Outcome::Sat);
        let mut models = 0;
        while sat.solve(&mut budget()) == Outcome::Sat {
            models += 1;
            let block: Vec<Lit> = [a, b]
                .iter()
                .map(|&v| {
                    if sat.value(v) {
                        Lit::neg(v)
                    } else {
                        Lit::pos(v)
                    }
                })
                .collect();
            sat.add_clause(&block);
        }
        assert_eq!(models, 3, "a or b has three models");
    }

    #[test]
    fn deleting_learnt_clauses_keeps_answers_right() {
        for (pigeons_count, holes, expected) in [(8, 7, Outcome::Unsat), (8, 8, Outcome::Sat)] {
            let mut sat = pigeons(pigeons_count, holes);
            sat.learnt_limit = 50;
            assert_eq!(
                sat.solve(&mut budget()),
                expected,
                "{pigeons_count} in {holes}"
            );
            if expected == Outcome::Unsat {
                assert!(sat.learnt_limit > 50, "no reduction happened");
                let alive = (0..sat.clauses.len())
                    .filter(|&i| sat.lbd[i] > 0 && !sat.clauses[i].is_empty())
                    .count();
                assert_eq!(alive, sat.learnt, "the learnt count drifted");
                assert!(sat.clauses.iter().any(Vec::is_empty), "nothing was deleted");
            }
        }
    }

    #[test]
    fn a_node_limit_ends_with_limit() {
        let mut hard = pigeons(9, 8);
        let mut tight = Budget::new(Limits {
            max_nodes: Some(50),
            max_time: None,
            stop: None,
        });
        assert_eq!(hard.solve(&mut tight), Outcome::Limit);
        assert_eq!(hard.stats.nodes, 51);
    }
}

//! Search counters (nodes expanded, evaluated, generated; memory; cache hits), counted
//! the same way by every algorithm. Not the `stats` layer: that is the statistics of
//! results (Elo, SPRT, intervals).

use std::ops::AddAssign;

/// Levels kept separately; deeper levels are added into the last one.
pub const MAX_LEVELS: usize = 16;

/// Node counts of one or more searches.
///
/// * `expanded`: nodes whose children were generated (the assignment's definition);
/// * `evaluated`: leaves scored, by the heuristic at the depth limit or as won/lost/drawn
///   at a terminal position.
///
/// Both are also kept per level, the root being level 0. Also:
///
/// * `generated`: children created at expanded nodes (moves listed), whether or not a
///   cutoff skipped them (the assignment's "nodes created");
/// * `peak_bytes`: the most memory the search state held, in bytes (move lists and the
///   positions on the current path);
/// * `cache_hits`: leaves whose score came from the cache of evaluations
///   (`alphabeta-cached`) instead of the heuristic; they count as evaluated too.
///
/// Values add up with `+=` across moves, games and threads (`peak_bytes` takes the maximum).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SearchStats {
    /// Internal nodes: children generated.
    pub expanded: u64,
    /// Leaves given a score.
    pub evaluated: u64,
    /// Children generated at expanded nodes.
    pub generated: u64,
    /// Peak bytes of search state.
    pub peak_bytes: u64,
    /// Evaluated leaves answered by the evaluation cache (older records: 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_hits: u64,
    /// `expanded` by level (root = 0).
    #[serde(with = "levels")]
    pub expanded_by_level: [u64; MAX_LEVELS],
    /// `evaluated` by level (root = 0).
    #[serde(with = "levels")]
    pub evaluated_by_level: [u64; MAX_LEVELS],
}

/// Per-level counts written without their trailing zeros (a depth-3 search fills 4 of
/// the 16 levels), read back padded: journals stay small.
mod levels {
    use super::MAX_LEVELS;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(counts: &[u64; MAX_LEVELS], s: S) -> Result<S::Ok, S::Error> {
        let used = counts
            .iter()
            .rposition(|&c| c != 0)
            .map_or(0, |last| last + 1);
        s.collect_seq(&counts[..used])
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u64; MAX_LEVELS], D::Error> {
        let counts = Vec::<u64>::deserialize(d)?;
        if counts.len() > MAX_LEVELS {
            return Err(serde::de::Error::custom(format!(
                "{} levels, at most {MAX_LEVELS}",
                counts.len()
            )));
        }
        let mut levels = [0; MAX_LEVELS];
        levels[..counts.len()].copy_from_slice(&counts);
        Ok(levels)
    }
}

fn is_zero(count: &u64) -> bool {
    *count == 0
}

impl Default for SearchStats {
    fn default() -> Self {
        SearchStats::ZERO
    }
}

/// A decision's node counts, boxed: a move that counted nothing (a random agent's, most
/// programs') holds none, so returning its decision copies eight bytes, not the 296 of
/// the per-level counters (zeroing and copying them was a fifth of the worker's time in a
/// run of random games). Reads as [`SearchStats`] (all zero when none); a search's
/// decision allocates its box once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DecisionStats(Option<Box<SearchStats>>);

/// The counts of a decision that counted nothing.
static NO_STATS: SearchStats = SearchStats::ZERO;

/// A search's counts, boxed.
impl From<SearchStats> for DecisionStats {
    fn from(stats: SearchStats) -> DecisionStats {
        DecisionStats(Some(Box::new(stats)))
    }
}

impl std::ops::Deref for DecisionStats {
    type Target = SearchStats;
    fn deref(&self) -> &SearchStats {
        self.0.as_deref().unwrap_or(&NO_STATS)
    }
}

impl std::ops::DerefMut for DecisionStats {
    fn deref_mut(&mut self) -> &mut SearchStats {
        self.0.get_or_insert_with(Box::default)
    }
}

impl AddAssign<&DecisionStats> for SearchStats {
    fn add_assign(&mut self, other: &DecisionStats) {
        if let Some(stats) = &other.0 {
            *self += **stats;
        }
    }
}

impl SearchStats {
    /// No counts.
    pub const ZERO: SearchStats = SearchStats {
        expanded: 0,
        evaluated: 0,
        generated: 0,
        peak_bytes: 0,
        cache_hits: 0,
        expanded_by_level: [0; MAX_LEVELS],
        evaluated_by_level: [0; MAX_LEVELS],
    };

    /// Counts one expanded node at `level`.
    #[inline]
    pub fn count_expanded(&mut self, level: usize) {
        self.expanded += 1;
        self.expanded_by_level[level.min(MAX_LEVELS - 1)] += 1;
    }

    /// Takes back one `count_expanded(level)`.
    #[inline]
    pub fn uncount_expanded(&mut self, level: usize) {
        self.expanded -= 1;
        self.expanded_by_level[level.min(MAX_LEVELS - 1)] -= 1;
    }

    /// Counts one evaluated leaf at `level`.
    #[inline]
    pub fn count_evaluated(&mut self, level: usize) {
        self.evaluated += 1;
        self.evaluated_by_level[level.min(MAX_LEVELS - 1)] += 1;
    }

    /// Whether nothing was counted (a journal leaves such counts out). The levels add up
    /// to the totals (see `+=`), so they are not compared one by one.
    pub fn is_zero(&self) -> bool {
        self.counts_no_node() && self.generated == 0 && self.peak_bytes == 0 && self.cache_hits == 0
    }

    /// Whether no node was counted, and so no level holds a count: the levels add up to
    /// the totals (`count_expanded`, `count_evaluated`), so a move that counted no node
    /// (a random agent's, a program's that reports none) needs its 32 levels neither
    /// walked nor compared.
    #[inline]
    fn counts_no_node(&self) -> bool {
        self.expanded == 0 && self.evaluated == 0
    }

    /// Expanded plus evaluated: every node visited.
    pub fn nodes(&self) -> u64 {
        self.expanded + self.evaluated
    }

    /// One past the deepest level with any count (0 when empty).
    pub fn levels_used(&self) -> usize {
        (0..MAX_LEVELS)
            .rev()
            .find(|&l| self.expanded_by_level[l] + self.evaluated_by_level[l] > 0)
            .map_or(0, |l| l + 1)
    }
}

impl AddAssign for SearchStats {
    fn add_assign(&mut self, other: SearchStats) {
        self.expanded += other.expanded;
        self.evaluated += other.evaluated;
        self.generated += other.generated;
        self.peak_bytes = self.peak_bytes.max(other.peak_bytes);
        self.cache_hits += other.cache_hits;
        if other.counts_no_node() {
            return;
        }
        for level in 0..MAX_LEVELS {
            self.expanded_by_level[level] += other.expanded_by_level[level];
            self.evaluated_by_level[level] += other.evaluated_by_level[level];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_add_up_per_level() {
        let mut a = SearchStats::default();
        a.count_expanded(0);
        a.count_evaluated(1);
        a.count_evaluated(1);
        a.peak_bytes = 100;
        let mut b = SearchStats::default();
        b.count_expanded(0);
        b.count_evaluated(40);
        b.generated = 7;
        b.peak_bytes = 60;
        a += b;
        assert_eq!((a.generated, a.peak_bytes), (7, 100));
        assert_eq!(a.expanded, 2);
        assert_eq!(a.evaluated, 3);
        assert_eq!(a.expanded_by_level[0], 2);
        assert_eq!(a.evaluated_by_level[1], 2);
        assert_eq!(a.evaluated_by_level[MAX_LEVELS - 1], 1);
        assert_eq!(a.levels_used(), MAX_LEVELS);
        assert_eq!(SearchStats::default().levels_used(), 0);
    }

    #[test]
    fn a_decision_that_counted_nothing_reads_zero_and_adds_nothing() {
        let none = DecisionStats::default();
        assert_eq!(*none, SearchStats::ZERO);
        assert_eq!(std::mem::size_of::<DecisionStats>(), 8);
        let mut side = SearchStats::default();
        side.count_expanded(0);
        side += &none;
        assert_eq!((side.expanded, side.expanded_by_level[0]), (1, 1));

        let mut counted = SearchStats::default();
        counted.count_evaluated(2);
        let mut decision = DecisionStats::from(counted);
        side += &decision;
        assert_eq!((side.evaluated, side.evaluated_by_level[2]), (1, 1));
        // Written through (a program's self-reported counts): the box is made on demand.
        let mut reported = DecisionStats::default();
        let counts: &mut SearchStats = &mut reported;
        counts.expanded = 5;
        side += &reported;
        assert_eq!(side.expanded, 6);
        decision.generated = 3;
        assert_eq!(decision.generated, 3);
        // Written into the box a search made, and added with it.
        side += &decision;
        assert_eq!((side.generated, side.evaluated), (3, 2));
    }

    #[test]
    fn is_zero_holds_for_no_count_at_all_and_for_nothing_else() {
        assert!(SearchStats::ZERO.is_zero());
        let one_of_each: [fn(&mut SearchStats); 6] = [
            |s| s.count_expanded(3),
            |s| s.count_evaluated(MAX_LEVELS + 5),
            |s| s.generated = 1,
            |s| s.peak_bytes = 1,
            |s| s.cache_hits = 1,
            // A program's self-reported count: a total without its levels.
            |s| s.evaluated = 2,
        ];
        for (i, count) in one_of_each.iter().enumerate() {
            let mut stats = SearchStats::ZERO;
            count(&mut stats);
            assert!(!stats.is_zero(), "count {i}");
            assert_eq!(stats.counts_no_node(), (2..=4).contains(&i), "count {i}");
            let mut sum = SearchStats::ZERO;
            sum += stats;
            assert_eq!(sum, stats, "count {i} added to nothing");
        }
    }
}

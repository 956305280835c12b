//! One slice of a plan, for runs spread over machines (`run --shard I/N`): the plan's jobs
//! split into units that stay together (a colour-swapped pair of games), the units dealt
//! to the N shards in turn across the whole plan (so every matchup is spread evenly), and
//! the slice run as a plan of its own whose records keep the whole plan's ids.

use super::pool::{Earlier, Work};
use std::io;

/// The ids of the whole plan's jobs that shard `index` of `count` runs, in plan order.
pub fn shard_ids<W: Work + ?Sized>(work: &W, index: u64, count: u64) -> Vec<u64> {
    let mut ids = Vec::new();
    let mut unit = 0u64;
    for id in 0..work.jobs() {
        if id > 0 && !work.joined_to_previous(id) {
            unit += 1;
        }
        if unit % count.max(1) == index {
            ids.push(id);
        }
    }
    ids
}

/// A shard of `inner`: its job `k` is the plan's job `ids[k]`.
pub struct Sharded<'a, R> {
    /// The whole plan.
    pub inner: &'a dyn Work<Record = R>,
    /// The plan's ids this shard runs, ascending.
    pub ids: Vec<u64>,
}

impl<R: Send> Work for Sharded<'_, R> {
    type Record = R;

    fn jobs(&self) -> u64 {
        self.ids.len() as u64
    }

    fn groups(&self) -> usize {
        self.inner.groups()
    }

    fn group(&self, id: u64) -> usize {
        self.inner.group(self.ids[id as usize])
    }

    fn stack_bytes(&self) -> Option<usize> {
        self.inner.stack_bytes()
    }

    fn execute(&self, id: u64) -> Option<R> {
        self.inner.execute(self.ids[id as usize])
    }

    fn runnable(&self, id: u64) -> bool {
        self.inner.runnable(self.ids[id as usize])
    }
}

/// The finished jobs of a shard's earlier invocation (kept under the plan's ids), seen
/// with the shard's own numbering.
pub struct ShardEarlier<'a, R> {
    /// Keyed by the plan's ids.
    pub inner: &'a dyn Earlier<R>,
    /// The plan's ids of the shard, ascending.
    pub ids: &'a [u64],
}

impl<R> Earlier<R> for ShardEarlier<'_, R> {
    fn contains(&self, id: u64) -> bool {
        self.ids
            .get(id as usize)
            .is_some_and(|&global| self.inner.contains(global))
    }

    fn next_from(&self, id: u64) -> Option<u64> {
        let mut global = *self.ids.get(id as usize)?;
        loop {
            let found = self.inner.next_from(global)?;
            match self.ids.binary_search(&found) {
                Ok(local) => return Some(local as u64),
                // Not this shard's (cannot happen in a shard's own folder): look further.
                Err(_) => global = found + 1,
            }
        }
    }

    fn record(&self, id: u64) -> io::Result<R> {
        let global = self
            .ids
            .get(id as usize)
            .ok_or_else(|| io::Error::other(format!("job {id} is not in this shard")))?;
        self.inner.record(*global)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `jobs` jobs in pairs (2k, 2k + 1), except that a new group starts every `group`
    /// jobs (a matchup with an odd number of games ends a pair early).
    struct Pairs {
        jobs: u64,
        group: u64,
    }

    impl Work for Pairs {
        type Record = u64;
        fn jobs(&self) -> u64 {
            self.jobs
        }
        fn group(&self, id: u64) -> usize {
            (id / self.group) as usize
        }
        fn execute(&self, id: u64) -> Option<u64> {
            Some(id)
        }
        fn joined_to_previous(&self, id: u64) -> bool {
            let index = id % self.group;
            index % 2 == 1
        }
    }

    #[test]
    fn shards_are_disjoint_cover_the_plan_and_never_split_a_pair() {
        for (jobs, group) in [(0, 4), (1, 1), (7, 7), (20, 5), (24, 6), (101, 10)] {
            let work = Pairs { jobs, group };
            for count in 1..=jobs + 3 {
                let shards: Vec<Vec<u64>> =
                    (0..count).map(|i| shard_ids(&work, i, count)).collect();
                let mut all: Vec<u64> = shards.iter().flatten().copied().collect();
                all.sort_unstable();
                assert_eq!(
                    all,
                    (0..jobs).collect::<Vec<_>>(),
                    "{jobs} jobs, {count} shards"
                );
                for ids in &shards {
                    for &id in ids {
                        if work.joined_to_previous(id) {
                            assert!(ids.contains(&(id - 1)), "pair of {id} split");
                        }
                    }
                }
                // Balanced: the shards' numbers of units (pairs) differ by at most one.
                let units: Vec<usize> = shards
                    .iter()
                    .map(|ids| {
                        ids.iter()
                            .filter(|&&id| !work.joined_to_previous(id))
                            .count()
                    })
                    .collect();
                let (min, max) = (units.iter().min(), units.iter().max());
                assert!(max.zip(min).is_none_or(|(a, b)| a - b <= 1), "{units:?}");
            }
        }
    }

    #[test]
    fn every_group_is_spread_over_the_shards() {
        let work = Pairs {
            jobs: 40,
            group: 10,
        };
        for index in 0..5 {
            let ids = shard_ids(&work, index, 5);
            let groups: std::collections::BTreeSet<usize> =
                ids.iter().map(|&id| work.group(id)).collect();
            assert_eq!(groups.len(), 4, "shard {index}: {ids:?}");
        }
    }

    #[test]
    fn a_shard_runs_and_replays_under_the_plans_ids() {
        struct Done(Vec<u64>);
        impl Earlier<u64> for Done {
            fn contains(&self, id: u64) -> bool {
                self.0.contains(&id)
            }
            fn next_from(&self, id: u64) -> Option<u64> {
                self.0.iter().copied().filter(|&d| d >= id).min()
            }
            fn record(&self, id: u64) -> io::Result<u64> {
                Ok(id)
            }
        }
        let work = Pairs {
            jobs: 12,
            group: 12,
        };
        let ids = shard_ids(&work, 1, 3);
        assert_eq!(ids, vec![2, 3, 8, 9]);
        let shard = Sharded {
            inner: &work,
            ids: ids.clone(),
        };
        assert_eq!(shard.jobs(), 4);
        assert_eq!(shard.execute(2), Some(8));
        let done = Done(vec![3, 9]);
        let earlier = ShardEarlier {
            inner: &done,
            ids: &ids,
        };
        assert!(earlier.contains(1) && !earlier.contains(0));
        assert_eq!(earlier.next_from(2), Some(3));
        assert_eq!(earlier.next_from(4), None);
        assert_eq!(earlier.record(3).expect("kept"), 9);
    }
}

/// Reads `--shard`: `I/N` (I from 0 to N - 1), or `auto`: the index and count from the
/// scheduler's environment, read through `env` (Slurm job arrays, Kubernetes indexed jobs
/// with `ARBITER_SHARDS`, or `ARBITER_SHARD=I/N`).
///
/// # Errors
/// A message for text that is neither, or an environment that names no shard.
pub fn parse_shard(text: &str, env: impl Fn(&str) -> Option<String>) -> Result<[u64; 2], String> {
    let text = text.trim();
    if text != "auto" {
        return parse_pair(text).map_err(|e| format!("--shard {text}: {e}"));
    }
    let number = |name: &str| -> Result<Option<u64>, String> {
        env(name)
            .map(|v| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("--shard auto: {name}={v} is not a whole number"))
            })
            .transpose()
    };
    if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
        let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
        let count = match number("SLURM_ARRAY_TASK_COUNT")? {
            Some(count) => count,
            None => match number("SLURM_ARRAY_TASK_MAX")? {
                Some(max) => (max.saturating_sub(min)) / step + 1,
                None => {
                    return Err(
                        "--shard auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT"
                            .to_string(),
                    );
                }
            },
        };
        let index = id.saturating_sub(min) / step;
        return check(index, count)
            .map_err(|e| format!("--shard auto (Slurm array task {id}): {e}"));
    }
    if let Some(index) = number("JOB_COMPLETION_INDEX")? {
        let count = number("ARBITER_SHARDS")?.ok_or(
            "--shard auto: JOB_COMPLETION_INDEX is set (a Kubernetes indexed job) but not ARBITER_SHARDS: set it to the job's completions",
        )?;
        return check(index, count).map_err(|e| format!("--shard auto: {e}"));
    }
    if let Some(pair) = env("ARBITER_SHARD") {
        return parse_pair(&pair).map_err(|e| format!("--shard auto: ARBITER_SHARD={pair}: {e}"));
    }
    Err("--shard auto: no SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or ARBITER_SHARD in the environment; give --shard I/N".to_string())
}

fn parse_pair(text: &str) -> Result<[u64; 2], String> {
    let (index, count) = text
        .split_once('/')
        .ok_or("expected I/N (shard I of N, I from 0) or auto")?;
    let number = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("'{}' is not a whole number", t.trim()))
    };
    check(number(index)?, number(count)?)
}

fn check(index: u64, count: u64) -> Result<[u64; 2], String> {
    if count == 0 {
        return Err("the number of shards must be at least 1".to_string());
    }
    if index >= count {
        return Err(format!(
            "shard {index} of {count}: the index runs from 0 to {}",
            count - 1
        ));
    }
    Ok([index, count])
}

#[cfg(test)]
mod parse_tests {
    use super::parse_shard;

    fn with(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    #[test]
    fn explicit_and_scheduler_shards() {
        let none = with(&[]);
        assert_eq!(parse_shard("2/4", &none), Ok([2, 4]));
        assert!(
            parse_shard("4/4", &none)
                .expect_err("4/4")
                .contains("from 0 to 3")
        );
        assert!(
            parse_shard("1/0", &none)
                .expect_err("1/0")
                .contains("at least 1")
        );
        assert!(
            parse_shard("x", &none)
                .expect_err("x")
                .contains("expected I/N")
        );
        assert!(
            parse_shard("auto", &none)
                .expect_err("auto")
                .contains("no SLURM_ARRAY_TASK_ID")
        );
        let slurm = with(&[
            ("SLURM_ARRAY_TASK_ID", "7"),
            ("SLURM_ARRAY_TASK_MIN", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(parse_shard("auto", &slurm), Ok([2, 4]));
        let stepped = with(&[
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "6"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ]);
        assert_eq!(parse_shard("auto", &stepped), Ok([2, 4]));
        let k8s = with(&[("JOB_COMPLETION_INDEX", "1"), ("ARBITER_SHARDS", "3")]);
        assert_eq!(parse_shard("auto", &k8s), Ok([1, 3]));
        let k8s_alone = with(&[("JOB_COMPLETION_INDEX", "1")]);
        assert!(
            parse_shard("auto", &k8s_alone)
                .expect_err("count")
                .contains("not ARBITER_SHARDS")
        );
        assert_eq!(
            parse_shard("auto", with(&[("ARBITER_SHARD", "0/2")])),
            Ok([0, 2])
        );
    }
}

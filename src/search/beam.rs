//! Report 004's top-k beam search over the game's action scores.

use super::*;

impl<G: Game, E: Evaluator<G> + ActionEvaluator<G>> Searcher<G, E> {
    /// Report 004's top-k beam search to `depth` own moves (0: greedy on the action
    /// score). Every position whose moves are scored counts as expanded, every scored move
    /// as evaluated. Returns `None` without legal moves.
    pub fn beam(
        &mut self,
        state: &G,
        depth: u32,
        k: usize,
        gamma: f64,
        rng: &mut GameRng,
    ) -> Option<SearchResult<G::Move>> {
        let depth = depth as usize;
        while self.scored.len() <= depth + 1 {
            self.scored.push(Vec::with_capacity(64));
        }
        while self.buffers.len() <= depth + 1 {
            self.buffers.push(Vec::with_capacity(64));
            self.scores.push(Vec::new());
            self.killers.push([None; 2]);
        }
        self.root = state.to_move();
        self.stats = SearchStats::default();
        self.aborted = false;
        self.countdown = 1;
        let mut moves = std::mem::take(&mut self.buffers[0]);
        state.legal_moves(&mut moves);
        seeds::shuffle(rng, &mut moves);
        let ranked = self.rank(state, &moves, 0);
        self.buffers[0] = moves;
        let mut best: Option<(G::Move, f64)> = None;
        for &(score, mv) in ranked.iter().take(if depth == 0 { 1 } else { k.max(1) }) {
            let value = if depth == 0 {
                score
            } else {
                let (next, reply) = self.reply(state, mv, 1);
                self.beam_value(&next, 1, depth, k, gamma, score - reply)
            };
            if self.aborted {
                break;
            }
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((mv, value));
            }
        }
        self.scored[0] = ranked;
        self.stats.peak_bytes = self.state_bytes(depth + 1);
        best.map(|(best, value)| SearchResult {
            best,
            value,
            stats: self.stats,
            complete: !self.aborted,
            reached: depth as u32,
        })
    }

    /// The legal moves of `state` scored for its mover, best first (stable: ties keep
    /// their order). Counts the position as expanded and each move as evaluated.
    fn rank(&mut self, state: &G, moves: &[G::Move], level: usize) -> Vec<(f64, G::Move)> {
        let mut ranked = std::mem::take(&mut self.scored[level]);
        ranked.clear();
        self.stats.count_expanded(level);
        self.stats.generated += moves.len() as u64;
        for &mv in moves {
            self.stats.count_evaluated(level + 1);
            ranked.push((self.evaluator.score(state, mv, self.noise_seed), mv));
        }
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        ranked
    }

    /// Plays `mv` and the opponent's best-scored reply (none once the armies have
    /// separated, or when the game is over); returns the position and the reply's score.
    fn reply(&mut self, state: &G, mv: G::Move, level: usize) -> (G, f64) {
        let mut next = state.clone();
        next.apply(mv);
        if next.outcome().is_some() || self.evaluator.separated(&next) {
            return (next, 0.0);
        }
        let mut moves = std::mem::take(&mut self.buffers[level]);
        next.legal_moves(&mut moves);
        let ranked = self.rank(&next, &moves, level);
        self.buffers[level] = moves;
        let reply = ranked.first().copied();
        self.scored[level] = ranked;
        match reply {
            Some((score, answer)) => {
                next.apply(answer);
                (next, score)
            }
            None => (next, 0.0),
        }
    }

    /// The value of a beam node `t` own moves deep, `path` the decayed reward so far.
    fn beam_value(
        &mut self,
        state: &G,
        t: usize,
        depth: usize,
        k: usize,
        gamma: f64,
        path: f64,
    ) -> f64 {
        if self.out_of_time() {
            return path;
        }
        if let Some(outcome) = state.outcome() {
            return path + finished_value(state, outcome, self.root);
        }
        let mut moves = std::mem::take(&mut self.buffers[t]);
        state.legal_moves(&mut moves);
        let ranked = self.rank(state, &moves, t);
        self.buffers[t] = moves;
        let decay = gamma.powi(t as i32);
        let value = if t == depth {
            path + decay * ranked.first().map_or(0.0, |r| r.0)
        } else {
            let mut best = f64::NEG_INFINITY;
            for &(score, mv) in ranked.iter().take(k.max(1)) {
                let (next, reply) = self.reply(state, mv, t + 1);
                let value = self.beam_value(
                    &next,
                    t + 1,
                    depth,
                    k,
                    gamma,
                    path + decay * (score - reply),
                );
                best = best.max(value);
            }
            if best.is_finite() { best } else { path }
        };
        self.scored[t] = ranked;
        value
    }
}

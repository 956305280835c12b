//! Each thread's client of a program game: its connection, the cache of what it was
//! told by position, its failures and restarts, and the typed calls of rules inside the
//! process.

use super::*;

/// A child position as the cache keeps it.
#[derive(Clone, Debug)]
pub(super) struct Child {
    pub(super) position: Arc<str>,
    pub(super) hash: u64,
    pub(super) status: Status,
}

/// What a client knows of one position.
#[derive(Debug, Default)]
pub(super) struct Entry {
    pub(super) position: Option<Arc<str>>,
    pub(super) legal: Option<Arc<[Box<str>]>>,
    /// Chance's probabilities of the legal moves, at a chance position.
    pub(super) probabilities: Option<Arc<[f64]>>,
    pub(super) children: Vec<Option<Child>>,
    pub(super) features: Option<Arc<[f64]>>,
    pub(super) values: [Option<f64>; Player::MAX],
    pub(super) rendered: Option<Arc<Value>>,
    /// Each player's observation (games with hidden information).
    observations: [Option<Arc<str>>; Player::MAX],
}

/// A thread's program for one definition, with its cache.
pub(super) struct Client {
    pub(super) def: Arc<ProgramGameDef>,
    pub(super) connection: Option<Connection>,
    /// Failures so far: a position made before the latest one reads as failed.
    pub(super) epoch: u64,
    pub(super) cache: HashMap<u64, Entry>,
    /// The generation before `cache` (see [`Client::entry_at`]).
    pub(super) older: HashMap<u64, Entry>,
    pub(super) reasons: Vec<&'static str>,
    /// The children of the position whose children were last asked for together: a
    /// question about one of them (its legal moves, features, value) is asked about all
    /// that lack its answer at once, since a search asks it of each in turn.
    pub(super) siblings: Vec<Child>,
}

/// A question about a position whose answer the cache keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Ask {
    Legal,
    Features,
    Value(Player),
}

impl Ask {
    pub(super) fn message(self, position: &str) -> Value {
        match self {
            Ask::Legal => json!({"type": "legal", "position": position}),
            Ask::Features => json!({"type": "features", "position": position}),
            Ask::Value(player) => {
                json!({"type": "evaluate", "position": position, "player": player.label()})
            }
        }
    }

    pub(super) fn expected(self) -> &'static str {
        match self {
            Ask::Legal => "legal",
            Ask::Features => "features",
            Ask::Value(_) => "value",
        }
    }

    pub(super) fn known(self, entry: &Entry) -> bool {
        match self {
            Ask::Legal => entry.legal.is_some(),
            Ask::Features => entry.features.is_some(),
            Ask::Value(player) => entry.values[player.index()].is_some(),
        }
    }

    /// Reads `reply` into `entry`.
    ///
    /// # Errors
    /// What is wrong with the reply.
    fn store(self, entry: &mut Entry, reply: &Value, features: usize) -> Result<(), String> {
        match self {
            Ask::Legal => {
                let moves: Option<Vec<Box<str>>> = reply["moves"]
                    .as_array()
                    .and_then(|moves| moves.iter().map(|m| m.as_str().map(Box::from)).collect());
                let moves = moves.ok_or_else(|| {
                    format!(
                        "answered `legal` with {} (no \"moves\" list of strings)",
                        clip(&reply.to_string())
                    )
                })?;
                if moves.len() > usize::from(u16::MAX) {
                    return Err(format!(
                        "`legal` gave {} moves, more than {}",
                        moves.len(),
                        u16::MAX
                    ));
                }
                if moves.is_empty() {
                    return Err(
                        "`legal` gave no move in a position whose `status` says a side is to move"
                            .to_string(),
                    );
                }
                if let Some(bad) = moves.iter().find(|m| unrecordable(m)) {
                    return Err(unrecordable_message("legal", bad));
                }
                entry.probabilities = match &reply["chance"] {
                    Value::Null => None,
                    given => Some(
                        chance_probabilities(given, moves.len())
                            .map_err(|e| e.to_string())?
                            .into(),
                    ),
                };
                entry.children = vec![None; moves.len()];
                entry.legal = Some(moves.into());
            }
            Ask::Features => {
                let side = |key: &str| -> Option<Vec<f64>> {
                    let values = reply[key].as_array()?;
                    (values.len() == features)
                        .then(|| {
                            values
                                .iter()
                                .map(Value::as_f64)
                                .collect::<Option<Vec<f64>>>()
                        })
                        .flatten()
                        .filter(|v| v.iter().all(|x| x.is_finite()))
                };
                let (Some(p1), Some(p2)) = (side("P1"), side("P2")) else {
                    return Err(format!(
                        "answered `features` with {} (expected \"P1\" and \"P2\": lists of {features} numbers, one per feature named in `ready`)",
                        clip(&reply.to_string())
                    ));
                };
                entry.features = Some(p1.into_iter().chain(p2).collect::<Vec<_>>().into());
            }
            Ask::Value(player) => {
                let value = reply["value"]
                    .as_f64()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| {
                        format!(
                            "answered `evaluate` with {} (no finite \"value\")",
                            clip(&reply.to_string())
                        )
                    })?;
                entry.values[player.index()] = Some(value);
            }
        }
        Ok(())
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Some(connection) = self.connection.take() {
            connection.stop(true);
        }
    }
}

pub(super) type SharedClient = Arc<Mutex<Client>>;

thread_local! {
    /// This thread's clients, one per definition used on it.
    static CLIENTS: RefCell<Vec<SharedClient>> = const { RefCell::new(Vec::new()) };
}

/// Every client of every thread, to stop their programs when arbiter ends.
static EVERY_CLIENT: Mutex<Vec<Weak<Mutex<Client>>>> = Mutex::new(Vec::new());

pub(super) fn install(client: Client) -> SharedClient {
    let shared = Arc::new(Mutex::new(client));
    let mut every = EVERY_CLIENT.lock().unwrap_or_else(PoisonError::into_inner);
    every.retain(|c| c.strong_count() > 0);
    every.push(Arc::downgrade(&shared));
    CLIENTS.with(|clients| clients.borrow_mut().push(Arc::clone(&shared)));
    shared
}

/// Stops every rules program still running (arbiter is about to exit).
pub fn stop_rules_programs() {
    let every: Vec<SharedClient> = EVERY_CLIENT
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .filter_map(Weak::upgrade)
        .collect();
    let mut connections: Vec<Connection> = every
        .iter()
        .filter_map(|c| {
            c.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .connection
                .take()
        })
        .collect();
    // Ask them all to quit first, then wait: one grace period, not one per program.
    for program in connections.iter_mut().filter_map(Connection::program) {
        let _ = program.send(&json!({"type": "quit"}));
    }
    for connection in connections {
        connection.stop(true);
    }
}

/// Runs `work` with this thread's client for `def`, made on first use.
pub(super) fn with_client<T>(def: &Arc<ProgramGameDef>, work: impl FnOnce(&mut Client) -> T) -> T {
    let shared = CLIENTS.with(|clients| {
        clients
            .borrow()
            .iter()
            .find(|c| c.lock().unwrap_or_else(PoisonError::into_inner).def.id == def.id)
            .cloned()
    });
    let shared = shared.unwrap_or_else(|| {
        install(Client {
            def: Arc::clone(def),
            connection: None,
            epoch: 0,
            cache: HashMap::new(),
            older: HashMap::new(),
            reasons: Vec::new(),
            siblings: Vec::new(),
        })
    });
    let mut client = shared.lock().unwrap_or_else(PoisonError::into_inner);
    work(&mut client)
}

/// This thread's failure count for `def` (0 before its first failure).
pub(super) fn epoch_of(def: &Arc<ProgramGameDef>) -> u64 {
    CLIENTS.with(|clients| {
        clients
            .borrow()
            .iter()
            .find_map(|c| {
                let c = c.lock().unwrap_or_else(PoisonError::into_inner);
                (c.def.id == def.id).then_some(c.epoch)
            })
            .unwrap_or(0)
    })
}

impl Client {
    /// Asks the program (started if need be); on a failure the program is stopped, the
    /// failure counted and said, and `None` returned.
    pub(super) fn ask(&mut self, message: Value, expected: &str, about: &str) -> Option<Value> {
        let result = match &mut self.connection {
            Some(connection) => connection.ask(&message, expected, self.def.spec.request_ms),
            None => match Connection::start(&self.def) {
                Ok(mut connection) => {
                    connection.ready = None;
                    let reply = connection.ask(&message, expected, self.def.spec.request_ms);
                    self.connection = Some(connection);
                    reply
                }
                Err(e) => Err(e),
            },
        };
        match result {
            Ok(reply) => Some(reply),
            Err(why) => {
                self.fail(&format!("{why} ({about})"));
                None
            }
        }
    }

    /// Starts the program if it is not running (a failure is said and counted, and the
    /// next request tries again).
    pub(super) fn start(&mut self) {
        if self.connection.is_some() {
            return;
        }
        match Connection::start(&self.def) {
            Ok(mut connection) => {
                connection.ready = None;
                self.connection = Some(connection);
            }
            Err(why) => self.fail(&why),
        }
    }

    /// Counts and says a failure; the program is restarted on the next request.
    pub(super) fn fail(&mut self, why: &str) {
        if let Some(connection) = self.connection.take() {
            connection.stop(false);
        }
        self.epoch += 1;
        self.cache.clear();
        self.older.clear();
        self.siblings.clear();
        let total = self.def.failures.fetch_add(1, Ordering::Relaxed) + 1;
        if total <= SHOWN_FAILURES {
            // Never a panic on a closed output (a run stops cleanly on its own then).
            let _ = writeln!(
                std::io::stderr(),
                "warning: rules {}of game '{}' (`{}`): {why}; the game is recorded as {RULES_FAILURE}{}",
                match (&self.def.spec.library, &self.def.spec.hosted) {
                    (Some(_), _) => "library ",
                    (None, Some(_)) => "",
                    (None, None) => "program ",
                },
                self.def,
                self.def.spec.command_line(),
                if total == SHOWN_FAILURES {
                    " (further failures are not shown)"
                } else {
                    ""
                }
            );
        }
    }

    fn entry(&mut self, state: &ProgramGame) -> &mut Entry {
        self.entry_at(state.hash, &state.position)
    }

    fn entry_at(&mut self, hash: u64, position: &Arc<str>) -> &mut Entry {
        if !self.cache.contains_key(&hash) {
            // Two generations: a position asked for again comes back from the older one;
            // when the newer is full it becomes the older, and the older is forgotten.
            let kept = self.older.remove(&hash);
            if self.cache.len() >= CACHE_POSITIONS / 2 {
                self.older = std::mem::take(&mut self.cache);
            }
            if let Some(kept) = kept {
                self.cache.insert(hash, kept);
            }
        }
        let entry = self.cache.entry(hash).or_default();
        match &entry.position {
            Some(known) if Arc::ptr_eq(known, position) || **known == **position => {}
            Some(_) => {
                // Two positions with one hash: the newer one takes the slot.
                *entry = Entry::default();
                entry.position = Some(Arc::clone(position));
            }
            None => entry.position = Some(Arc::clone(position)),
        }
        entry
    }

    /// Makes sure the cache holds `ask`'s answer about `state`: asked about it alone, or
    /// about every sibling that lacks it when `state` is one of the last children asked
    /// for together. `None` after a failure (said and counted).
    fn fetch(&mut self, state: &ProgramGame, ask: Ask) -> Option<&mut Entry> {
        if ask.known(self.entry(state)) {
            return Some(self.entry(state));
        }
        let mut targets: Vec<(u64, Arc<str>)> = Vec::new();
        if self
            .siblings
            .iter()
            .any(|c| c.hash == state.hash && *c.position == *state.position)
        {
            let siblings = std::mem::take(&mut self.siblings);
            for child in &siblings {
                // Finished positions have no legal moves to ask for.
                let wanted = !(ask == Ask::Legal && child.status.over.is_some());
                if wanted && !ask.known(self.entry_at(child.hash, &child.position)) {
                    targets.push((child.hash, Arc::clone(&child.position)));
                }
            }
            self.siblings = siblings;
        }
        match targets.iter().position(|(h, _)| *h == state.hash) {
            // `state` last: storing the others' answers may make the cache forget older
            // positions, and `state`'s answer must be there when this returns.
            Some(at) => {
                let last = targets.len() - 1;
                targets.swap(at, last);
            }
            None => targets = vec![(state.hash, Arc::clone(&state.position))],
        }
        let messages: Vec<Value> = targets.iter().map(|(_, p)| ask.message(p)).collect();
        let about = |position: &str| format!("position '{}'", clip(position));
        let replies = match &mut self.connection {
            Some(connection) => {
                connection.ask_many(&messages, ask.expected(), self.def.spec.request_ms)
            }
            None => {
                // Not started (after a failure): one request, about `state`, starts it.
                let last = messages.len() - 1;
                let reply = self.ask(
                    messages[last].clone(),
                    ask.expected(),
                    &about(&state.position),
                )?;
                targets.swap(0, last);
                targets.truncate(1);
                Ok(vec![reply])
            }
        };
        let replies = match replies {
            Ok(replies) => replies,
            Err((at, why)) => {
                let position = targets.get(at).map_or(&state.position, |(_, p)| p);
                self.fail(&format!("{why} ({})", about(position)));
                return None;
            }
        };
        let features = self.def.features.len();
        for ((hash, position), reply) in targets.iter().zip(replies) {
            let entry = self.entry_at(*hash, position);
            if let Err(why) = ask.store(entry, &reply, features) {
                self.fail(&format!("{why} ({})", about(position)));
                return None;
            }
        }
        Some(self.entry(state))
    }

    /// Why a library's typed call about `state` failed: the same question asked as a
    /// request, whose `error` reply says why (`otherwise` when the request succeeds).
    fn typed_failure(
        &mut self,
        call: &str,
        message: Value,
        expected: &str,
        otherwise: &str,
    ) -> String {
        let said = self
            .connection
            .as_mut()
            .and_then(Connection::in_process)
            .and_then(InProcess::take_error);
        if let Some(why) = said {
            return format!("`{call}` failed: {why}");
        }
        let asked = self
            .connection
            .as_mut()
            .map(|c| c.ask(&message, expected, self.def.spec.request_ms));
        match asked {
            Some(Err(why)) => format!("`{call}` failed; as a request: {why}"),
            _ => otherwise.to_string(),
        }
    }

    /// The library context of this thread, opened if need be.
    pub(super) fn context(&mut self) -> Option<&mut dyn InProcess> {
        self.start();
        self.connection.as_mut()?.in_process()
    }

    /// The number of `state`'s legal moves, by the library's typed `count`.
    pub(super) fn typed_count(&mut self, state: &ProgramGame) -> Option<usize> {
        let count = self.context()?.count(&state.position);
        let about = format!("position '{}'", clip(&state.position));
        match count {
            Some(n @ 1..=0xffff) => Some(n),
            Some(0) => {
                self.fail(&format!(
                    "`count` gave no move in a position whose status says a side is to move ({about})"
                ));
                None
            }
            Some(n) => {
                self.fail(&format!(
                    "`count` gave {n} moves, more than {} ({about})",
                    u16::MAX
                ));
                None
            }
            None => {
                let message = json!({"type": "legal", "position": &*state.position});
                let why = self.typed_failure(
                    "count",
                    message,
                    "legal",
                    "`count` failed (the same question as a request did not)",
                );
                self.fail(&format!("{why} ({about})"));
                None
            }
        }
    }

    /// The child of `state` after legal move `index`, by the library's typed `apply`.
    pub(super) fn typed_child(&mut self, state: &ProgramGame, index: u16) -> Option<Child> {
        let players = self.def.players;
        self.start();
        let about = || format!("move #{index} of position '{}'", clip(&state.position));
        let context = self.connection.as_mut()?.in_process()?;
        let (position, status) = match context.apply(&state.position, index) {
            Some((text, status)) => (Arc::<str>::from(text), status),
            None => {
                let message = json!({"type": "legal", "position": &*state.position});
                let why = self.typed_failure(
                    "apply",
                    message,
                    "legal",
                    "`apply` failed on a move the legal moves hold",
                );
                self.fail(&format!("{why} ({})", about()));
                return None;
            }
        };
        let seat = |n: i32| {
            usize::try_from(n)
                .ok()
                .filter(|&n| n < players)
                .map(|n| Player::seats(players)[n])
        };
        let to_move = seat(status.to_move);
        let status = if status.over {
            let winner = match status.winner {
                -1 => Some(None),
                n => seat(n).map(Some),
            };
            let reason = if status.reason.is_empty() {
                "over"
            } else {
                status.reason
            };
            winner.map(|winner| Status {
                to_move: to_move.unwrap_or(Player::P1),
                chance: false,
                over: Some((winner, intern(reason, &mut self.reasons))),
                returns: None,
                round: false,
            })
        } else {
            to_move.map(|to_move| Status {
                to_move,
                chance: status.chance,
                over: None,
                returns: None,
                round: false,
            })
        };
        let Some(status) = status else {
            self.fail(&format!(
                "`apply` gave a status naming no seat of a game of {players} players ({})",
                about()
            ));
            return None;
        };
        Some(Child {
            hash: hash_of(&position),
            position,
            status,
        })
    }

    /// Calls `work` with the text of legal move `index` of `state`, by the library's typed
    /// `move_text` (`None` after a failure).
    pub(super) fn typed_move_text<T>(
        &mut self,
        state: &ProgramGame,
        index: u16,
        work: impl FnOnce(&str) -> T,
    ) -> Option<T> {
        let mut bad = None;
        if let Some(text) = self.context()?.move_text(&state.position, index) {
            if !unrecordable(text) {
                return Some(work(text));
            }
            bad = Some(unrecordable_message("move_text", text));
        }
        if let Some(why) = bad {
            self.fail(&why);
            return None;
        }
        let message = json!({"type": "legal", "position": &*state.position});
        let why = self.typed_failure(
            "move_text",
            message,
            "legal",
            "`move_text` failed (the same question as a request did not)",
        );
        self.fail(&format!(
            "{why} (move #{index} of position '{}')",
            clip(&state.position)
        ));
        None
    }

    /// The library's value of `state` for `player`, by its typed `evaluate`.
    pub(super) fn typed_value(&mut self, state: &ProgramGame, player: Player) -> Option<f64> {
        if let Some(value) = self.context()?.evaluate(&state.position, player.index()) {
            return Some(value);
        }
        let message = json!({"type": "evaluate", "position": &*state.position,
                             "player": player.label()});
        let why = self.typed_failure(
            "evaluate",
            message,
            "value",
            "`evaluate` failed (the same question as a request did not)",
        );
        self.fail(&format!(
            "{why} (position '{}'; a value must be finite)",
            clip(&state.position)
        ));
        None
    }

    /// The legal moves of `state`, asked once.
    pub(super) fn legal(&mut self, state: &ProgramGame) -> Option<Arc<[Box<str>]>> {
        self.fetch(state, Ask::Legal)?.legal.clone()
    }

    /// Chance's probabilities of `state`'s legal moves, if the program gave them.
    pub(super) fn probabilities(&mut self, state: &ProgramGame) -> Option<Arc<[f64]>> {
        self.fetch(state, Ask::Legal)?.probabilities.clone()
    }

    /// The position after legal move `index` of `state`, with its status. Once a second
    /// child of a position is wanted (a search, not a playout), every child not known yet
    /// is asked for at once: one round trip instead of one per move.
    pub(super) fn child(&mut self, state: &ProgramGame, index: u16) -> Option<Child> {
        let legal = self.legal(state)?;
        let index = usize::from(index);
        let known = {
            let entry = self.entry(state);
            if let Some(Some(child)) = entry.children.get(index) {
                return Some(child.clone());
            }
            entry.children.iter().filter(|c| c.is_some()).count()
        };
        if index >= legal.len() {
            return None;
        }
        let wanted: Vec<usize> = if known == 0 {
            vec![index]
        } else {
            let entry = self.entry(state);
            (0..legal.len())
                .filter(|&i| entry.children.get(i).is_some_and(Option::is_none))
                .collect()
        };
        let messages: Vec<Value> = wanted
            .iter()
            .map(|&i| json!({"type": "apply", "position": &*state.position, "move": &*legal[i]}))
            .collect();
        let about = |i: usize| {
            format!(
                "move '{}' in position '{}'",
                clip(&legal[i]),
                clip(&state.position)
            )
        };
        let replies = match &mut self.connection {
            Some(connection) => {
                connection.ask_many(&messages, "position", self.def.spec.request_ms)
            }
            None => Err((0, String::new())),
        };
        let replies = match replies {
            Ok(replies) => replies,
            Err((_, why)) if why.is_empty() => {
                // Not started (after a failure): one request starts it.
                let reply = self.ask(messages[0].clone(), "position", &about(wanted[0]))?;
                let child = self.child_of(reply, &about(wanted[0]))?;
                if let Some(slot) = self.entry(state).children.get_mut(wanted[0]) {
                    *slot = Some(child.clone());
                }
                return (wanted[0] == index).then_some(child);
            }
            Err((at, why)) => {
                let at = about(wanted.get(at).copied().unwrap_or(wanted[0]));
                self.fail(&format!("{why} ({at})"));
                return None;
            }
        };
        let mut found = None;
        for (&i, reply) in wanted.iter().zip(replies) {
            let child = self.child_of(reply, &about(i))?;
            if i == index {
                found = Some(child.clone());
            }
            if let Some(slot) = self.entry(state).children.get_mut(i) {
                *slot = Some(child);
            }
        }
        if wanted.len() > 1 {
            self.siblings = self
                .entry(state)
                .children
                .iter()
                .flatten()
                .cloned()
                .collect();
        }
        found
    }

    /// The child an `apply` reply describes, with its status (asked for when the reply
    /// does not carry it).
    fn child_of(&mut self, reply: Value, about: &str) -> Option<Child> {
        let position = match position_of(&reply, "apply") {
            Ok(position) => position,
            Err(e) => {
                self.fail(&format!("{e} ({about})"));
                return None;
            }
        };
        // A program may give the new position's status with it, saving a request.
        let status_reply = match reply.get("status") {
            Some(status) if status.is_object() => status.clone(),
            _ => self.ask(
                json!({"type": "status", "position": &*position}),
                "status",
                &format!("position '{}'", clip(&position)),
            )?,
        };
        let status = match status_of(&status_reply, self.def.players, &mut self.reasons) {
            Ok(status) => status,
            Err(e) => {
                self.fail(&format!("`status`: {e} ({about})"));
                return None;
            }
        };
        Some(Child {
            hash: hash_of(&position),
            position,
            status,
        })
    }

    /// The program's features of `state`: both sides' numbers, P1's first.
    pub(super) fn features(&mut self, state: &ProgramGame) -> Option<Arc<[f64]>> {
        self.fetch(state, Ask::Features)?.features.clone()
    }

    /// The program's own value of `state` for `player` (larger is better for `player`).
    pub(super) fn value(&mut self, state: &ProgramGame, player: Player) -> Option<f64> {
        self.fetch(state, Ask::Value(player))?.values[player.index()]
    }

    /// What `player` observes of `state` (`observation`), asked once.
    pub(super) fn observation(&mut self, state: &ProgramGame, player: Player) -> Option<Arc<str>> {
        if let Some(known) = &self.entry(state).observations[player.index()] {
            return Some(Arc::clone(known));
        }
        let about = format!("position '{}'", clip(&state.position));
        let reply = self.ask(
            json!({"type": "observation", "position": &*state.position, "player": player.label()}),
            "observation",
            &about,
        )?;
        let Some(text) = reply["observation"].as_str() else {
            self.fail(&format!(
                "answered `observation` with {} (no \"observation\" string) ({about})",
                clip(&reply.to_string())
            ));
            return None;
        };
        let text: Arc<str> = Arc::from(text);
        self.entry(state).observations[player.index()] = Some(Arc::clone(&text));
        Some(text)
    }

    /// A position `player` cannot tell from `state`, drawn by the program from `seed`
    /// (`sample`); not kept, since each seed gives another.
    pub(super) fn sample(
        &mut self,
        state: &ProgramGame,
        player: Player,
        seed: u64,
    ) -> Option<Child> {
        let about = format!("`sample` of position '{}'", clip(&state.position));
        let reply = self.ask(
            json!({"type": "sample", "position": &*state.position, "player": player.label(),
                   "seed": seed & SEED_MASK}),
            "position",
            &about,
        )?;
        self.child_of(reply, &about)
    }

    /// The position where `state`'s round of simultaneous moves began: its status names it
    /// (`"round_start"`), and that position's own status is asked for.
    pub(super) fn round_start(&mut self, state: &ProgramGame) -> Option<Child> {
        let about = format!("the round's start of position '{}'", clip(&state.position));
        let reply = self.ask(
            json!({"type": "status", "position": &*state.position}),
            "status",
            &about,
        )?;
        let Some(start) = reply["round_start"].as_str() else {
            self.fail(&format!(
                "its status no longer names where the round began (\"round_start\") ({about})"
            ));
            return None;
        };
        self.child_of(json!({"position": start}), &about)
    }

    /// Any other request about `state` whose whole reply is wanted (`render`, `view`),
    /// kept for `render`.
    pub(super) fn reply(&mut self, state: &ProgramGame, request: &str) -> Option<Arc<Value>> {
        if request == "render"
            && let Some(rendered) = &self.entry(state).rendered
        {
            return Some(Arc::clone(rendered));
        }
        let about = format!("position '{}'", clip(&state.position));
        let reply = Arc::new(self.ask(
            json!({"type": request, "position": &*state.position}),
            request,
            &about,
        )?);
        if request == "render" {
            self.entry(state).rendered = Some(Arc::clone(&reply));
        }
        Some(reply)
    }
}

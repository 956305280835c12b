//! A built-in agent behind the protocol: reads requests on one stream, answers on another,
//! so other harnesses can use arbiter's agents (`arbiter serve-agent`), and so the protocol
//! is tested against itself.

use super::PROTOCOL_VERSION;
use crate::core::{Agent, Game, GameContext, Limits, Player, json};
use serde_json::{Value, json};
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

/// Builds the served agent for one game from its seed.
pub type MakeAgent<'a, G> = &'a dyn Fn(u64) -> Box<dyn Agent<G>>;

/// Answers requests from `input` on `output` until `quit` or the end of input, playing
/// `game_name` from `start` with agents made by `make` (a fresh one per `new_game`, seeded
/// as told). Problems with a request are reported on `log` (stderr), one line each, and
/// the request is skipped.
///
/// # Errors
/// Reading or writing fails.
pub fn serve<G: Game>(
    start: &G,
    game_name: &str,
    agent_name: &str,
    make: MakeAgent<'_, G>,
    mut input: impl BufRead,
    mut output: impl Write,
    log: &mut dyn Write,
) -> io::Result<()> {
    let mut agent: Option<Box<dyn Agent<G>>> = None;
    let mut positions = Positions::new(start);
    // One line's memory and one reply's, kept from request to request.
    let (mut read, mut reply_bytes, mut moves) = (String::new(), Vec::new(), Vec::new());
    let mut number = 0;
    loop {
        read.clear();
        if input.read_line(&mut read)? == 0 {
            break;
        }
        number += 1;
        // The line without its end (LF or CR LF), as `BufRead::lines` gives it.
        let line = read
            .strip_suffix('\n')
            .map_or(read.as_str(), |l| l.strip_suffix('\r').unwrap_or(l));
        if line.trim().is_empty() {
            continue;
        }
        // The request of every ply, read without a JSON tree; anything the quick reader
        // does not take (another type, another form) goes the general way below.
        if let Some(request) = super::move_line::read(line, &mut moves) {
            let agent = agent.get_or_insert_with(|| make(0));
            let texts: Vec<&str> = moves.iter().map(|range| &line[range.clone()]).collect();
            match answer_move(
                agent.as_mut(),
                &mut positions,
                &texts,
                request.time_ms,
                request.clock.as_ref(),
            ) {
                Ok(reply) => write_reply(&mut output, &mut reply_bytes, |out| reply.write(out))?,
                Err(e) => writeln!(log, "serve-agent: line {number}: {e}")?,
            }
            continue;
        }
        let request: Value = match serde_json::from_str(line) {
            Ok(request) => request,
            Err(e) => {
                writeln!(log, "serve-agent: line {number}: not JSON ({e})")?;
                continue;
            }
        };
        let reply = match request["type"].as_str().unwrap_or("") {
            "hello" => {
                let version = request["protocol"].as_u64();
                if !version.is_some_and(|v| (1..=u64::from(PROTOCOL_VERSION)).contains(&v)) {
                    writeln!(
                        log,
                        "serve-agent: hello for protocol {version:?}, this is protocol {PROTOCOL_VERSION}"
                    )?;
                }
                if let Some(game) = request["game"].as_str()
                    && game != game_name
                {
                    writeln!(
                        log,
                        "serve-agent: hello is for game {game}, this agent plays {game_name}"
                    )?;
                }
                Some(json!({"type": "ready", "name": agent_name, "protocol": PROTOCOL_VERSION}))
            }
            "ping" => Some(json!({"type": "pong", "id": request["id"]})),
            "new_game" => {
                let seed = request["seed"].as_u64().unwrap_or(0);
                let mut fresh = make(seed);
                let seat = match request["seat"].as_str() {
                    Some("P2") => Player::P2,
                    _ => Player::P1,
                };
                let opening = strings(&request["opening"]).join(";");
                fresh.start_game(
                    start,
                    &GameContext {
                        id: request["game_id"].as_u64().unwrap_or(0),
                        seat,
                        seed,
                        opening: &opening,
                        move_time: None,
                        logs: None,
                    },
                );
                agent = Some(fresh);
                None
            }
            "move" => {
                let agent = agent.get_or_insert_with(|| make(0));
                let texts = strings(&request["moves"]);
                let clock = request.get("clock");
                let time_ms = request["time_ms"].as_u64();
                match answer_move(agent.as_mut(), &mut positions, &texts, time_ms, clock) {
                    Ok(reply) => {
                        write_reply(&mut output, &mut reply_bytes, |out| reply.write(out))?;
                        None
                    }
                    Err(e) => {
                        writeln!(log, "serve-agent: line {number}: {e}")?;
                        None
                    }
                }
            }
            "game_over" => {
                if let Some(agent) = &mut agent {
                    let winner = match request["winner"].as_str() {
                        Some("P1") => Some(Player::P1),
                        Some("P2") => Some(Player::P2),
                        _ => None,
                    };
                    agent.end_game(winner, request["reason"].as_str().unwrap_or(""));
                }
                None
            }
            "quit" => return Ok(()),
            other => {
                writeln!(
                    log,
                    "serve-agent: line {number}: unknown request type '{other}'"
                )?;
                None
            }
        };
        if let Some(reply) = reply {
            write_reply(&mut output, &mut reply_bytes, |out| {
                serde_json::to_writer(out, &reply)
            })?;
        }
    }
    Ok(())
}

/// One reply: the JSON line `write` appends, made in `bytes` and written whole, then
/// flushed (written piece by piece, stdout's line buffer searched each piece for a line
/// end).
fn write_reply(
    output: &mut impl Write,
    bytes: &mut Vec<u8>,
    write: impl FnOnce(&mut Vec<u8>) -> serde_json::Result<()>,
) -> io::Result<()> {
    bytes.clear();
    write(bytes)?;
    bytes.push(b'\n');
    output.write_all(bytes)?;
    output.flush()
}

/// The answer to a move request: the move, and what the search counted (its `info`).
struct MoveReply {
    depth: u32,
    evaluated: u64,
    nodes: u64,
    score: Option<f64>,
    mv: String,
}

impl MoveReply {
    /// Appends the bytes serde_json writes for the reply's object, keys in the order a
    /// JSON object's keys sort (written through serde's derived writer, it cost more
    /// than the random agent's move).
    fn write(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.extend_from_slice(b"{\"info\":{\"depth\":");
        json::push_u64(out, u64::from(self.depth));
        out.extend_from_slice(b",\"evaluated\":");
        json::push_u64(out, self.evaluated);
        out.extend_from_slice(b",\"nodes\":");
        json::push_u64(out, self.nodes);
        out.extend_from_slice(b",\"score\":");
        match self.score {
            Some(score) => serde_json::to_writer(&mut *out, &score)?,
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b"},\"move\":");
        json::push_str(out, &self.mv);
        out.extend_from_slice(b",\"type\":\"move\"}");
        Ok(())
    }
}

/// The agent's move in the position after `texts` (the game's moves), with `time_ms` to
/// decide and the game clock if one is given; an error names a move that is not legal
/// where it stands.
fn answer_move<G: Game, S: AsRef<str>>(
    agent: &mut dyn Agent<G>,
    positions: &mut Positions<G>,
    texts: &[S],
    time_ms: Option<u64>,
    clock: Option<&Value>,
) -> Result<MoveReply, String> {
    let state = positions.after(texts)?;
    let limits = Limits {
        deadline: time_ms.and_then(|ms| Instant::now().checked_add(Duration::from_millis(ms))),
        stop: None,
    };
    if let Some(clock) = clock.and_then(super::clock_from) {
        agent.see_clock(&clock);
    }
    if let Some(reason) = crate::core::stuck(&state) {
        return Err(format!(
            "no legal move in this position ({reason}: the game's rules program failed)"
        ));
    }
    let decision = agent.decide(&state, &limits);
    Ok(MoveReply {
        depth: decision.depth,
        evaluated: decision.stats.evaluated,
        nodes: decision.stats.expanded,
        score: decision.value,
        mv: state.format_move(decision.mv),
    })
}

/// The strings of a JSON list (anything else in it, or a value that is no list: none).
fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The position of the last request, kept so that the next one, whose history usually
/// extends it by a move or two, costs its new moves rather than the whole game again.
struct Positions<G: Game> {
    start: G,
    /// The moves that reach `state` from `start`, as the requests wrote them.
    history: Vec<String>,
    state: G,
    /// The legal moves there (kept to reuse its memory).
    legal: Vec<G::Move>,
}

impl<G: Game> Positions<G> {
    fn new(start: &G) -> Positions<G> {
        Positions {
            start: start.clone(),
            history: Vec::new(),
            state: start.clone(),
            legal: Vec::new(),
        }
    }

    /// The position after `history` (move texts) from the start.
    fn after<S: AsRef<str>>(&mut self, texts: &[S]) -> Result<G, String> {
        let kept = self
            .history
            .iter()
            .zip(texts)
            .take_while(|(known, text)| *known == text.as_ref())
            .count();
        if kept < self.history.len() {
            self.history.clear();
            self.state = self.start.clone();
        }
        for (ply, text) in texts.iter().enumerate().skip(self.history.len()) {
            let text = text.as_ref();
            let mv = self
                .state
                .parse_move(text)
                .map_err(|e| format!("moves[{ply}]: {e}"))?;
            self.state.apply(mv);
            self.history.push(text.to_string());
        }
        self.state.legal_moves(&mut self.legal);
        if self.legal.is_empty() {
            return Err("the position after `moves` has no legal move".to_string());
        }
        Ok(self.state.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Decision, Limits};
    use crate::games::breakthrough::{Breakthrough, Rules};

    /// Plays the first legal move and remembers its seed.
    struct First(u64);

    impl Agent<Breakthrough> for First {
        fn decide(
            &mut self,
            state: &Breakthrough,
            _limits: &Limits,
        ) -> Decision<<Breakthrough as Game>::Move> {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            let mut decision = Decision::just(moves[(self.0 % moves.len() as u64) as usize]);
            decision.depth = 1;
            decision
        }
    }

    /// What `First` answers to `input`: its output and its log, as text.
    fn served_text(input: &str) -> (String, String) {
        let start = Breakthrough::new(Rules::Standard);
        let (mut output, mut log) = (Vec::new(), Vec::new());
        serve(
            &start,
            "breakthrough(rules=standard)",
            "first",
            &|seed| Box::new(First(seed)),
            input.as_bytes(),
            &mut output,
            &mut log,
        )
        .expect("in memory");
        let text = |bytes| String::from_utf8(bytes).expect("utf8");
        (text(output), text(log))
    }

    fn served(input: &str) -> (Vec<Value>, String) {
        let (output, log) = served_text(input);
        let replies = output
            .lines()
            .map(|l| serde_json::from_str(l).expect("each reply is one JSON line"))
            .collect();
        (replies, log)
    }

    #[test]
    fn a_move_reply_is_the_bytes_of_its_json_object() {
        for (score, mv) in [
            (None, "a2-a3"),
            (Some(0.5), "b2-c3"),
            (Some(-1.0), "h7-h6"),
            (Some(1e300), "a\"b\\c\td"),
            (Some(f64::NAN), "é"),
            (Some(f64::NEG_INFINITY), ""),
        ] {
            let reply = MoveReply {
                depth: 3,
                evaluated: 80,
                nodes: u64::MAX,
                score,
                mv: mv.to_string(),
            };
            let mut bytes = Vec::new();
            reply.write(&mut bytes).expect("written");
            let object = json!({"type": "move", "move": mv,
                "info": {"depth": 3, "nodes": u64::MAX, "evaluated": 80, "score": score}});
            assert_eq!(
                String::from_utf8(bytes).expect("UTF-8"),
                serde_json::to_string(&object).expect("object")
            );
        }
    }

    #[test]
    fn requests_are_answered_in_order_and_bad_lines_skipped() {
        let input = r#"{"type":"hello","protocol":1,"game":"breakthrough(rules=standard)"}
not json at all
{"type":"ping","id":9}
{"type":"new_game","game_id":1,"seat":"P2","seed":2}
{"type":"move","moves":["a2-a3"],"time_ms":50}
{"type":"move","moves":["a2-a4"]}
{"type":"teleport"}
{"type":"quit"}
{"type":"ping","id":10}
"#;
        let (replies, log) = served(input);
        assert_eq!(replies.len(), 3, "{replies:?}");
        assert_eq!(replies[0]["type"], "ready");
        assert_eq!(replies[0]["name"], "first");
        assert_eq!(replies[1], json!({"type": "pong", "id": 9}));
        // Seed 2 picks P2's third legal move after a2-a3.
        let mut state = Breakthrough::new(Rules::Standard);
        state.apply(state.parse_move("a2-a3").expect("legal"));
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        assert_eq!(replies[2]["move"], state.format_move(moves[2]));
        assert_eq!(replies[2]["info"]["depth"], 1);
        // The illegal history, the line that is not JSON and the unknown type are reported,
        // one line each, and nothing after quit is read.
        assert!(log.contains("line 2: not JSON"), "{log}");
        assert!(log.contains("line 6: moves[0]: move 'a2-a4'"), "{log}");
        assert!(
            log.contains("line 7: unknown request type 'teleport'"),
            "{log}"
        );
        assert_eq!(log.lines().count(), 3, "{log}");
    }

    #[test]
    fn a_move_request_read_without_a_tree_is_answered_as_the_general_reader_answers() {
        // The usual line goes the quick way; each variant after it is refused by the quick
        // reader (a duplicate key, a float, a non-string move, a move written with escapes)
        // and read the general way.
        let usual = r#"{"type":"move","game_id":1,"ply":2,"seat":"P1","moves":["a2-a3","a7-a6"],"legal":["b2-b3"],"position":{"board":"x"},"time_ms":50,"clock":null}"#;
        let variants = [
            r#"{"type":"pong","type":"move","moves":["a2-a3","a7-a6"],"time_ms":50}"#,
            r#"{"type":"move","moves":["a2-a3","a7-a6"],"time_ms":50.5}"#,
            r#"{"type":"move","moves":["a2-a3",7,"a7-a6"]}"#,
            r#"{"type":"move","moves":["a\u0032-a3","a7-a6"]}"#,
        ];
        assert!(super::super::move_line::read(usual, &mut Vec::new()).is_some());
        for line in variants {
            assert!(
                super::super::move_line::read(line, &mut Vec::new()).is_none(),
                "{line}"
            );
        }
        let answer = |line: &str| {
            let input = format!("{}\n{line}\n", r#"{"type":"new_game","seed":4}"#);
            let (output, log) = served_text(&input);
            assert!(log.is_empty(), "{log}");
            output
        };
        let quick = answer(usual);
        let history = ["a2-a3".to_string(), "a7-a6".to_string()];
        assert_eq!(
            quick,
            format!(
                "{}\n",
                json!({"type": "move", "move": kth_after(&history, 4),
                    "info": {"depth": 1, "nodes": 0, "evaluated": 0, "score": null}})
            ),
            "the reply's bytes are those of the JSON object it stands for"
        );
        for line in variants {
            assert_eq!(answer(line), quick, "{line}");
        }
        // An array holding a move request's fields in order is no request (a derived
        // reader would take it): not answered, and reported as the general path does.
        let array = r#"["move",["a2-a3","a7-a6"],50,null]"#;
        let (replies, log) = served(&format!("{array}\n"));
        assert!(replies.is_empty(), "{replies:?}");
        assert!(log.contains("line 1: unknown request type ''"), "{log}");
    }

    /// The k-th legal move after `history` (the agent `First(k)` plays it).
    fn kth_after(history: &[String], k: usize) -> String {
        let mut state = Breakthrough::new(Rules::Standard);
        for text in history {
            state.apply(state.parse_move(text).expect("legal"));
        }
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        state.format_move(moves[k % moves.len()])
    }

    #[test]
    fn a_history_that_grows_shrinks_or_changes_is_answered_from_its_own_position() {
        // A game's requests, then a takeback to an earlier position, a different line from
        // the start, and the first game's position again: each answer is the fresh
        // replay's.
        let mut game = Vec::new();
        for _ in 0..12 {
            game.push(kth_after(&game, 5));
        }
        let histories: Vec<Vec<String>> = vec![
            game[..2].to_vec(),
            game[..4].to_vec(),
            game[..9].to_vec(),
            game[..3].to_vec(),
            vec![kth_after(&[], 1), kth_after(&[kth_after(&[], 1)], 1)],
            game[..12].to_vec(),
            Vec::new(),
        ];
        let mut input = String::from(r#"{"type":"new_game","game_id":1,"seat":"P1","seed":7}"#);
        for history in &histories {
            input.push('\n');
            input.push_str(&json!({"type": "move", "moves": history}).to_string());
        }
        input.push('\n');
        let (replies, log) = served(&input);
        assert_eq!(log, "");
        assert_eq!(replies.len(), histories.len());
        for (reply, history) in replies.iter().zip(&histories) {
            assert_eq!(reply["move"], kth_after(history, 7), "after {history:?}");
        }
    }
}

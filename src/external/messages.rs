//! The agent protocol's messages as the harness handles them on the game path: a move
//! request written straight from the game's history (no JSON tree), and a reply line read
//! the quick way when it is a plain move, as a JSON tree otherwise.

use super::clip;
use crate::core::json;
use crate::core::{Game, Player};
use serde_json::Value;
use std::borrow::Cow;

/// The move and what the program said about it, from its reply line.
#[derive(Debug, PartialEq)]
pub(super) enum Reply {
    Move(String, Option<MoveInfo>),
    /// Not a message: not JSON, or JSON that is not an object with a `type` (a student's
    /// `print(score)` printing `-24`): counted and logged, never taken as the reply.
    NotMessage,
    Other(String),
}

/// Whether a stdout line is a message of the protocol: a JSON object with a `type`.
pub(super) fn message_of(line: &str) -> Option<Value> {
    serde_json::from_str::<Value>(line)
        .ok()
        .filter(|value| value.get("type").is_some())
}

/// A move reply's fields read without a JSON tree. Reading a line as this fails unless
/// every field it names has the type the general path expects (and no key is repeated),
/// so both read a line alike.
#[derive(serde::Deserialize)]
struct ReplyLine<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(rename = "move", borrow)]
    mv: Cow<'a, str>,
    #[serde(default)]
    info: Option<MoveInfo>,
}

/// What a program says of its search with its move (each count absent when not a whole
/// number, the score when not a number).
#[derive(Debug, Default, PartialEq)]
pub(super) struct MoveInfo {
    pub(super) depth: Option<u64>,
    pub(super) nodes: Option<u64>,
    pub(super) evaluated: Option<u64>,
    pub(super) score: Option<f64>,
}

/// Read from a JSON object only (a derived reader would take an array too, which the
/// general path does not count as info); a repeated key counts its last value, as in a
/// JSON tree; a key written with escapes fails the quick read.
impl<'de> serde::Deserialize<'de> for MoveInfo {
    fn deserialize<D: serde::Deserializer<'de>>(reader: D) -> Result<MoveInfo, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = MoveInfo;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<MoveInfo, A::Error> {
                let mut info = MoveInfo::default();
                while let Some(key) = map.next_key::<&'de str>()? {
                    match key {
                        "depth" => info.depth = map.next_value()?,
                        "nodes" => info.nodes = map.next_value()?,
                        "evaluated" => info.evaluated = map.next_value()?,
                        "score" => info.score = map.next_value()?,
                        _ => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(info)
            }
        }
        reader.deserialize_map(Fields)
    }
}

impl MoveInfo {
    /// The info of a reply read as a JSON tree (`None` when it is not an object).
    fn of(info: &Value) -> Option<MoveInfo> {
        info.is_object().then(|| MoveInfo {
            depth: info["depth"].as_u64(),
            nodes: info["nodes"].as_u64(),
            evaluated: info["evaluated"].as_u64(),
            score: info["score"].as_f64(),
        })
    }
}

/// A program's reply line: a move read the quick way, anything else as a JSON tree.
pub(super) fn read_reply(line: &str) -> Reply {
    quick_reply(line).unwrap_or_else(|| tree_reply(line))
}

/// The move of a reply line read without a JSON tree; `None` for any line it does not
/// cover (not an object, another type, a field of another type, a repeated key).
pub(super) fn quick_reply(line: &str) -> Option<Reply> {
    if !line.trim_start().starts_with('{') {
        return None;
    }
    let reply = serde_json::from_str::<ReplyLine>(line).ok()?;
    (reply.kind == "move").then(|| Reply::Move(reply.mv.into_owned(), reply.info))
}

/// A reply line read as a JSON tree.
pub(super) fn tree_reply(line: &str) -> Reply {
    match message_of(line) {
        None => Reply::NotMessage,
        Some(reply) => match (&reply["type"], &reply["move"]) {
            (Value::String(kind), Value::String(mv)) if kind == "move" => {
                Reply::Move(mv.clone(), MoveInfo::of(&reply["info"]))
            }
            (Value::String(kind), _) if kind == "pong" => Reply::Other("pong".to_string()),
            _ => Reply::Other(format!(
                "expected {{\"type\": \"move\", \"move\": \"...\"}}, got {}",
                clip(line)
            )),
        },
    }
}

/// A `move` request, written straight from the game's history and legal moves (a `json!`
/// value copied the whole history every move, and serde_json's derived writer escaped
/// every move of the history again every move). Fields in the order a JSON object's keys
/// sort, as the protocol's other messages are written; the bytes are serde_json's (a test
/// compares them).
pub(super) struct MoveRequest<'a, G> {
    pub(super) clock: Option<Value>,
    pub(super) game_id: u64,
    pub(super) legal: &'a [String],
    /// The history's moves as the inside of a JSON list, each written once, when played.
    pub(super) moves: &'a [u8],
    pub(super) ply: usize,
    pub(super) position: &'a G,
    pub(super) seat: Player,
    pub(super) time_ms: Option<u64>,
}

impl<G: Game> MoveRequest<'_, G> {
    /// Appends the request's JSON object (no line end).
    pub(super) fn write(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.extend_from_slice(b"{\"clock\":");
        match &self.clock {
            Some(clock) => serde_json::to_writer(&mut *out, clock)?,
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"game_id\":");
        json::push_u64(out, self.game_id);
        out.extend_from_slice(b",\"legal\":[");
        json::push_strings(out, self.legal.iter().map(String::as_str));
        out.extend_from_slice(b"],\"moves\":[");
        out.extend_from_slice(self.moves);
        out.extend_from_slice(b"],\"ply\":");
        json::push_u64(out, self.ply as u64);
        out.extend_from_slice(b",\"position\":");
        self.position.write_view_json(self.seat, out);
        out.extend_from_slice(b",\"seat\":");
        json::push_str(out, self.seat.label());
        out.extend_from_slice(b",\"time_ms\":");
        json::push_opt_u64(out, self.time_ms);
        out.extend_from_slice(b",\"type\":\"move\"}");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_reply_read_the_quick_way_reads_as_its_json_tree_does() {
        // (line, whether the quick reader takes it)
        let lines = [
            (r#"{"type":"move","move":"a2-a3"}"#, true),
            (
                r#" {"move":"a2-a3","type":"move","info":{"depth":3,"nodes":120,"evaluated":80,"score":-1.5}}"#,
                true,
            ),
            (
                r#"{"type":"move","move":"a2-a3","info":{"depth":3,"pv":["a2-a3"],"score":2}}"#,
                true,
            ),
            (
                r#"{"type":"move","move":"a2-a3","info":{"depth":3,"depth":5}}"#,
                true,
            ),
            (r#"{"type":"move","move":"a2-a3","info":null}"#, true),
            (
                r#"{"type":"move","move":"a2-a3","info":{"depth":null,"score":null}}"#,
                true,
            ),
            (r#"{"type":"move","move":"a\u0032-a3"}"#, true),
            // Left to the tree: info that is no object, counts that are not whole
            // numbers, a key written with escapes, a repeated key, another type.
            (
                r#"{"type":"move","move":"a2-a3","info":[3,120,80,1.5]}"#,
                false,
            ),
            (r#"{"type":"move","move":"a2-a3","info":7}"#, false),
            (
                r#"{"type":"move","move":"a2-a3","info":{"depth":-1,"nodes":2.5,"score":"x"}}"#,
                false,
            ),
            (
                r#"{"type":"move","move":"a2-a3","info":{"d\u0065pth":4}}"#,
                false,
            ),
            (r#"{"type":"pong","type":"move","move":"a2-a3"}"#, false),
            (r#"{"type":"move","move":7}"#, false),
            (r#"{"type":"pong","id":3}"#, false),
            (r#"["move","a2-a3"]"#, false),
            ("-24", false),
            ("not json", false),
        ];
        for (line, quick) in lines {
            let taken = quick_reply(line);
            assert_eq!(taken.is_some(), quick, "{line}");
            if let Some(reply) = taken {
                assert_eq!(reply, tree_reply(line), "{line}");
            }
            assert_eq!(read_reply(line), tree_reply(line), "{line}");
        }
        // The tree's reading of the lines above, as the protocol describes it.
        let Reply::Move(mv, Some(info)) = read_reply(lines[1].0) else {
            panic!("a move with info");
        };
        assert_eq!(mv, "a2-a3");
        assert_eq!(
            (info.depth, info.nodes, info.evaluated, info.score),
            (Some(3), Some(120), Some(80), Some(-1.5))
        );
        assert_eq!(
            read_reply(lines[3].0),
            Reply::Move(
                "a2-a3".into(),
                Some(MoveInfo {
                    depth: Some(5),
                    ..MoveInfo::default()
                })
            )
        );
        assert_eq!(read_reply(lines[6].0), Reply::Move("a2-a3".into(), None));
        assert_eq!(read_reply(lines[7].0), Reply::Move("a2-a3".into(), None));
        assert_eq!(read_reply("-24"), Reply::NotMessage);
    }

    #[test]
    fn a_move_request_reads_as_the_same_line_as_a_json_object_of_its_fields() {
        let history = [
            "a2-a3".to_string(),
            "h7-h6".to_string(),
            "say \"x\\y\"\t".to_string(),
        ];
        let mut history_json = Vec::new();
        json::push_strings(&mut history_json, history.iter().map(String::as_str));
        let legal = ["b2-b3".to_string(), "c2\u{1}\n-é".to_string()];
        let state = crate::games::breakthrough::Breakthrough::new(
            crate::games::breakthrough::Rules::Standard,
        );
        let position = state.position_json();
        for (clock, time_ms, moves) in [
            (None, None, 3),
            (Some(serde_json::json!({"p1_ms": 5})), Some(40), 3),
            (None, Some(0), 0),
        ] {
            let moves_json = if moves == 0 {
                &[][..]
            } else {
                &history_json[..]
            };
            let request = MoveRequest {
                clock: clock.clone(),
                game_id: 7,
                legal: &legal[..moves.min(2)],
                moves: moves_json,
                ply: moves,
                position: &state,
                seat: Player::P1,
                time_ms,
            };
            let object = serde_json::json!({
                "type": "move", "game_id": 7, "ply": moves, "seat": "P1", "position": position,
                "moves": history[..moves], "legal": legal[..moves.min(2)], "time_ms": time_ms,
                "clock": clock,
            });
            let mut line = Vec::new();
            request.write(&mut line).expect("request");
            assert_eq!(
                String::from_utf8(line).expect("UTF-8"),
                serde_json::to_string(&object).expect("object")
            );
        }
    }
}
